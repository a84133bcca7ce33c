import type { ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startElasticsearch } from "../../infra/elasticsearch/start.ts";
import type { JvmCluster } from "../../infra/jvm-cluster.ts";
import { startOpenSearch } from "../../infra/opensearch/start.ts";
import { runCli } from "../helpers/cli.ts";
import {
  freePort,
  freePortPair,
  redisServerAvailable,
  startRedis,
  stopProcess,
} from "../helpers/processes.ts";
import {
  type PostgresServer,
  privatePostgresAvailable,
  ServiceProcess,
  startPostgresServer,
} from "../helpers/topology.ts";

/**
 * Faults on the production topology: a Postgres server, a Redis (with its append-only file, as
 * production runs it), an OpenSearch and an Elasticsearch node of this test's own, the API and
 * the worker as real processes. Each run loads one code (the Code des relations entre le public
 * et l'administration, 474 articles) through the ingest queue into a fresh database and index,
 * with a fault during the run: the worker killed with SIGKILL at a random moment (20 runs), Redis
 * stopped and restarted, the OpenSearch node and (indexing into it) the Elasticsearch node
 * stopped and restarted, Postgres restarted. After each, the corpus, the index
 * and the change log must equal those of a clean run (checksums of their content), and every
 * answer the API gave meanwhile must have been the spec's envelope.
 */
const CODE = "LEGITEXT000031366350";
const KILL_RUNS = Number(process.env.FAULT_KILL_RUNS ?? 20);

/** Content of the corpus and the change log, without surrogate ids, run ids or timestamps. */
const CHECKSUMS: Record<string, string> = {
  documents:
    "SELECT (to_jsonb(t) - ARRAY['id','created_at','updated_at','last_run_id'])::text FROM documents t",
  sections: `SELECT (to_jsonb(t) - 'document_id' || jsonb_build_object('document', d.public_id))::text
             FROM sections t JOIN documents d ON d.id = t.document_id`,
  provisions: `SELECT (to_jsonb(t) - ARRAY['id','document_id','created_at','updated_at','last_run_id'])::text
               FROM provisions t`,
  versions: `SELECT (to_jsonb(t) - 'provision_id' || jsonb_build_object('provision', p.public_id))::text
             FROM provision_versions t JOIN provisions p ON p.id = t.provision_id`,
  links: `SELECT (to_jsonb(t) - 'provision_id' || jsonb_build_object('provision', p.public_id))::text
          FROM provision_links t JOIN provisions p ON p.id = t.provision_id`,
  change_log: `SELECT (to_jsonb(t) - ARRAY['seq','provision_id','document_id','run_id','recorded_at','idempotency_key']
                 || jsonb_build_object('provision', p.public_id))::text
               FROM change_log t JOIN provisions p ON p.id = t.provision_id`,
};

interface Observed {
  checksums: Record<string, string>;
  indexed: string;
  /** The index's documents by public id, to name what differs when the checksum does. */
  documents: Map<string, Record<string, unknown>>;
  responses: number;
  outsideEnvelope: string[];
  /** From submission to a settled pipeline (run done, both outboxes empty). */
  elapsedMs: number;
  changeLogRows: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!privatePostgresAvailable() || !redisServerAvailable())(
  "faults on the production topology",
  () => {
    let postgres: PostgresServer;
    let redis: ChildProcess;
    let redisPort: number;
    const redisDir = mkdtempSync(path.join(tmpdir(), "lc-redis-"));
    let opensearch: JvmCluster;
    let opensearchPort: number;
    const opensearchData = mkdtempSync(path.join(tmpdir(), "lc-fault-opensearch-"));
    let elasticsearch: JvmCluster;
    let elasticsearchPort: number;
    const elasticsearchData = mkdtempSync(path.join(tmpdir(), "lc-fault-elasticsearch-"));
    let reference: Observed;
    const keyHashSecret = randomBytes(32).toString("hex");

    beforeAll(async () => {
      postgres = await startPostgresServer();
      redisPort = await freePort();
      redis = await startRedis(redisPort, redisDir);
      opensearchPort = await freePortPair(100);
      opensearch = await startOpenSearch({ httpPort: opensearchPort, basePath: opensearchData });
      elasticsearchPort = await freePortPair(100);
      elasticsearch = await startElasticsearch({ httpPort: elasticsearchPort, basePath: elasticsearchData });
      console.log(
        "faults: a private Postgres server, Redis (append-only file), an OpenSearch and an Elasticsearch node are up",
      );
    }, 180_000);
    afterAll(async () => {
      if (redis) await stopProcess(redis);
      await opensearch?.stop();
      await elasticsearch?.stop();
      rmSync(opensearchData, { recursive: true, force: true });
      rmSync(elasticsearchData, { recursive: true, force: true });
      rmSync(redisDir, { recursive: true, force: true });
      await postgres?.stop();
    });

    /**
     * A fresh database and index (on OpenSearch unless told otherwise), the API and the worker on
     * them, and a key that may submit runs.
     */
    async function topology(name: string, engine: "opensearch" | "elasticsearch" = "opensearch") {
      const searchUrl = engine === "opensearch" ? opensearch.url : elasticsearch.url;
      const admin = new pg.Client({ connectionString: postgres.url("postgres") });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const apiPort = await freePort();
      const env = {
        DATABASE_URL: postgres.url(name),
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        REDIS_PREFIX: name,
        SEARCH_ENGINE: engine,
        SEARCH_URL: searchUrl,
        SEARCH_INDEX: name,
        KEY_HASH_SECRET: keyHashSecret,
        PORT: String(apiPort),
        PUBLIC_URL: `http://127.0.0.1:${apiPort}`,
        DATA_DIR: mkdtempSync(path.join(tmpdir(), "lc-fault-")),
        INGEST_ON_FIRST_START: "false",
        QUEUE_LOCK_SECONDS: "3",
        // A worker killed between marking outbox entries and queueing their job leaves them waiting
        // this long (300 s by default): short here, so that recovery is seen within the run.
        OUTBOX_REDISPATCH_SECONDS: "10",
        LOG_LEVEL: "info",
      };
      const api = new ServiceProcess("services/runtime/server.ts", env, "listening on");
      const worker = new ServiceProcess("services/runtime/worker.ts", env, "worker started");
      await api.start();
      await worker.start();
      await runCli(["projects", "create", "faults", "--plan", "scale"], env);
      const created = await runCli(
        [
          "keys",
          "create",
          "--project",
          "faults",
          "--scopes",
          "search:read,corpus:read,ingest:write",
          "--json",
        ],
        env,
      );
      const key = (JSON.parse(created.stdout) as { key: string }).key;
      // A pool: its connections are re-made after Postgres restarts.
      const db = new pg.Pool({ connectionString: postgres.url(name), max: 2 });
      db.on("error", () => undefined);
      return { name, env, api, worker, key, db, base: env.PUBLIC_URL, searchUrl };
    }
    type Topology = Awaited<ReturnType<typeof topology>>;

    /** Polls the API every 100 ms while `until` is pending; every answer must be the envelope. */
    async function watchApi(t: Topology, runId: () => number | undefined, until: Promise<unknown>) {
      const outside: string[] = [];
      let responses = 0;
      let done = false;
      void until.finally(() => {
        done = true;
      });
      while (!done) {
        const id = runId();
        for (const path of [
          "/api/v1/search?q=administration",
          ...(id ? [`/api/v1/admin/ingest-runs/${id}`] : []),
        ]) {
          try {
            // An answer that never comes is a failure too: 10 s is far beyond any normal one.
            const response = await fetch(`${t.base}${path}`, {
              headers: { authorization: `Bearer ${t.key}` },
              signal: AbortSignal.timeout(10_000),
            });
            const text = await response.text();
            responses += 1;
            const body = JSON.parse(text) as Record<string, any>;
            const envelope =
              response.status < 400
                ? body.data !== undefined && typeof body.meta?.request_id === "string"
                : Object.keys(body).join() === "error" &&
                  ["code", "message", "request_id"].every((k) => typeof body.error[k] === "string");
            if (!envelope || !response.headers.get("x-ratelimit-limit"))
              outside.push(`${path} ${response.status} ${text.slice(0, 200)}`);
          } catch (error) {
            outside.push(`${path}: ${(error as Error).message}`);
          }
        }
        await sleep(100);
      }
      return { responses, outside };
    }

    /** Submits the run, applies the fault, waits for the run, the change log and the index to settle. */
    async function run(t: Topology, fault: (t: Topology, runId: number) => Promise<void>): Promise<Observed> {
      let runId: number | undefined;
      const submittedAt = performance.now();
      let settledAt = 0;
      const settled = (async () => {
        const submitted = await fetch(`${t.base}/api/v1/admin/ingest-runs`, {
          method: "POST",
          headers: { authorization: `Bearer ${t.key}`, "content-type": "application/json" },
          body: JSON.stringify({ source: "legi", codes: [CODE] }),
        });
        expect(submitted.status).toBe(202);
        runId = ((await submitted.json()) as { data: { id: number } }).data.id;
        await fault(t, runId);
        const deadline = Date.now() + 120_000;
        for (;;) {
          if (Date.now() > deadline)
            throw new Error(
              `${t.name} did not settle:\nworker: ${t.worker.output.slice(-3000)}\napi: ${t.api.output.slice(-2000)}`,
            );
          const state = await t.db
            .query<{ status: string; search: number; changes: number }>(
              `SELECT (SELECT status FROM ingest_runs WHERE id = $1) AS status,
                    (SELECT count(*)::int FROM search_outbox WHERE indexed_at IS NULL) AS search,
                    (SELECT count(*)::int FROM change_outbox WHERE written_at IS NULL) AS changes`,
              [runId],
            )
            .then((r) => r.rows[0]!)
            .catch(() => undefined);
          if (state?.status === "failed")
            throw new Error(`run ${runId} failed:\n${t.worker.output.slice(-3000)}`);
          if (state?.status === "succeeded" && state.search === 0 && state.changes === 0) {
            settledAt = performance.now();
            return;
          }
          await sleep(250);
        }
      })();
      const watched = await watchApi(
        t,
        () => runId,
        settled.catch(() => undefined),
      );
      await settled;
      const checksums: Record<string, string> = {};
      for (const [name, sql] of Object.entries(CHECKSUMS)) {
        const { rows } = await t.db.query<{ sum: string }>(
          `SELECT md5(coalesce(string_agg(x, '|' ORDER BY x), '')) AS sum FROM (${sql}) AS r(x)`,
        );
        checksums[name] = rows[0]!.sum;
      }
      const changeLogRows = (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM change_log"))
        .rows[0]!.n;
      // The index as the engine holds it, read over plain HTTP (the same request on both engines).
      await fetch(`${t.searchUrl}/${t.name}/_refresh`, { method: "POST" });
      const found = await fetch(`${t.searchUrl}/${t.name}/_search`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ size: 10_000, sort: [{ public_id: "asc" }] }),
      });
      const body = (await found.json()) as { hits: { hits: Array<{ _source: Record<string, unknown> }> } };
      const hits = body.hits.hits.map((h) => JSON.stringify(h._source));
      const documents = new Map(body.hits.hits.map((h) => [String(h._source.public_id), h._source]));
      const stopped = { worker: await t.worker.kill("SIGTERM"), api: await t.api.kill("SIGTERM") };
      if (!stopped.worker || !stopped.api)
        throw new Error(
          `${t.name}: SIGTERM did not stop ${!stopped.worker ? "the worker" : "the API"} within 20 s:\n` +
            (!stopped.worker ? t.worker.output : t.api.output).slice(-4000),
        );
      await t.db.end();
      return {
        checksums,
        indexed: `${hits.length}:${hits.join("|").length}:${md5(hits.join("|"))}`,
        documents,
        responses: watched.responses,
        changeLogRows,
        elapsedMs: settledAt - submittedAt,
        outsideEnvelope: watched.outside,
      };
    }

    const expectSameAsClean = (observed: Observed, label: string) => {
      expect(observed.outsideEnvelope, `${label}: answers outside the envelope`).toEqual([]);
      expect(observed.responses, label).toBeGreaterThan(0);
      expect(observed.checksums, `${label}: corpus and change log`).toEqual(reference.checksums);
      expect(observed.indexed, `${label}: index (${indexDifferences(observed, reference)})`).toBe(
        reference.indexed,
      );
    };

    it("a clean run: the reference", async () => {
      reference = await run(await topology("clean"), async () => undefined);
      expect(Number(reference.indexed.split(":")[0])).toBeGreaterThan(400);
      console.log(
        `faults: clean run, ${reference.indexed.split(":")[0]} provisions indexed, ${reference.changeLogRows} change-log entries, settled in ${reference.elapsedMs.toFixed(0)} ms`,
      );
    });

    /** Where the pipeline stands, for the log: the run, and what waits to be indexed and written. */
    const stage = async (t: Topology, runId: number) => {
      const { rows } = await t.db.query<{ status: string; search: number; changes: number }>(
        `SELECT (SELECT status FROM ingest_runs WHERE id = $1) AS status,
                (SELECT count(*)::int FROM search_outbox WHERE indexed_at IS NULL) AS search,
                (SELECT count(*)::int FROM change_outbox WHERE written_at IS NULL) AS changes`,
        [runId],
      );
      const s = rows[0]!;
      return `run ${s.status}, ${s.search} provisions waiting to be indexed, ${s.changes} change events to write`;
    };
    /** A random moment of a clean run's duration: the fault lands while there is work in flight. */
    const at = () => Math.floor(Math.random() * reference.elapsedMs);

    it(`the worker killed with SIGKILL at a random moment, ${KILL_RUNS} times`, async () => {
      for (let i = 1; i <= KILL_RUNS; i++) {
        const t = await topology(`kill_${i}`);
        const delay = at();
        let when = "";
        const observed = await run(t, async (t, runId) => {
          await sleep(delay);
          when = await stage(t, runId);
          await t.worker.kill("SIGKILL");
          await t.worker.start();
        });
        console.log(`faults: kill ${i}: worker killed after ${delay} ms (${when})`);
        expectSameAsClean(observed, `kill run ${i} (${delay} ms)`);
      }
    }, 900_000);

    it("Redis stopped and restarted during the run", async () => {
      const observed = await run(await topology("redis"), async (t, runId) => {
        await sleep(at());
        console.log(`faults: Redis stopped (${await stage(t, runId)})`);
        redis.kill("SIGTERM");
        await new Promise((resolve) => redis.once("exit", resolve));
        await sleep(3000);
        redis = await startRedis(redisPort, redisDir);
      });
      expectSameAsClean(observed, "Redis restart");
    }, 300_000);

    it("the OpenSearch node stopped and restarted during the run", async () => {
      const observed = await run(await topology("opensearch"), async (t, runId) => {
        await sleep(at());
        console.log(`faults: OpenSearch stopped (${await stage(t, runId)})`);
        // The whole node process, as when its machine restarts; its data folder stays.
        await opensearch.stop();
        await sleep(2000);
        opensearch = await startOpenSearch({ httpPort: opensearchPort, basePath: opensearchData });
      });
      expectSameAsClean(observed, "OpenSearch restart");
    }, 300_000);

    it("the Elasticsearch node stopped and restarted during the run", async () => {
      // The reference's index came from OpenSearch: the same documents, to the byte, must end in
      // Elasticsearch.
      const observed = await run(await topology("elasticsearch", "elasticsearch"), async (t, runId) => {
        await sleep(at());
        console.log(`faults: Elasticsearch stopped (${await stage(t, runId)})`);
        await elasticsearch.stop();
        await sleep(2000);
        elasticsearch = await startElasticsearch({
          httpPort: elasticsearchPort,
          basePath: elasticsearchData,
        });
      });
      expectSameAsClean(observed, "Elasticsearch restart");
    }, 300_000);

    it("Postgres restarted during the run", async () => {
      const observed = await run(await topology("postgres_restart"), async (t, runId) => {
        // While the ingest is writing: the hardest moment for Postgres to go away.
        for (let i = 0; i < 200 && !(await stage(t, runId)).startsWith("run running"); i++) await sleep(10);
        console.log(`faults: Postgres restarting (${await stage(t, runId)})`);
        await postgres.restart();
      });
      expectSameAsClean(observed, "Postgres restart");
    }, 300_000);
  },
);

/** Which index documents differ from the clean run's, and in which fields: the first five. */
function indexDifferences(observed: Observed, reference: Observed): string {
  const ids = new Set([...observed.documents.keys(), ...reference.documents.keys()]);
  const differences: string[] = [];
  for (const id of [...ids].sort()) {
    const seen = observed.documents.get(id);
    const clean = reference.documents.get(id);
    if (!seen || !clean) {
      differences.push(`${id} ${seen ? "not in the clean run" : "missing"}`);
      continue;
    }
    const fields = [...new Set([...Object.keys(seen), ...Object.keys(clean)])].filter(
      (field) => JSON.stringify(seen[field]) !== JSON.stringify(clean[field]),
    );
    if (fields.length > 0)
      differences.push(
        `${id}: ${fields.map((f) => `${f} ${JSON.stringify(seen[f])} instead of ${JSON.stringify(clean[f])}`).join(", ")}`,
      );
  }
  return differences.length === 0
    ? "same documents"
    : `${differences.length} documents differ: ${differences.slice(0, 5).join("; ")}`.slice(0, 3000);
}

const md5 = (text: string) => createHash("md5").update(text).digest("hex");

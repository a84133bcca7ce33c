import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { Queue, type Worker } from "bullmq";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { CanonicalDocumentInput } from "../../ingest/model.ts";
import { ingest } from "../../ingest/pipeline/ingest.ts";
import { parseDomainRules } from "../../services/core/classify.ts";
import {
  INDEX_QUEUE,
  indexProvisions,
  indexPump,
  indexSink,
  startIndexWorker,
} from "../../services/jobs/index-job.ts";
import { startDispatcher } from "../../services/jobs/outbox-dispatcher.ts";
import type { IndexedEngine } from "../../services/search/engines.ts";
import { rebuildIndex, verifyIndex } from "../../services/search/indexer.ts";
import type { Database } from "../../services/store/database.ts";
import { pendingCount } from "../../services/store/outbox.ts";
import { SEARCH_OUTBOX } from "../../services/store/search-outbox.ts";
import { connectIndexEngine, INDEX_ENGINES, type IndexEngineKind } from "../helpers/engines.ts";
import { freePort, startRedis, stopProcess } from "../helpers/processes.ts";
import { openTestStore, type TestStore } from "../helpers/stores.ts";

const rules = parseDomainRules(
  "version: 1\nrules:\n  - name: x\n    match: { document: [loi-file] }\n    domains: [tax]\n",
  "inline.yaml",
);
const act = (third: string): CanonicalDocumentInput => ({
  source: { name: "canonical", documentId: "QUEUE-1", version: null },
  publicId: "loi-file",
  kind: "law",
  title: "Loi de la file d'attente",
  jurisdiction: "FR",
  status: "in_force",
  effectiveFrom: "2020-01-01",
  effectiveTo: null,
  sections: [],
  provisions: ["La taxe est due par le redevable.", "Le redevable déclare chaque année.", third].map(
    (text, i) => ({
      sourceId: `Q-${i + 1}`,
      versionId: `Q-${i + 1}@${text.length}`,
      number: String(i + 1),
      text,
      status: "in_force",
      effectiveFrom: "2020-01-01",
      effectiveTo: null,
      sectionId: null,
    }),
  ),
});
const load = (db: Database, doc: CanonicalDocumentInput) =>
  ingest(db, {
    source: "canonical",
    sourceVersion: "t",
    parameters: {},
    documentsTotal: 1,
    documents: [{ file: "t", document: doc }],
    rules,
    searchOutbox: true,
  });
const search = (engine: IndexedEngine, q: string) =>
  engine.search({
    q,
    limit: 10,
    offset: 0,
    domains: null,
    document: null,
    inForce: true,
    asOf: "2026-01-01",
  });

async function until(condition: () => Promise<boolean>, what: string, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A store of its own and an index of its own for one test, removed afterwards. */
async function withStoreAndIndex(
  engineKind: IndexEngineKind,
  kind: "pglite" | "postgres",
  label: string,
  aliasPrefix: string,
  work: (store: TestStore, engine: IndexedEngine) => Promise<void>,
) {
  const store = await openTestStore(kind, `${label}_${engineKind}`);
  const engine = connectIndexEngine(engineKind, `${aliasPrefix}-${randomBytes(4).toString("hex")}`);
  try {
    await work(store, engine);
  } finally {
    for (const index of await engine.aliasTargets()) await engine.deleteIndex(index);
    await engine.close();
    await store.dispose();
  }
}

describe.each(INDEX_ENGINES)("on a real %s node", (engineKind) => {
  describe("queue-driven indexing (Postgres outbox → BullMQ on Redis → the index)", () => {
    let store: TestStore;
    let engine: IndexedEngine;
    let redis: ChildProcess;
    let port: number;
    let queue: Queue;
    let worker: Worker;
    let dispatcher: ReturnType<typeof startDispatcher>;
    const logger = pino({ level: "silent" });

    beforeAll(async () => {
      store = await openTestStore("postgres", `queued_index_${engineKind}`);
      engine = connectIndexEngine(engineKind, `lc-queue-${randomBytes(4).toString("hex")}`);
      await rebuildIndex(store.db, engine, { shards: 1, replicas: 0 });
      port = await freePort();
      redis = await startRedis(port);
      const settings = {
        connection: { host: "127.0.0.1", port, maxRetriesPerRequest: null, enableOfflineQueue: false },
        prefix: "lc-test:bull",
        lockMs: 30_000,
      };
      queue = new Queue(INDEX_QUEUE, settings);
      queue.on("error", () => undefined);
      worker = startIndexWorker(store.db, engine, settings, logger);
      dispatcher = startDispatcher([indexPump(store.db, indexSink(store.db, { queue }))], logger, 300);
    });
    afterAll(async () => {
      await dispatcher?.stop();
      await worker?.close(true).catch(() => undefined);
      await queue?.close().catch(() => undefined);
      if (redis) await stopProcess(redis);
      for (const index of (await engine?.aliasTargets()) ?? []) await engine.deleteIndex(index);
      await engine?.close();
      await store?.dispose();
    });

    it("indexes what ingest wrote, through the outbox and the queue", async () => {
      await load(store.db, act("Le contrôle fiscal est annuel."));
      // Each provision once, unless the dispatcher handed its entry to a job before the run's
      // priors were refreshed (refreshSearchAuthority): then the first, which opens the act, has a
      // second entry, so that its index document holds its prior.
      const { rows } = await store.db.query<{ public_id: string }>(
        "SELECT DISTINCT public_id FROM search_outbox WHERE indexed_at IS NULL ORDER BY public_id",
      );
      expect(rows.map((r) => r.public_id)).toEqual(["loi-file/1", "loi-file/2", "loi-file/3"]);
      await until(async () => (await pendingCount(store.db, SEARCH_OUTBOX)) === 0, "the outbox to drain");
      await engine.refresh((await engine.aliasTargets())[0]!);
      expect((await search(engine, "contrôle fiscal")).hits.map((h) => h.publicId)).toEqual(["loi-file/3"]);
      expect(await verifyIndex(store.db, engine)).toMatchObject({ missing: [], stale: [], extra: [] });
    });

    it("re-indexes only the provision that changed", async () => {
      await load(store.db, act("Le contrôle douanier est trimestriel."));
      const { rows } = await store.db.query<{ public_id: string }>(
        "SELECT public_id FROM search_outbox WHERE indexed_at IS NULL",
      );
      expect(rows.map((r) => r.public_id)).toEqual(["loi-file/3"]);
      await until(
        async () => (await pendingCount(store.db, SEARCH_OUTBOX)) === 0,
        "the change to be indexed",
      );
      await engine.refresh((await engine.aliasTargets())[0]!);
      expect((await search(engine, "douanier")).hits.map((h) => h.publicId)).toEqual(["loi-file/3"]);
      // The old wording is gone: only it said « fiscal ».
      expect((await search(engine, "fiscal")).hits).toEqual([]);
    });

    it("is idempotent: the same batch twice leaves the same index, and is queued once", async () => {
      const batch = { firstId: 1, lastId: 3, items: ["loi-file/1", "loi-file/2", "loi-file/3"] };
      const [index] = await engine.aliasTargets();
      await indexProvisions(store.db, engine, batch);
      const once = await engine.hashes(index!);
      await indexProvisions(store.db, engine, batch);
      expect(await engine.hashes(index!)).toEqual(once);
      const sink = indexSink(store.db, { queue });
      const probe = { firstId: 9_000_001, lastId: 9_000_001, items: ["loi-file/1"] };
      await sink(probe);
      await sink(probe);
      const jobs = await queue.getJobs(["waiting", "active", "completed", "delayed", "failed"]);
      expect(jobs.filter((j) => j.id === "index-provisions-9000001-9000001")).toHaveLength(1);
    });

    it("loses nothing while Redis is down: ingest succeeds, entries wait, and are indexed when it is back", async () => {
      await stopProcess(redis);
      await load(store.db, act("Le contrôle social est mensuel."));
      await dispatcher.flush();
      expect(await pendingCount(store.db, SEARCH_OUTBOX)).toBe(1);
      // Handed back to the outbox, not left as dispatched. The dispatcher's timer keeps trying: a
      // round in flight marks the entry for the moment its queue.add takes to fail, so the state
      // is read until it shows the entry waiting (a sink that never gave it back would time out).
      await vi.waitFor(
        async () => {
          const waiting = await store.db.query<{ dispatched_at: Date | null }>(
            "SELECT dispatched_at FROM search_outbox WHERE indexed_at IS NULL",
          );
          expect(waiting.rows).toEqual([{ dispatched_at: null }]);
        },
        { timeout: 10_000, interval: 25 },
      );

      redis = await startRedis(port);
      await until(
        async () => (await pendingCount(store.db, SEARCH_OUTBOX)) === 0,
        "the entry to be indexed after Redis came back",
        60_000,
      );
      await engine.refresh((await engine.aliasTargets())[0]!);
      expect((await search(engine, "mensuel")).hits.map((h) => h.publicId)).toEqual(["loi-file/3"]);
      expect(await verifyIndex(store.db, engine)).toMatchObject({ missing: [], stale: [], extra: [] });
    });
  });

  describe("a rebuild racing with indexing jobs", () => {
    it("replays what jobs indexed into the old index while the new one was being built", async () => {
      await withStoreAndIndex(engineKind, "postgres", "rebuild_race", "lc-race", async (store, engine) => {
        await load(store.db, act("Le contrôle initial est prévu."));
        await rebuildIndex(store.db, engine, { shards: 1, replicas: 0 });
        await store.db.exec("UPDATE search_outbox SET dispatched_at = now(), indexed_at = now()");
        // Once the rebuild has read its page, an ingest changes a provision and a job indexes it
        // into the index the alias still points at.
        let raced = false;
        const racing = Object.create(engine) as IndexedEngine;
        racing.bulk = async (index, upserts, deletes) => {
          const failed = await engine.bulk(index, upserts, deletes);
          if (!raced) {
            raced = true;
            await load(store.db, act("Le contrôle concurrent est arrivé pendant la reconstruction."));
            const pending = await store.db.query<{ id: number; public_id: string }>(
              "SELECT id, public_id FROM search_outbox WHERE indexed_at IS NULL",
            );
            const ids = pending.rows.map((r) => Number(r.id));
            await indexProvisions(store.db, engine, {
              firstId: Math.min(...ids),
              lastId: Math.max(...ids),
              items: pending.rows.map((r) => r.public_id),
            });
          }
          return failed;
        };
        await rebuildIndex(store.db, racing, { shards: 1, replicas: 0 });
        expect(raced).toBe(true);
        expect(await verifyIndex(store.db, engine)).toMatchObject({ missing: [], stale: [], extra: [] });
        expect((await search(engine, "concurrent")).hits.map((h) => h.publicId)).toEqual(["loi-file/3"]);
      });
    });
  });

  describe("two jobs racing on one provision", () => {
    it("leaves the index with what Postgres holds now, whichever job writes last", async () => {
      await withStoreAndIndex(engineKind, "postgres", "job_race", "lc-job-race", async (store, engine) => {
        await load(store.db, act("Le contrôle premier est prévu."));
        await rebuildIndex(store.db, engine, { shards: 1, replicas: 0 });
        // A job reads the row; before its write lands, the provision changes and a second job
        // (the change's own entry) indexes the new text. The first job's write arrives last.
        let writes = 0;
        const late = Object.create(engine) as IndexedEngine;
        late.bulk = async (index, upserts, deletes) => {
          writes += 1;
          if (writes === 1) {
            await store.db.exec(
              "UPDATE provisions SET text = 'Le contrôle second est en vigueur.', content_hash = 'second' WHERE public_id = 'loi-file/3'",
            );
            await indexProvisions(store.db, engine, { firstId: 2, lastId: 2, items: ["loi-file/3"] });
            await engine.refresh(index);
            expect((await search(engine, "second")).hits.map((h) => h.publicId)).toEqual(["loi-file/3"]);
          }
          return engine.bulk(index, upserts, deletes);
        };
        await indexProvisions(store.db, late, { firstId: 1, lastId: 1, items: ["loi-file/3"] });
        await engine.refresh((await engine.aliasTargets())[0]!);
        expect(await verifyIndex(store.db, engine)).toMatchObject({ missing: [], stale: [], extra: [] });
        expect((await search(engine, "second")).hits.map((h) => h.publicId)).toEqual(["loi-file/3"]);
        expect(writes, "the first job wrote again what changed after its read").toBe(2);
      });
    });
  });

  describe("a rebuild and the outbox", () => {
    it("marks what was waiting as done, since the new index holds it", async () => {
      await withStoreAndIndex(engineKind, "pglite", "rebuild_outbox", "lc-covered", async (store, engine) => {
        await load(store.db, act("Le contrôle couvert est inclus."));
        expect(await pendingCount(store.db, SEARCH_OUTBOX)).toBe(3);
        await rebuildIndex(store.db, engine, { shards: 1, replicas: 0 });
        expect(await pendingCount(store.db, SEARCH_OUTBOX)).toBe(0);
        expect(await verifyIndex(store.db, engine)).toMatchObject({ missing: [], stale: [], extra: [] });
      });
    });
  });

  describe("embedded indexing (PGlite, no Redis: the same jobs in-process)", () => {
    it("drains the outbox into the index in the same process", async () => {
      await withStoreAndIndex(
        engineKind,
        "pglite",
        "embedded_index",
        "lc-embedded",
        async (store, engine) => {
          await rebuildIndex(store.db, engine, { shards: 1, replicas: 0 });
          await load(store.db, act("Le contrôle embarqué est quotidien."));
          const dispatcher = startDispatcher(
            [indexPump(store.db, indexSink(store.db, { index: engine }))],
            pino({ level: "silent" }),
            60_000,
          );
          await dispatcher.flush();
          await dispatcher.stop();
          expect(await pendingCount(store.db, SEARCH_OUTBOX)).toBe(0);
          await engine.refresh((await engine.aliasTargets())[0]!);
          expect((await search(engine, "quotidien")).hits.map((h) => h.publicId)).toEqual(["loi-file/3"]);
        },
      );
    });
  });
});

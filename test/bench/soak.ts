import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import pg from "pg";
import { startOpenSearch } from "../../infra/opensearch/start.ts";
import { runCli } from "../helpers/cli.ts";
import { freePort, freePortPair } from "../helpers/processes.ts";
import { ServiceProcess } from "../helpers/topology.ts";
import { findEnginePid } from "./index-cpu.ts";
import { summariseLatencies } from "./latency.ts";
import { BENCH_QUERIES } from "./queries.ts";
import { freshTarget } from "./targets.ts";

/**
 * npm run bench:soak — the production topology (server Postgres, Redis, an OpenSearch node, the
 * API and the worker as processes) under a steady, open-loop load on loopback: SOAK_RATE requests
 * a second (default 50) for SOAK_SECONDS (default 600), a mix of searches, provisions, documents,
 * changes and coverage. Prints p50/p99 and errors per minute, and the resident memory of each
 * process every 30 s; fails (exit 1) on any error, or when a process's memory in the last minute
 * is more than 10% (and 30 MB) above its memory after the first two minutes.
 *
 * The Postgres backends serving the soak's database are counted by their private memory
 * (Pss_Anon of /proc/<pid>/smaps_rollup, summed): their RSS also counts the pages of shared
 * buffers each backend has touched, which rises as the cache warms and says nothing of a leak.
 */
const RATE = Number(process.env.SOAK_RATE ?? 50);
const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const CODES = ["LEGITEXT000006072050", "LEGITEXT000031366350"];

const rssMb = (pid: number | string | undefined) => {
  if (!pid) return Number.NaN;
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
};
/** Private memory of the backends connected to `database` (all but the sampler's own), and their number. */
async function postgresBackends(
  sampler: pg.Client,
  database: string,
): Promise<{ mb: number; count: number }> {
  const { rows } = await sampler.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
    [database],
  );
  let kb = 0;
  let count = 0;
  for (const { pid } of rows) {
    try {
      kb += Number(/Pss_Anon:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))![1]);
      count += 1;
    } catch {
      // The backend ended between the query and the read (a pool closed an idle connection).
    }
  }
  return { mb: kb / 1024, count };
}
const redisRssMb = (port: number) => {
  const info = execFileSync("redis-cli", ["-p", String(port), "info", "memory"]).toString();
  return Number(/used_memory_rss:(\d+)/.exec(info)![1]) / 1024 / 1024;
};

async function main() {
  const target = await freshTarget("pg");
  const osPort = await freePortPair(100);
  const opensearch = await startOpenSearch({ httpPort: osPort });
  const apiPort = await freePort();
  const name = `lc_soak_${randomBytes(3).toString("hex")}`;
  const env = {
    ...target.env,
    REDIS_URL: process.env.SOAK_REDIS_URL ?? "redis://127.0.0.1:6379",
    REDIS_PREFIX: name,
    SEARCH_ENGINE: "opensearch",
    SEARCH_URL: opensearch.url,
    SEARCH_INDEX: name,
    KEY_HASH_SECRET: randomBytes(32).toString("hex"),
    PORT: String(apiPort),
    PUBLIC_URL: `http://127.0.0.1:${apiPort}`,
    INGEST_ON_FIRST_START: "false",
    LOG_LEVEL: "warn",
  };
  const api = new ServiceProcess("services/runtime/server.ts", env, "listening on");
  const worker = new ServiceProcess(
    "services/runtime/worker.ts",
    { ...env, LOG_LEVEL: "info" },
    "worker started",
  );
  try {
    console.log(`soak: loading ${CODES.length} codes into server Postgres…`);
    const loaded = await runCli(["ingest", "legi", "--codes", ...CODES], env);
    if (loaded.code !== 0) throw new Error(loaded.stderr);
    await api.start();
    await worker.start();
    await runCli(["projects", "create", "soak", "--plan", "scale"], env);
    const key = JSON.parse(
      (
        await runCli(
          [
            "keys",
            "create",
            "--project",
            "soak",
            "--scopes",
            "search:read,corpus:read,changes:read",
            "--json",
          ],
          env,
        )
      ).stdout,
    ).key as string;
    const paths = [
      ...BENCH_QUERIES.map(
        (q) =>
          `/api/v1/search?${new URLSearchParams({ q: q.q, ...(q.domains ? { domains: q.domains.join(",") } : {}) })}`,
      ),
      "/api/v1/provisions/code-du-travail/L1237-19",
      "/api/v1/provisions/code-du-travail/L1221-19/versions",
      "/api/v1/documents/code-du-travail?limit=20",
      "/api/v1/changes?since=2020-01-01&limit=50",
      "/api/v1/coverage",
      "/api/v1/domains",
    ];
    const pids = {
      api: api.child!.pid,
      worker: worker.child!.pid,
      opensearch: findEnginePid(osPort),
    };
    console.log(
      `soak: ${RATE} requests/s for ${SECONDS} s against ${env.PUBLIC_URL} (${paths.length} kinds of request)`,
    );

    const perMinute: Array<{ latencies: number[]; errors: number; statuses: Record<number, number> }> = [];
    const memory: Array<Record<string, number>> = [];
    const errors: string[] = [];
    const samplingErrors: string[] = [];
    const started = performance.now();
    const inFlight = new Set<Promise<void>>();
    let sent = 0;
    const pgSampler = new pg.Client({ connectionString: env.DATABASE_URL });
    await pgSampler.connect();
    const database = new URL(env.DATABASE_URL).pathname.slice(1);
    const sample = async () => {
      const second = Math.round((performance.now() - started) / 1000);
      const backends = await postgresBackends(pgSampler, database);
      memory.push({
        second,
        api: rssMb(pids.api),
        worker: rssMb(pids.worker),
        opensearch: rssMb(pids.opensearch),
        redis: redisRssMb(Number(new URL(env.REDIS_URL).port || 6379)),
        postgres: backends.mb,
        backends: backends.count,
      });
    };
    await sample();
    const sampler = setInterval(
      () => void sample().catch((error: Error) => samplingErrors.push(error.message)),
      30_000,
    );
    // Open loop: requests leave on schedule whatever the answers' latency, as independent clients send them.
    while (performance.now() - started < SECONDS * 1000) {
      const due = started + (sent * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const path = paths[sent % paths.length]!;
      sent += 1;
      const minute = Math.floor((performance.now() - started) / 60_000);
      perMinute[minute] ??= { latencies: [], errors: 0, statuses: {} };
      const bucket = perMinute[minute]!;
      const t0 = performance.now();
      const request = fetch(`${env.PUBLIC_URL}${path}`, { headers: { authorization: `Bearer ${key}` } })
        .then(async (response) => {
          await response.arrayBuffer();
          bucket.latencies.push(performance.now() - t0);
          bucket.statuses[response.status] = (bucket.statuses[response.status] ?? 0) + 1;
          if (response.status >= 400) {
            bucket.errors += 1;
            if (errors.length < 10) errors.push(`${path}: HTTP ${response.status}`);
          }
        })
        .catch((error: Error) => {
          bucket.errors += 1;
          if (errors.length < 10) errors.push(`${path}: ${error.message}`);
        })
        .finally(() => inFlight.delete(request));
      inFlight.add(request);
    }
    await Promise.all(inFlight);
    clearInterval(sampler);
    await sample();
    await pgSampler.end();

    console.log("\nminute | requests | p50 ms | p99 ms | errors");
    perMinute.forEach((m, i) => {
      const s = summariseLatencies(m.latencies, 60);
      console.log(
        `${String(i + 1).padStart(6)} | ${String(s.calls).padStart(8)} | ${s.p50Ms.toFixed(1).padStart(6)} | ${s.p99Ms.toFixed(1).padStart(6)} | ${m.errors}`,
      );
    });
    const all = summariseLatencies(
      perMinute.flatMap((m) => m.latencies),
      SECONDS,
    );
    const errorCount = perMinute.reduce((n, m) => n + m.errors, 0);
    console.log(
      `all    | ${all.calls} | ${all.p50Ms.toFixed(1)} | ${all.p99Ms.toFixed(1)} | ${errorCount} (${((100 * errorCount) / sent).toFixed(3)}%)`,
    );
    console.log(
      "\nsecond | API MB | worker MB | OpenSearch MB | Redis MB | Postgres backends MB (private) | backends",
    );
    for (const m of memory)
      console.log(
        `${String(m.second).padStart(6)} | ${m.api!.toFixed(0).padStart(6)} | ${m.worker!.toFixed(0).padStart(9)} | ${m.opensearch!.toFixed(0).padStart(13)} | ${m.redis!.toFixed(1).padStart(8)} | ${m.postgres!.toFixed(1).padStart(30)} | ${m.backends}`,
      );

    // Growth: the last minute's samples against those after two minutes of warm-up.
    const warm = memory.filter((m) => m.second! >= 120 && m.second! < 180);
    const last = memory.filter((m) => m.second! >= SECONDS - 60);
    const growth: string[] = [];
    for (const proc of ["api", "worker", "opensearch", "redis", "postgres"]) {
      const before = Math.max(...warm.map((m) => m[proc]!));
      const after = Math.max(...last.map((m) => m[proc]!));
      const grew = after - before;
      console.log(
        `${proc}: ${before.toFixed(0)} MB after warm-up, ${after.toFixed(0)} MB at the end (${grew >= 0 ? "+" : ""}${grew.toFixed(1)} MB)`,
      );
      if (warm.length && last.length && grew > Math.max(30, before * 0.1)) growth.push(proc);
    }
    if (errors.length) console.log(`\nfirst errors:\n${errors.join("\n")}`);
    if (samplingErrors.length) console.log(`\nmemory sampling failed: ${samplingErrors.join("; ")}`);
    const ok = errorCount === 0 && growth.length === 0 && samplingErrors.length === 0;
    console.log(
      ok
        ? "\nsoak: no error, no memory growth."
        : `\nsoak: FAILED (${errorCount} errors; memory grew: ${growth.join(", ") || "none"})`,
    );
    process.exitCode = ok ? 0 : 1;
  } finally {
    await worker.kill("SIGTERM");
    await api.kill("SIGTERM");
    await opensearch.stop();
    await target.dispose();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

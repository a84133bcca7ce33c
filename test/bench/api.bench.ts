import os from "node:os";
import { openStore } from "../../services/store/open.ts";
import { type ApiRun, formatCpuTable, formatSetupTable, formatTarget } from "./api-report.ts";
import { startApiServer, stopOnSignal } from "./api-server.ts";
import { type ApiSetup, prepareSetup, type SetupKind } from "./api-setup.ts";
import { commitLabel, cpuSplit, pin, positiveInteger, setupKinds } from "./bench-options.ts";
import { CpuMeter, type CpuReport } from "./cpu-meter.ts";
import { rawSearchTotals, runEngineLoad, runRawSearchLoad, warmUpEngine } from "./engine-load.ts";
import {
  checkEveryQuery,
  type HttpLoadResult,
  type LoadShape,
  type QueryCheck,
  runHttpLoad,
} from "./http-load.ts";
import { Cleanups } from "./index-setup.ts";
import type { LoadSummary } from "./latency.ts";
import { BENCH_QUERIES } from "./queries.ts";
import { describeServer } from "./targets.ts";

/**
 * npm run bench:api — GET /api/v1/search under closed-loop load (autocannon, 32 connections, a
 * fixed mix of real queries) against the real server process, beside the raw engine baseline: the
 * same queries straight into the engine from 32 async loops. Four set-ups, each loaded with the
 * full corpus once: embedded PGlite and server Postgres (baseline: PostgresSearchEngine.search),
 * server Postgres + OpenSearch and + Elasticsearch (the server with SEARCH_ENGINE set; baseline: a raw
 * `_search` over plain HTTP with the same request bodies). BENCH_SETUPS (comma-separated:
 * embedded,postgres,opensearch,elasticsearch; default all four) picks the set-ups. BENCH_RUNS (default 3)
 * repetitions of the measurement phase, BENCH_SECONDS (default 10) each; medians are reported.
 * Exit code 0 whether or not the target is met; non-zero only if the benchmark cannot run or a
 * request failed (a benchmark of failing requests measures the wrong thing).
 *
 * BENCH_ENGINE_CPUS (e.g. "1") gives the engine's node CPUs of its own, as a deployment does:
 * its JVM is pinned to them (taskset), and the API server and this process to the others, in
 * both phases alike. Without it everything shares every CPU, and on a small machine the API's own
 * CPU is taken from the engine's (see docs/PERFORMANCE.md).
 */

const runs = positiveInteger("BENCH_RUNS", 3);
const seconds = positiveInteger("BENCH_SECONDS", 10);
/** 32 by default, the issue's figure; BENCH_CONCURRENCY=1 shows the overhead of an idle server. */
const connections = positiveInteger("BENCH_CONCURRENCY", 32);
/** Long enough for JIT, the server's plan cache and Postgres's buffer cache to settle. */
const WARM_UP_SECONDS = 2;
const shape: LoadShape = { connections, warmUpSeconds: WARM_UP_SECONDS, seconds };

const kinds = setupKinds();

const cpus = cpuSplit("BENCH_ENGINE_CPUS");

/** The set-up being measured, for a signal: its server is stopped and its cleanups run. */
const measuring = stopOnSignal();

/** What the API is compared with, in the tables and the target line. */
const baselineOf = (setup: ApiSetup) => (setup.engineNode ? "raw _search" : "raw engine");

const line = (label: string, s: LoadSummary, unit: string) =>
  `${label} p50 ${s.p50Ms.toFixed(1)} ms, p99 ${s.p99Ms.toFixed(1)} ms, ${Math.round(s.perSecond)} ${unit}/s`;

async function measureApi(setup: ApiSetup): Promise<[HttpLoadResult, CpuReport | undefined, QueryCheck[]]> {
  const server = await startApiServer(setup.env);
  if (measuring.current) measuring.current.server = server;
  try {
    if (cpus && setup.engineNode) for (const pid of server.pids) pin(pid, cpus.others);
    const checks = await checkEveryQuery(server.baseUrl, setup.apiKey);
    const meter = new CpuMeter({
      serverPids: server.pids,
      enginePid: setup.engineNode?.pid,
      database: setup.postgresDatabase,
    });
    const result = await runHttpLoad(server.baseUrl, setup.apiKey, shape, meter);
    if (result.failed > 0)
      throw new Error(`${setup.label}: ${result.failed} failed request(s): ${result.failures}`);
    return [result, meter.report(result.calls), checks];
  } finally {
    if (measuring.current) measuring.current.server = undefined;
    await server.stop();
  }
}

/** What the first run's checks found; with an index engine, the raw `_search` must find the same totals. */
async function describeMix(setup: ApiSetup, checks: QueryCheck[]): Promise<void> {
  const totals = checks.map((c) => c.total);
  const empty = BENCH_QUERIES.filter((_, i) => totals[i] === 0).map((q) => q.q);
  console.log(
    `  query mix: ${BENCH_QUERIES.length - empty.length} of ${BENCH_QUERIES.length} queries find provisions ` +
      `(hits: ${totals.join(", ")})${empty.length ? `; none for ${empty.join(", ")}` : ""}`,
  );
  const bestEffort = BENCH_QUERIES.filter((_, i) => checks[i]!.filterMode === "best_effort").map((q) => q.q);
  if (bestEffort.length > 0)
    console.log(
      `  note: the API filtered ${bestEffort.join(", ")} best_effort; the baseline sends exact filters only`,
    );
  if (!setup.engineNode) return;
  const raw = await rawSearchTotals(setup.engineNode.url, setup.engineNode.alias);
  const differ = BENCH_QUERIES.flatMap((q, i) =>
    raw[i] === totals[i] ? [] : [`"${q.q}": API ${totals[i]}, raw _search ${raw[i]}`],
  );
  if (differ.length > 0)
    throw new Error(`the raw _search does not find what the API finds: ${differ.join("; ")}`);
  console.log("  raw _search: the same totals for every query");
}

/** In this process, after the server has stopped: the embedded store admits one process at a time. */
async function measureEngine(setup: ApiSetup): Promise<[LoadSummary, CpuReport | undefined]> {
  if (setup.engineNode) {
    const meter = new CpuMeter({ enginePid: setup.engineNode.pid, database: setup.postgresDatabase });
    const result = await runRawSearchLoad(setup.engineNode.url, setup.engineNode.alias, shape, meter);
    return [result, meter.report(result.calls)];
  }
  const db = await openStore({
    DATA_DIR: setup.env.DATA_DIR!,
    DATABASE_URL: setup.env.DATABASE_URL || undefined,
  });
  try {
    const meter = new CpuMeter({ database: setup.postgresDatabase });
    const result = await runEngineLoad(db, shape, meter);
    return [result, meter.report(result.calls)];
  } finally {
    await db.close();
  }
}

console.log(
  `API search benchmark: GET /api/v1/search, ${BENCH_QUERIES.length} queries, ${connections} connection(s), ` +
    `${WARM_UP_SECONDS} s warm-up + ${seconds} s per phase, ${runs} run(s) per set-up; set-ups: ${kinds.join(", ")}.\n` +
    `Machine: ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model ?? "unknown"}), Node ${process.version}, ` +
    `load average ${os.loadavg()[0]!.toFixed(2)}, server Postgres ${describeServer()}, ${commitLabel()}.\n` +
    (cpus
      ? `Index engine set-ups: the engine on CPU(s) ${cpus.chosen}, the load generator and the API server on CPU(s) ${cpus.others} (BENCH_ENGINE_CPUS); other set-ups share every CPU.`
      : "The load generator, the API server and the database share these CPUs: figures are for comparison, not capacity."),
);

const HEADINGS: Record<SetupKind, string> = {
  embedded: "Embedded PGlite: loading the corpus…",
  postgres: "Server Postgres: loading the corpus…",
  opensearch: "Server Postgres + OpenSearch: starting OpenSearch, loading the corpus, building the index…",
  elasticsearch:
    "Server Postgres + Elasticsearch: starting Elasticsearch, loading the corpus, building the index…",
};

const results: Array<{ setup: ApiSetup; runs: ApiRun[] }> = [];
try {
  for (const kind of kinds) {
    console.log(`\n${HEADINGS[kind]}`);
    const cleanups = new Cleanups();
    measuring.current = { cleanups, server: undefined };
    try {
      const setup = await prepareSetup(kind, cleanups);
      console.log(`  ${setup.provisions} provisions loaded in ${setup.loadSeconds.toFixed(1)} s`);
      const node = setup.engineNode;
      if (node)
        console.log(
          `  ${node.name} ${node.version} at ${node.url} (1 GB heap, up in ${node.startSeconds.toFixed(0)} s); ` +
            `index behind ${node.alias} built by rebuildIndex in ${node.indexSeconds.toFixed(1)} s`,
        );
      if (node) await warmUpEngine(node, connections);
      // Pinned after the warm-up: confined to one CPU, the JVM's JIT compilers compete with its
      // searches and it was still getting faster after 2 minutes (311 to 79 ms at p50), which the
      // first phases would have paid for.
      if (node && cpus) {
        if (!node.pid) throw new Error(`BENCH_ENGINE_CPUS: the ${node.name} JVM's pid is unknown here`);
        pin(node.pid, cpus.chosen);
        pin(process.pid, cpus.others);
        console.log(
          `  ${node.name} pinned to CPU(s) ${cpus.chosen}; the API server and the load generator to CPU(s) ${cpus.others}`,
        );
      }
      const setupRuns: ApiRun[] = [];
      for (let run = 1; run <= runs; run += 1) {
        const [api, apiCpu, checks] = await measureApi(setup);
        if (run === 1) await describeMix(setup, checks);
        const [engine, engineCpu] = await measureEngine(setup);
        setupRuns.push({ api, engine, apiCpu, engineCpu });
        console.log(
          `  run ${run}/${runs}  ${line("API", api, "req")}  |  ${line(baselineOf(setup), engine, "calls")}  |  ` +
            `all connections answered after ${api.allConnectionsAnsweredSeconds.toFixed(1)} s`,
        );
      }
      results.push({ setup, runs: setupRuns });
    } finally {
      if (cpus) pin(process.pid, cpus.all);
      await cleanups.run();
      measuring.current = undefined;
    }
  }
} catch (error) {
  // After a signal, what fails is whatever the cleanups cut off; they have finished by now.
  if (measuring.interrupted) process.exit(130);
  console.error(`\nerror: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

console.log(
  `\n${new Date().toISOString().slice(0, 10)}, medians of ${runs} run(s) of ${seconds} s (ms = milliseconds):`,
);
for (const { setup, runs: setupRuns } of results) {
  const versus = setup.engineNode ? " (engine = raw _search: plain HTTP, the engine's request bodies)" : "";
  console.log(`\n${setup.label}${versus}:\n\n${formatSetupTable(setupRuns)}`);
  const cpu = formatCpuTable(setupRuns, {
    openSearch: Boolean(setup.engineNode),
    baseline: baselineOf(setup),
  });
  if (cpu) console.log(`\n${cpu}`);
}
console.log("\nTarget:");
for (const { setup, runs: setupRuns } of results)
  console.log(`  ${formatTarget(setup.label, setupRuns, `the ${baselineOf(setup)}`)}`);

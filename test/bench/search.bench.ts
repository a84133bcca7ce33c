import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { repoRoot } from "../../services/core/config.ts";
import { openStore } from "../../services/store/open.ts";
import { type RunningServer, startApiServer, stopOnSignal } from "./api-server.ts";
import { type ApiSetup, prepareSetup, type SetupKind } from "./api-setup.ts";
import { commitLabel, cpuSplit, pin, positiveInteger, setupKinds } from "./bench-options.ts";
import { corpusMarkers, describeCorpus } from "./bench-source.ts";
import { CpuMeter } from "./cpu-meter.ts";
import { rawSearchTotals, runEngineLoad, runRawSearchLoad, warmUpEngine } from "./engine-load.ts";
import { HealthProbe, startBareServer } from "./health-probe.ts";
import { checkEveryQuery, type LoadShape, type MeasuredWindow, runHttpLoad } from "./http-load.ts";
import { Cleanups } from "./index-setup.ts";
import type { LoadSummary } from "./latency.ts";
import { searchPath } from "./queries.ts";
import { type ReferenceTiming, timeReference } from "./reference-timing.ts";
import { QUERY_KINDS, type QueryKind, queryListProblems, SEARCH_QUERIES } from "./search-queries.ts";
import {
  type Cell,
  CONCURRENCIES,
  type Concurrency,
  formatReport,
  type HealthFigures,
  type KindFigures,
  replaceBetweenMarkers,
  type ServerMemory,
  type SetupFigures,
} from "./search-report.ts";
import { describeServer } from "./targets.ts";

/**
 * npm run bench:search — search latency per kind of query (keywords, article numbers, questions,
 * queries at the 500-character limit: test/bench/search-queries.ts), through GET /api/v1/search on
 * the real server process, at one connection and at 32, on each set-up of bench:api (embedded
 * PGlite, server Postgres, server Postgres + OpenSearch or + Elasticsearch; BENCH_SETUPS picks them). Beside it, in
 * the same run, the baselines: the raw engine on the same queries (PostgresSearchEngine.search in
 * this process, or a raw `_search` with the engine's request bodies), the in-process BM25
 * reference of eval:relevance, and on the embedded set-up /healthz sampled while 32 connections
 * send long searches. Prints one table per set-up, the ratios and the issue's targets, and writes
 * them into docs/PERFORMANCE.md between its bench:search markers.
 *
 * BENCH_CLIENT_CPUS (e.g. "1") gives the load generator CPUs of its own, as an integrator's clients
 * on other machines: this process sends the API's load (and a raw `_search`'s) from them, and the
 * API server (every thread), the health probe (a supervisor on the server's host) and the
 * in-process baselines (the raw engine, the reference) run on the others. Unset, everything shares
 * every CPU. Server Postgres and an engine's node are not pinned.
 *
 * Each cell (set-up × path × kind × concurrency) is a closed loop cycling through the kind's list:
 * a warm-up of WARM_UP_SECONDS (and until every connection has had an answer), then BENCH_SECONDS
 * (default 5) measured. Requests that fail are counted, not fatal: a search that times out under
 * load is a finding here. Exit code 0 whether or not a target is met; 2 for bad settings or query
 * lists, 1 when the benchmark cannot run.
 */

const seconds = positiveInteger("BENCH_SECONDS", 5);
/** Long enough for the server's plan cache and the buffer cache to see every query of a kind. */
const WARM_UP_SECONDS = 1;
/** /healthz gets twice a cell's time: p99 wants a few hundred probes. */
const HEALTH_SECONDS = 2 * seconds;
const kinds = setupKinds();
const clientCpus = cpuSplit("BENCH_CLIENT_CPUS");

/**
 * With BENCH_CLIENT_CPUS, runs `work` with this process on the clients' CPUs (it sends HTTP load)
 * or on the server's (it runs an engine or the reference in-process), then on every CPU again, so
 * that what it starts meanwhile (an engine's node) is not confined.
 */
async function pinnedTo<T>(side: "client" | "server", work: () => Promise<T>): Promise<T> {
  if (!clientCpus) return work();
  pin(process.pid, side === "client" ? clientCpus.chosen : clientCpus.others);
  try {
    return await work();
  } finally {
    pin(process.pid, clientCpus.all);
  }
}

const problems = queryListProblems(SEARCH_QUERIES);
if (problems.length > 0) {
  console.error(`test/bench/search-queries.ts:\n  ${problems.join("\n  ")}`);
  process.exit(2);
}

/** The set-up being measured, for a signal: its server is stopped and its cleanups run. */
const measuring = stopOnSignal();

/** On PGlite 32 slow searches queue behind one another: a request may wait 32 times one search. */
const PATIENCE_SECONDS = 300;

/**
 * A cell's load: at one connection the window also lasts one pass through the list, so that every
 * query of the kind is measured (the connection starts at the list's first query).
 */
const shapeAt = (connections: number, queries: number, measured = seconds): LoadShape => ({
  connections,
  warmUpSeconds: WARM_UP_SECONDS,
  seconds: measured,
  minCalls: connections === 1 ? queries : 0,
  patienceSeconds: PATIENCE_SECONDS,
});

/** Several watchers of one measured window. */
const together = (...windows: MeasuredWindow[]): MeasuredWindow => ({
  begin: () => {
    for (const w of windows) w.begin();
  },
  end: () => {
    for (const w of windows) w.end();
  },
});

/**
 * Waits until the server has worked off what the last cell left queued: when autocannon stops, the
 * searches its connections had sent still run (32 of them, one at a time on PGlite), and the next
 * cell would queue behind them. One search sent after them answers once they are done (PGlite and
 * the pool's wait queue serve in order); a second's pause lets a pool's last ones finish.
 */
async function settle(baseUrl: string, apiKey: string): Promise<void> {
  const response = await fetch(baseUrl + searchPath({ q: "SMIC" }), {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  await response.arrayBuffer();
  await new Promise((resolve) => setTimeout(resolve, 1000));
}

/**
 * How the server ranks, once it is done building its in-memory copy (the embedded store, right
 * after a start): measuring before would time SQL ranking instead.
 */
async function rankingOnceBuilt(baseUrl: string): Promise<string> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const ready = (await (await fetch(`${baseUrl}/readyz`)).json()) as { checks: { search: string } };
    if (!ready.checks.search.includes("until the in-memory copy is built") || Date.now() > deadline)
      return ready.checks.search;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

const cellLine = (s: LoadSummary, failed: number) =>
  `p50 ${s.p50Ms.toFixed(1)} ms, p99 ${s.p99Ms.toFixed(1)} ms, ${s.calls} calls${failed ? `, ${failed} FAILED` : ""}`;

/** Each kind through the API at each concurrency; on the embedded set-up, /healthz as well. */
async function measureApi(setup: ApiSetup, totals: Map<QueryKind, number[]>) {
  const server = await startApiServer(setup.env);
  if (measuring.current) measuring.current.server = server;
  console.log(`  search: ${await rankingOnceBuilt(server.baseUrl)}`);
  let measured = false;
  const watched = {
    serverPids: server.pids,
    enginePid: setup.engineNode?.pid,
    database: setup.postgresDatabase,
  };
  try {
    // Started from this process on the clients' CPUs: every thread of the server onto the others.
    if (clientCpus) for (const pid of server.pids) pin(pid, clientCpus.others);
    for (const kind of QUERY_KINDS) {
      const checks = await checkEveryQuery(server.baseUrl, setup.apiKey, SEARCH_QUERIES[kind]);
      totals.set(
        kind,
        checks.map((c) => c.total),
      );
      const empty = SEARCH_QUERIES[kind]
        .filter((_, i) => checks[i]!.total === 0)
        .map((q) => q.q.slice(0, 40));
      console.log(
        `  ${kind}: ${checks.length - empty.length} of ${checks.length} queries find provisions` +
          (empty.length ? ` (none for: ${empty.join("; ")})` : ""),
      );
    }
    const api = {} as Record<QueryKind, Record<Concurrency, Cell>>;
    for (const kind of QUERY_KINDS) {
      api[kind] = {} as Record<Concurrency, Cell>;
      for (const c of CONCURRENCIES) {
        const meter = new CpuMeter(watched);
        const result = await runHttpLoad(
          server.baseUrl,
          setup.apiKey,
          shapeAt(c, SEARCH_QUERIES[kind].length),
          meter,
          SEARCH_QUERIES[kind],
        );
        await settle(server.baseUrl, setup.apiKey);
        api[kind][c] = {
          summary: result,
          failed: result.failed,
          otherWork: meter.report(result.calls)?.othersShare,
        };
        console.log(
          `  API ${kind} c=${c}: ${cellLine(result, result.failed)}${result.failed ? ` (${result.failures})` : ""}`,
        );
      }
    }
    let health: HealthFigures | undefined;
    if (setup.kind === "embedded") health = await measureHealth(server, setup, watched);
    measured = true;
    return { api, health, memory: serverMemory(server.pids) };
  } finally {
    if (measuring.current) measuring.current.server = undefined;
    // A server that fails to stop after a failed measurement must not hide that failure.
    await server.stop().catch((error: Error) => {
      if (measured) throw error;
      console.error(`  the server did not stop cleanly either: ${error.message.split("\n")[0]}`);
    });
  }
}

/**
 * The API server's memory at the end of its cells (Linux /proc): resident now and at its peak,
 * summed over its processes (the front and the API process). On the embedded set-up the API
 * process holds PGlite and the in-memory copy of the search model.
 */
function serverMemory(pids: readonly number[]): ServerMemory | undefined {
  try {
    const statuses = pids.map((pid) => readFileSync(`/proc/${pid}/status`, "utf8"));
    const kb = (field: string) =>
      statuses.reduce(
        (sum, status) =>
          sum + Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN),
        0,
      );
    return { residentMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024 };
  } catch {
    return undefined;
  }
}

/**
 * /healthz on the idle server, then while 32 connections send long searches (issue 17); beside it,
 * the same probe on a bare HTTP server on the server's CPUs (bare-http-server.ts), idle and under
 * the same load run again: the machine's floor for a new-connection probe, in the same run.
 */
async function measureHealth(
  server: RunningServer,
  setup: ApiSetup,
  watched: ConstructorParameters<typeof CpuMeter>[0],
): Promise<HealthFigures> {
  const probeCpus = clientCpus?.others;
  const bare = await startBareServer(probeCpus);
  try {
    const idle = await HealthProbe.idle(server.baseUrl, seconds, probeCpus);
    const bareIdle = await HealthProbe.idle(bare.baseUrl, seconds, probeCpus);
    const underLoad = await probeUnderLoad(server, setup, watched, server.baseUrl);
    const bareUnderLoad = await probeUnderLoad(server, setup, watched, bare.baseUrl);
    console.log(
      `  /healthz idle: ${cellLine(idle, idle.failed)}; under 32 long searches (${underLoad.load.summary.p50Ms.toFixed(1)} ms p50 each): ` +
        `${cellLine(underLoad.probe, underLoad.probe.failed)}${underLoad.probe.failed ? ` (${underLoad.probe.failures.join("; ")})` : ""}`,
    );
    console.log(
      `  bare HTTP server idle: ${cellLine(bareIdle, bareIdle.failed)}; under the same load: ` +
        `${cellLine(bareUnderLoad.probe, bareUnderLoad.probe.failed)}`,
    );
    return {
      idle,
      underLoad: underLoad.probe,
      load: underLoad.load,
      bare: { idle: bareIdle, underLoad: bareUnderLoad.probe },
      failed: idle.failed + underLoad.probe.failed,
    };
  } finally {
    await bare.stop();
  }
}

/** 32 connections send long searches to the API for HEALTH_SECONDS while `probedUrl` is probed. */
async function probeUnderLoad(
  server: RunningServer,
  setup: ApiSetup,
  watched: ConstructorParameters<typeof CpuMeter>[0],
  probedUrl: string,
) {
  const probe = new HealthProbe(probedUrl, clientCpus?.others);
  await probe.start();
  const meter = new CpuMeter(watched);
  const load = await runHttpLoad(
    server.baseUrl,
    setup.apiKey,
    shapeAt(32, SEARCH_QUERIES.long.length, HEALTH_SECONDS),
    together(meter, probe),
    SEARCH_QUERIES.long,
  );
  const summary = await probe.summary();
  await settle(server.baseUrl, setup.apiKey);
  const cell: Cell = { summary: load, failed: load.failed, otherWork: meter.report(load.calls)?.othersShare };
  return { probe: summary, load: cell };
}

/** The raw engine on the same queries, after the server has stopped (the embedded store admits one process). */
async function measureRaw(setup: ApiSetup, totals: Map<QueryKind, number[]>) {
  const raw = {} as Record<QueryKind, Record<Concurrency, Cell>>;
  const node = setup.engineNode;
  const db = node
    ? undefined
    : await openStore({ DATA_DIR: setup.env.DATA_DIR!, DATABASE_URL: setup.env.DATABASE_URL || undefined });
  try {
    for (const kind of QUERY_KINDS) {
      const queries = SEARCH_QUERIES[kind];
      if (node) {
        // The raw `_search` must find what the API finds, or it is not the same search.
        const found = await rawSearchTotals(node.url, node.alias, queries);
        const differ = queries
          .filter((_, i) => found[i] !== totals.get(kind)![i])
          .map((q) => q.q.slice(0, 40));
        console.log(
          differ.length === 0
            ? `  raw _search ${kind}: the same totals as the API for every query`
            : `  WARNING raw _search ${kind}: other totals than the API's for ${differ.join("; ")}`,
        );
      }
      raw[kind] = {} as Record<Concurrency, Cell>;
      for (const c of CONCURRENCIES) {
        const meter = new CpuMeter({ enginePid: node?.pid, database: setup.postgresDatabase });
        const result = node
          ? await runRawSearchLoad(node.url, node.alias, shapeAt(c, queries.length), meter, queries)
          : await runEngineLoad(db!, shapeAt(c, queries.length), meter, queries);
        raw[kind][c] = { summary: result, failed: 0, otherWork: meter.report(result.calls)?.othersShare };
        console.log(`  ${node ? "raw _search" : "raw engine"} ${kind} c=${c}: ${cellLine(result, 0)}`);
      }
    }
    return raw;
  } finally {
    await db?.close();
  }
}

async function measureReference(setup: ApiSetup): Promise<ReferenceTiming> {
  const db = await openStore({
    DATA_DIR: setup.env.DATA_DIR!,
    DATABASE_URL: setup.env.DATABASE_URL || undefined,
  });
  try {
    const reference = await timeReference(db, SEARCH_QUERIES, seconds);
    console.log(
      `  BM25 reference: ${reference.provisions} provisions indexed in ${reference.buildSeconds.toFixed(1)} s; ` +
        QUERY_KINDS.map((k) => `${k} p50 ${reference.byKind[k].p50Ms.toFixed(2)} ms`).join(", "),
    );
    return reference;
  } finally {
    await db.close();
  }
}

const sharing = clientCpus
  ? `The load generator (and the raw \`_search\` client) on CPU(s) ${clientCpus.chosen}; the API server, the health probe and the in-process baselines on CPU(s) ${clientCpus.others} (BENCH_CLIENT_CPUS); server Postgres and the engines' nodes on every CPU`
  : "The load generator, the API server and the engines share these CPUs";
const machine =
  `${os.cpus().length} CPU(s) (${os.cpus()[0]?.model ?? "unknown"}), Node ${process.version}, ` +
  `load average ${os.loadavg()[0]!.toFixed(2)} at the start, server Postgres ${describeServer()}, ${commitLabel()}`;
console.log(
  `Search latency benchmark: GET /api/v1/search?q=…&limit=10 per query kind (${QUERY_KINDS.map((k) => `${k} ${SEARCH_QUERIES[k].length}`).join(", ")}), ` +
    `c=${CONCURRENCIES.join(" and c=")}, ${WARM_UP_SECONDS} s warm-up + ${seconds} s per cell; set-ups: ${kinds.join(", ")}.\n` +
    `Machine: ${machine}.\n${sharing}: compare ratios, not milliseconds.`,
);

const HEADINGS: Record<SetupKind, string> = {
  embedded: "Embedded PGlite: loading the corpus…",
  postgres: "Server Postgres: loading the corpus…",
  opensearch: "Server Postgres + OpenSearch: starting OpenSearch, loading the corpus, building the index…",
  elasticsearch:
    "Server Postgres + Elasticsearch: starting Elasticsearch, loading the corpus, building the index…",
};

const started = performance.now();
const results: SetupFigures[] = [];
let reference: ReferenceTiming | undefined;
try {
  for (const kind of kinds) {
    console.log(`\n${HEADINGS[kind]}`);
    const cleanups = new Cleanups();
    measuring.current = { cleanups, server: undefined };
    try {
      const setup = await prepareSetup(kind, cleanups);
      console.log(`  ${setup.provisions} provisions loaded in ${setup.loadSeconds.toFixed(1)} s`);
      reference ??= await pinnedTo("server", () => measureReference(setup));
      if (setup.engineNode) await warmUpEngine(setup.engineNode, 32, Object.values(SEARCH_QUERIES).flat());
      const totals = new Map<QueryKind, number[]>();
      const { api, health, memory } = await pinnedTo("client", () => measureApi(setup, totals));
      // A raw `_search` is sent over HTTP, as the API's load is; the raw engine runs in this process.
      const raw = await pinnedTo(setup.engineNode ? "client" : "server", () => measureRaw(setup, totals));
      const byKind = Object.fromEntries(
        QUERY_KINDS.map((k): [QueryKind, KindFigures] => [k, { api: api[k], raw: raw[k] }]),
      ) as Record<QueryKind, KindFigures>;
      results.push({
        kind,
        label: setup.label,
        rawLabel: setup.engineNode ? "raw _search" : "raw engine",
        byKind,
        health,
        memory,
      });
    } finally {
      await cleanups.run();
      measuring.current = undefined;
    }
  }
} catch (error) {
  if (measuring.interrupted) process.exit(130);
  console.error(`\nerror: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

const heading =
  `Latest run: ${new Date().toISOString().slice(0, 10)}, ${describeCorpus()}, set-ups ${kinds.join(", ")}, ${machine}, shared with other work; ` +
  `${sharing}; ${WARM_UP_SECONDS} s warm-up + ${seconds} s per cell, ${((performance.now() - started) / 60_000).toFixed(0)} minutes in all, ` +
  `load average ${os.loadavg()[0]!.toFixed(2)} at the end. ` +
  "Milliseconds per request; other work = the share of the CPUs other processes took during each cell (c=1, c=32).";
const report = formatReport(results, reference);
console.log(`\n${heading}\n\n${report}\n`);

const docs = path.join(repoRoot, "docs/PERFORMANCE.md");
const { start: START, end: END } = corpusMarkers("bench:search");
const updated = replaceBetweenMarkers(readFileSync(docs, "utf8"), START, END, `${heading}\n\n${report}`);
if (!updated) {
  console.error(`${docs}: markers ${START} … ${END} not found; tables not written.`);
  process.exit(1);
}
writeFileSync(docs, updated);
console.log(`Written to ${path.relative(repoRoot, docs)}.`);

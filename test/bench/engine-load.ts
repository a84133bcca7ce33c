import http from "node:http";
import { searchBody } from "../../services/search/dsl.ts";
import type { SearchQuery } from "../../services/search/engine.ts";
import { PostgresSearchEngine } from "../../services/search/postgres-engine.ts";
import { Synonyms } from "../../services/search/synonyms.ts";
import type { Database } from "../../services/store/database.ts";
import type { EngineNode } from "./api-setup.ts";
import type { LoadShape, MeasuredWindow } from "./http-load.ts";
import { type LoadSummary, summariseLatencies } from "./latency.ts";
import { BENCH_QUERIES, type BenchQuery, engineQuery, rotated } from "./queries.ts";

/**
 * The raw engine baselines: the same queries, with the parameters the search route passes, sent
 * straight to the engine from as many async loops as the API gets connections, each starting at its
 * own place in the mix as the connections do, with the same warm-up. What the API adds on top of
 * this is its overhead.
 * - Postgres: PostgresSearchEngine.search on the store.
 * - OpenSearch: a raw `_search` — plain HTTP (node:http), the request body the engine sends
 *   (searchBody of services/search/dsl.ts), no client library.
 * Each takes the query list to cycle through (default: bench:api's mix) and keeps each query's
 * latencies apart as well (perQueryP50Ms).
 */

/** What one baseline run needs: how to prepare each query once, how to send it, how to end. */
interface Baseline<T> {
  prepare: (query: SearchQuery) => T;
  call: (prepared: T) => Promise<void>;
  close: () => Promise<void>;
}

/** As the route does when as_of is absent: today, in UTC. */
const today = () => new Date().toISOString().slice(0, 10);

export async function runEngineLoad(
  db: Database,
  shape: LoadShape,
  meter?: MeasuredWindow,
  queries: BenchQuery[] = BENCH_QUERIES,
): Promise<LoadSummary> {
  // As `npm start` builds it (SEARCH_MEMORY_INDEX=auto): ranked in memory on the embedded store,
  // once its copy is built; one engine for the warm-up and the measure.
  const engine = new PostgresSearchEngine(db, undefined, { memory: db.kind === "pglite" });
  await engine.ready();
  try {
    return await measure(
      shape,
      meter,
      queries,
      (): Baseline<SearchQuery> => ({
        prepare: (query) => query,
        call: async (query) => {
          await engine.search(query);
        },
        close: async () => undefined,
      }),
    );
  } finally {
    await engine.close();
  }
}

/**
 * One raw `_search`: a POST of the body to the alias's endpoint over plain node:http, the answer read
 * whole. node:http with a keep-alive agent is the transport the OpenSearch client itself uses. Not
 * fetch: on Node 20 it costs this process 3–4× the CPU per call and answers slower than the
 * OpenSearch client does, so it would be no floor (docs/PERFORMANCE.md).
 */
function rawSearch(agent: http.Agent, endpoint: URL, body: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      endpoint,
      {
        method: "POST",
        agent,
        // JSON, no compression asked for: as the client sends it (its suggestCompression is off).
        headers: { "content-type": "application/json", "content-length": body.length },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("error", reject);
        response.on("end", () =>
          response.statusCode === 200
            ? resolve(text)
            : reject(new Error(`raw _search answered ${response.statusCode}: ${text.slice(0, 500)}`)),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** Keep-alive connections, one per loop at most, as the API gets one per autocannon connection. */
const keepAliveAgent = (sockets: number) => new http.Agent({ keepAlive: true, maxSockets: sockets });

/**
 * Raw `_search` on the alias the API searches, from as many loops as the API gets connections;
 * each body serialised once, before the clock starts; the answer is read, not parsed.
 */
export async function runRawSearchLoad(
  url: string,
  alias: string,
  shape: LoadShape,
  meter?: MeasuredWindow,
  queries: BenchQuery[] = BENCH_QUERIES,
): Promise<LoadSummary> {
  const endpoint = new URL(`${url}/${alias}/_search`);
  return measure(shape, meter, queries, (): Baseline<Buffer> => {
    const agent = keepAliveAgent(shape.connections);
    return {
      prepare: (query) => Buffer.from(JSON.stringify(searchBody(query, Synonyms.bundled()))),
      call: async (body) => {
        await rawSearch(agent, endpoint, body);
      },
      close: async () => agent.destroy(),
    };
  });
}

/**
 * Each query once through a raw `_search`, before measuring: returns each query's total number of
 * hits, which must be the API's (the same queries, hence the same results).
 */
export async function rawSearchTotals(
  url: string,
  alias: string,
  queries: BenchQuery[] = BENCH_QUERIES,
): Promise<number[]> {
  const endpoint = new URL(`${url}/${alias}/_search`);
  const agent = keepAliveAgent(1);
  const asOf = today();
  try {
    const totals: number[] = [];
    for (const query of queries) {
      const text = await rawSearch(
        agent,
        endpoint,
        Buffer.from(JSON.stringify(searchBody(engineQuery(query, asOf), Synonyms.bundled()))),
      );
      totals.push((JSON.parse(text) as { hits: { total: { value: number } } }).hits.total.value);
    }
    return totals;
  } finally {
    agent.destroy();
  }
}

async function measure<T>(
  shape: LoadShape,
  meter: MeasuredWindow | undefined,
  queries: BenchQuery[],
  open: () => Baseline<T>,
) {
  await run(open(), queries, shape.connections, shape.warmUpSeconds);
  meter?.begin();
  const measured = await run(open(), queries, shape.connections, shape.seconds, shape.minCalls);
  meter?.end();
  return measured;
}

async function run<T>(
  baseline: Baseline<T>,
  queries: BenchQuery[],
  loops: number,
  seconds: number,
  minCalls = 0,
): Promise<LoadSummary> {
  const asOf = today();
  const prepared = queries.map((query) => baseline.prepare(engineQuery(query, asOf)));
  const latenciesMs: number[] = [];
  const byQuery: number[][] = queries.map(() => []);
  const start = performance.now();
  const deadline = start + seconds * 1000;

  const loop = async (index: number) => {
    const mine = rotated([...prepared.keys()], index);
    for (let i = 0; performance.now() < deadline || latenciesMs.length < minCalls; i += 1) {
      const query = mine[i % mine.length]!;
      const callStart = performance.now();
      await baseline.call(prepared[query]!);
      const ms = performance.now() - callStart;
      latenciesMs.push(ms);
      byQuery[query]!.push(ms);
    }
  };
  try {
    await Promise.all(Array.from({ length: loops }, (_, index) => loop(index)));
  } finally {
    await baseline.close();
  }
  const elapsedSeconds = (performance.now() - start) / 1000;
  return summariseLatencies(latenciesMs, elapsedSeconds, byQuery);
}

/**
 * A fresh JVM searches slowly for its first minute or two of load (JIT): the same queries took
 * 83–105 ms at p50 in the first 10 s, 33–42 ms after 50–60 s, 23–25 ms after 80–120 s. Untimed raw
 * `_search` load first, in chunks of 10 s, until a chunk's p50 is no longer 3% better than the
 * previous one (at least 6 chunks, at most 15), so that the first measured phase does not pay for
 * it. The chunks' p50s are printed: they show whether it settled.
 */
const JVM_WARM_UP = { chunkSeconds: 10, minChunks: 6, maxChunks: 15, settledAbove: 0.97 };

export async function warmUpEngine(
  node: EngineNode,
  connections: number,
  queries: BenchQuery[] = BENCH_QUERIES,
): Promise<void> {
  const p50s: number[] = [];
  const settled = () => {
    const [previous, last] = p50s.slice(-2);
    return p50s.length >= JVM_WARM_UP.minChunks && last! >= previous! * JVM_WARM_UP.settledAbove;
  };
  while (p50s.length < JVM_WARM_UP.maxChunks && !settled()) {
    const chunk = { connections, warmUpSeconds: 0, seconds: JVM_WARM_UP.chunkSeconds };
    p50s.push((await runRawSearchLoad(node.url, node.alias, chunk, undefined, queries)).p50Ms);
  }
  console.log(
    `  JVM warm-up (untimed): ${p50s.length} × ${JVM_WARM_UP.chunkSeconds} s of raw _search, ` +
      `p50 ${p50s.map((ms) => ms.toFixed(1)).join(", ")} ms${settled() ? "" : " (still falling)"}`,
  );
}

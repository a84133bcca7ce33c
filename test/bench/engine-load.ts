import http from "node:http";
import { searchBody } from "../../services/search/dsl.ts";
import type { SearchQuery } from "../../services/search/engine.ts";
import { PostgresSearchEngine } from "../../services/search/postgres-engine.ts";
import { Synonyms } from "../../services/search/synonyms.ts";
import type { Database } from "../../services/store/database.ts";
import type { CpuMeter } from "./cpu-meter.ts";
import type { LoadShape } from "./http-load.ts";
import { type LoadSummary, summariseLatencies } from "./latency.ts";
import { BENCH_QUERIES, engineQuery, rotated } from "./queries.ts";

/**
 * The raw engine baselines: the same queries, with the parameters the search route passes, sent
 * straight to the engine from as many async loops as the API gets connections, each starting at its
 * own place in the mix as the connections do, with the same warm-up. What the API adds on top of
 * this is its overhead.
 * - Postgres: PostgresSearchEngine.search on the store.
 * - OpenSearch: a raw `_search` — plain HTTP (node:http), the request body the engine sends
 *   (searchBody of services/search/dsl.ts), no client library.
 */

/** What one baseline run needs: how to prepare each query once, how to send it, how to end. */
interface Baseline<T> {
  prepare: (query: SearchQuery) => T;
  call: (prepared: T) => Promise<void>;
  close: () => Promise<void>;
}

/** As the route does when as_of is absent: today, in UTC. */
const today = () => new Date().toISOString().slice(0, 10);

export async function runEngineLoad(db: Database, shape: LoadShape, meter?: CpuMeter): Promise<LoadSummary> {
  return measure(shape, meter, (): Baseline<SearchQuery> => {
    const engine = new PostgresSearchEngine(db);
    return {
      prepare: (query) => query,
      call: async (query) => {
        await engine.search(query);
      },
      close: () => engine.close(),
    };
  });
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
  meter?: CpuMeter,
): Promise<LoadSummary> {
  const endpoint = new URL(`${url}/${alias}/_search`);
  return measure(shape, meter, (): Baseline<Buffer> => {
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
export async function rawSearchTotals(url: string, alias: string): Promise<number[]> {
  const endpoint = new URL(`${url}/${alias}/_search`);
  const agent = keepAliveAgent(1);
  const asOf = today();
  try {
    const totals: number[] = [];
    for (const query of BENCH_QUERIES) {
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

async function measure<T>(shape: LoadShape, meter: CpuMeter | undefined, open: () => Baseline<T>) {
  await run(open(), shape.connections, shape.warmUpSeconds);
  meter?.begin();
  const measured = await run(open(), shape.connections, shape.seconds);
  meter?.end();
  return measured;
}

async function run<T>(baseline: Baseline<T>, loops: number, seconds: number): Promise<LoadSummary> {
  const asOf = today();
  const queries = BENCH_QUERIES.map((query) => baseline.prepare(engineQuery(query, asOf)));
  const latenciesMs: number[] = [];
  const start = performance.now();
  const deadline = start + seconds * 1000;

  const loop = async (index: number) => {
    const mine = rotated(queries, index);
    for (let i = 0; performance.now() < deadline; i += 1) {
      const callStart = performance.now();
      await baseline.call(mine[i % mine.length]!);
      latenciesMs.push(performance.now() - callStart);
    }
  };
  try {
    await Promise.all(Array.from({ length: loops }, (_, index) => loop(index)));
  } finally {
    await baseline.close();
  }
  const elapsedSeconds = (performance.now() - start) / 1000;
  return summariseLatencies(latenciesMs, elapsedSeconds);
}

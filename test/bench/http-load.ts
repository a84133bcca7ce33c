import autocannon from "autocannon";
import { type LoadSummary, summariseLatencies } from "./latency.ts";
import { BENCH_QUERIES, type BenchQuery, rotated, searchPath } from "./queries.ts";

/** How long every connection may take to get its first answer before the run is called broken. */
const FIRST_ANSWER_LIMIT_SECONDS = 60;

/** Closed loop: each of `connections` sends its next query as soon as the previous one is answered. */
export interface LoadShape {
  connections: number;
  warmUpSeconds: number;
  seconds: number;
  /**
   * The measured window also lasts until this many calls were measured (default 0): with one
   * connection cycling through a list, the list's length makes every query count.
   */
  minCalls?: number;
  /**
   * How long one request, and the last connection's first answer, may take (default: autocannon's
   * 10 s per request, 60 s for the first answers). On the embedded store searches run one at a
   * time, so 32 slow ones queue for 32 times one search's time.
   */
  patienceSeconds?: number;
}

/**
 * Told when the measured window opens and closes (after the warm-up): a CpuMeter, or anything else
 * that must watch exactly that window, such as the /healthz probe of bench:search.
 */
export interface MeasuredWindow {
  begin(): void;
  end(): void;
}

export interface HttpLoadResult extends LoadSummary {
  /** From opening the connections until the last of them had its first answer. */
  allConnectionsAnsweredSeconds: number;
  /** Anything but a 2xx answer, plus connection errors and timeouts, warm-up included: must be 0. */
  failed: number;
  failures: string;
}

/** What one query answered before the measurement. */
export interface QueryCheck {
  /** Its total number of hits. */
  total: number;
  /** `exact` or `best_effort` when a domain filter applied; the raw baselines only send exact filters. */
  filterMode: string | undefined;
}

/**
 * One request per query before measuring: a wrong key or a broken query fails here with the
 * server's own answer, not as thousands of non-2xx. Returns what each query found, which shows the
 * mix finds what people would expect, and whether any domain filter was best_effort.
 */
export async function checkEveryQuery(
  baseUrl: string,
  apiKey: string,
  queries: BenchQuery[] = BENCH_QUERIES,
): Promise<QueryCheck[]> {
  const checks: QueryCheck[] = [];
  for (const query of queries) {
    const response = await fetch(baseUrl + searchPath(query), {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`${searchPath(query)} answered ${response.status}: ${body}`);
    const answer = JSON.parse(body) as { pagination: { total: number }; filter?: { mode: string } };
    checks.push({ total: answer.pagination.total, filterMode: answer.filter?.mode });
  }
  return checks;
}

/**
 * One autocannon run on one set of connections: a warm-up, then `seconds` of measurement. The
 * warm-up lasts `warmUpSeconds` and at least until every connection has had an answer: on the
 * embedded store a busy server accepts new connections slowly (see docs/PERFORMANCE.md), and that
 * start-up cost is reported apart (allConnectionsAnsweredSeconds), not mixed into steady state.
 * Each query's latencies are also kept apart (perQueryP50Ms), in the order of `queries`.
 */
export function runHttpLoad(
  baseUrl: string,
  apiKey: string,
  shape: LoadShape,
  meter?: MeasuredWindow,
  queries: BenchQuery[] = BENCH_QUERIES,
): Promise<HttpLoadResult> {
  const { connections, warmUpSeconds, seconds, minCalls = 0, patienceSeconds } = shape;
  const firstAnswerLimit = patienceSeconds ?? FIRST_ANSWER_LIMIT_SECONDS;
  // autocannon calls a request's onResponse, then emits "response" with its time, in one
  // synchronous step: what onResponse notes is the query the next "response" event times.
  let lastAnswered = 0;
  const requests = queries.map((query, index) => ({
    method: "GET" as const,
    path: searchPath(query),
    onResponse: () => {
      lastAnswered = index;
    },
  }));
  const answered = new Set<unknown>();
  const latenciesMs: number[] = [];
  const byQuery: number[][] = queries.map(() => []);
  let nextConnection = 0;
  let allAnsweredAt: number | undefined;
  let measuredFrom: number | undefined;
  let measuredSeconds: number | undefined;
  const opened = performance.now();

  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl,
        connections,
        // Room for the first answers, the window, and a window stretched to minCalls.
        duration: firstAnswerLimit + seconds + (minCalls > 0 ? firstAnswerLimit : 0),
        ...(patienceSeconds ? { timeout: patienceSeconds } : {}),
        headers: { authorization: `Bearer ${apiKey}` },
        requests,
        setupClient: (client) => {
          client.setRequests(rotated(requests, nextConnection));
          nextConnection += 1;
        },
      },
      (error, result) => {
        if (error) return reject(error);
        if (measuredFrom === undefined || allAnsweredAt === undefined) {
          return reject(
            new Error(
              `only ${answered.size} of ${connections} connections were answered within ${firstAnswerLimit} s`,
            ),
          );
        }
        const statuses = Object.entries(result.statusCodeStats ?? {}).map(
          ([code, s]) => `${code}: ${s.count}`,
        );
        // Stopped by its duration before minCalls: the calls measured so far, over the time taken.
        if (measuredSeconds === undefined) {
          measuredSeconds = (performance.now() - measuredFrom) / 1000;
          meter?.end();
        }
        resolve({
          ...summariseLatencies(latenciesMs, measuredSeconds, byQuery),
          allConnectionsAnsweredSeconds: (allAnsweredAt - opened) / 1000,
          failed: result.non2xx + result.errors + result.timeouts,
          failures: `non-2xx ${result.non2xx} (${statuses.join(", ")}), errors ${result.errors}, timeouts ${result.timeouts}`,
        });
      },
    );
    // Each response's own time in ms, with sub-millisecond resolution: autocannon's histogram
    // rounds to whole milliseconds, too coarse beside the raw engine's figures.
    let callsInWindow = 0;
    const finish = () => {
      if (measuredSeconds !== undefined || measuredFrom === undefined) return;
      measuredSeconds = (performance.now() - measuredFrom) / 1000;
      meter?.end();
      instance.stop();
    };
    instance.on("response", (client, statusCode, _bytes, responseTimeMs) => {
      const now = performance.now();
      if (measuredFrom !== undefined) {
        if (measuredSeconds !== undefined) return;
        callsInWindow += 1;
        if (statusCode >= 200 && statusCode < 300) {
          latenciesMs.push(responseTimeMs);
          byQuery[lastAnswered]!.push(responseTimeMs);
        }
        if (now - measuredFrom >= seconds * 1000 && callsInWindow >= minCalls) finish();
        return;
      }
      answered.add(client);
      if (answered.size === connections) allAnsweredAt ??= now;
      if (allAnsweredAt !== undefined && now - opened >= warmUpSeconds * 1000) {
        measuredFrom = now;
        meter?.begin();
        setTimeout(() => {
          if (callsInWindow >= minCalls) finish();
        }, seconds * 1000);
      }
    });
  });
}

import autocannon from "autocannon";
import type { CpuMeter } from "./cpu-meter.ts";
import { type LoadSummary, summariseLatencies } from "./latency.ts";
import { BENCH_QUERIES, rotated, searchPath } from "./queries.ts";

/** How long every connection may take to get its first answer before the run is called broken. */
const FIRST_ANSWER_LIMIT_SECONDS = 60;

/** Closed loop: each of `connections` sends its next query as soon as the previous one is answered. */
export interface LoadShape {
  connections: number;
  warmUpSeconds: number;
  seconds: number;
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
export async function checkEveryQuery(baseUrl: string, apiKey: string): Promise<QueryCheck[]> {
  const checks: QueryCheck[] = [];
  for (const query of BENCH_QUERIES) {
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
 */
export function runHttpLoad(
  baseUrl: string,
  apiKey: string,
  shape: LoadShape,
  meter?: CpuMeter,
): Promise<HttpLoadResult> {
  const { connections, warmUpSeconds, seconds } = shape;
  const requests = BENCH_QUERIES.map((query) => ({ method: "GET" as const, path: searchPath(query) }));
  const answered = new Set<unknown>();
  const latenciesMs: number[] = [];
  let nextConnection = 0;
  let allAnsweredAt: number | undefined;
  let measuredUntil: number | undefined;
  const opened = performance.now();

  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl,
        connections,
        duration: FIRST_ANSWER_LIMIT_SECONDS + seconds,
        headers: { authorization: `Bearer ${apiKey}` },
        requests,
        setupClient: (client) => {
          client.setRequests(rotated(requests, nextConnection));
          nextConnection += 1;
        },
      },
      (error, result) => {
        if (error) return reject(error);
        if (measuredUntil === undefined || allAnsweredAt === undefined) {
          return reject(
            new Error(
              `only ${answered.size} of ${connections} connections were answered within ${FIRST_ANSWER_LIMIT_SECONDS} s`,
            ),
          );
        }
        const statuses = Object.entries(result.statusCodeStats ?? {}).map(
          ([code, s]) => `${code}: ${s.count}`,
        );
        resolve({
          ...summariseLatencies(latenciesMs, seconds),
          allConnectionsAnsweredSeconds: (allAnsweredAt - opened) / 1000,
          failed: result.non2xx + result.errors + result.timeouts,
          failures: `non-2xx ${result.non2xx} (${statuses.join(", ")}), errors ${result.errors}, timeouts ${result.timeouts}`,
        });
      },
    );
    // Each response's own time in ms, with sub-millisecond resolution: autocannon's histogram
    // rounds to whole milliseconds, too coarse beside the raw engine's figures.
    instance.on("response", (client, statusCode, _bytes, responseTimeMs) => {
      const now = performance.now();
      if (measuredUntil !== undefined) {
        if (now <= measuredUntil && statusCode >= 200 && statusCode < 300) latenciesMs.push(responseTimeMs);
        return;
      }
      answered.add(client);
      if (answered.size === connections) allAnsweredAt ??= now;
      if (allAnsweredAt !== undefined && now - opened >= warmUpSeconds * 1000) {
        measuredUntil = now + seconds * 1000;
        meter?.begin();
        setTimeout(() => {
          meter?.end();
          instance.stop();
        }, seconds * 1000);
      }
    });
  });
}

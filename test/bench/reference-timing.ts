import type { Queryable } from "../../services/store/database.ts";
import { build as buildBm25 } from "../eval/bm25-reference.ts";
import { type LoadSummary, summariseLatencies } from "./latency.ts";
import type { BenchQuery } from "./queries.ts";
import { QUERY_KINDS, type QueryKind } from "./search-queries.ts";

/**
 * The in-process baseline of bench:search: eval:relevance's reference ranker (textbook BM25 in
 * memory, test/eval/bm25-reference.ts) timed on the same queries. It is what a search costs with
 * no database, no HTTP and no snippets: postings in arrays, scored in this thread. Built from the
 * provisions the API searches by default (present in the source and in force today), as
 * eval:relevance builds it. One loop (the ranker is synchronous: a second loop would only queue
 * behind the first), cycling through a kind's queries for `seconds` after one untimed pass.
 */
export interface ReferenceTiming {
  provisions: number;
  buildSeconds: number;
  byKind: Record<QueryKind, LoadSummary>;
}

/** Results per query, as the API's default page. */
const K = 10;

export async function timeReference(
  db: Queryable,
  lists: Record<QueryKind, BenchQuery[]>,
  seconds: number,
): Promise<ReferenceTiming> {
  const today = new Date().toISOString().slice(0, 10);
  // The API's default in_force rule (IN_FORCE in services/search/postgres-ranking-sql.ts), as eval:relevance reads it.
  const { rows } = await db.query<{ public_id: string; section_path: string[]; text: string }>(
    `SELECT p.public_id, p.section_path, p.text FROM provisions p
      WHERE p.present_in_source
        AND (p.in_force_from IS NULL OR p.in_force_from <= $1::date)
        AND (p.in_force_to > $1::date OR (p.in_force_to IS NULL AND p.status <> 'repealed'))
      ORDER BY p.public_id`,
    [today],
  );
  const started = performance.now();
  const index = buildBm25(rows.map((r) => ({ id: r.public_id, sectionPath: r.section_path, text: r.text })));
  const buildSeconds = (performance.now() - started) / 1000;

  const byKind = {} as Record<QueryKind, LoadSummary>;
  for (const kind of QUERY_KINDS) {
    const queries = lists[kind].map((query) => query.q);
    for (const q of queries) index.search(q, K);
    const latenciesMs: number[] = [];
    const byQuery: number[][] = queries.map(() => []);
    const phaseStart = performance.now();
    const deadline = phaseStart + seconds * 1000;
    for (let i = 0; i < queries.length || performance.now() < deadline; i += 1) {
      const callStart = performance.now();
      index.search(queries[i % queries.length]!, K);
      const ms = performance.now() - callStart;
      latenciesMs.push(ms);
      byQuery[i % queries.length]!.push(ms);
    }
    byKind[kind] = summariseLatencies(latenciesMs, (performance.now() - phaseStart) / 1000, byQuery);
  }
  return { provisions: index.size, buildSeconds, byKind };
}

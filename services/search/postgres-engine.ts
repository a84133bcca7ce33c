import type { Domain } from "../core/domains.ts";
import type { Database } from "../store/database.ts";
import { articleNumberKey } from "./citations.ts";
import {
  OUT_OF_FORCE_WEIGHT,
  type SearchEngine,
  type SearchHit,
  type SearchQuery,
  type SearchResult,
} from "./engine.ts";
import { MINIMUM_SHOULD_MATCH_PERCENT, queryTerms } from "./query-text.ts";
import { Synonyms } from "./synonyms.ts";

/**
 * Postgres full-text search over `provisions.search_vector` (migration 003: French stemming with
 * accents folded; number, headings and text weighted A, B, C; GIN index). Domains are a column of
 * the same row, so a domain filter is always exact.
 */
const HEADLINE_OPTIONS =
  'StartSel=<mark>, StopSel=</mark>, MaxWords=35, MinWords=15, MaxFragments=2, FragmentDelimiter=" … "';

/** Parameters $2–$5: domains, document, in force only, as of. */
/** In force on the day asked ($5). */
const IN_FORCE = `(p.status <> 'repealed'
    AND (p.effective_from IS NULL OR p.effective_from <= $5::date)
    AND (p.effective_to IS NULL OR p.effective_to > $5::date))`;

const FILTERS = `AND ($2::text[] IS NULL OR p.domains && $2::text[]
    OR (cardinality(p.domains) = 0 AND d.public_id = ANY($8::text[])))
  AND ($3::text IS NULL OR d.public_id = $3)
  AND (NOT $4::boolean OR ${IN_FORCE})`;

/**
 * Asked for every provision (`in_force=false`), those in force on the day rank first among equals:
 * a repealed or future text weighs OUT_OF_FORCE_WEIGHT of its score (engine.ts).
 */
const IN_FORCE_PREFERENCE = `CASE WHEN ${IN_FORCE} THEN 1 ELSE ${OUT_OF_FORCE_WEIGHT} END`;

interface Row {
  public_id: string;
  number: string;
  document_public_id: string;
  document_title: string;
  section_path: string[];
  snippet: string;
  status: SearchHit["status"];
  effective_from: string | null;
  effective_to: string | null;
  domains: Domain[];
  score: number;
  total: number;
}

/**
 * ts_rank_cd normalisation. Default search: divided by 1 + log(length), so a short provision
 * holding the words comes first. Any word: raw, since dividing by length there sank the
 * provisions that hold many of the question's words (measured with npm run eval:answer: citation
 * recall 5.5% with 1, 8.1% raw, 7.3% with 4).
 */
const RANK_ALL = 1 | 4;
const RANK_ANY = 0;

/**
 * The query's terms (services/search/query-text.ts): $9 every alternative of every term (a word,
 * or a synonym phrase matched word after word), $1 the term each belongs to. A term is its
 * alternatives OR-ed; `query` is every term AND-ed when there are at most two (the index then
 * finds them at once), OR-ed otherwise, and `required` says how many terms must match. Words
 * Postgres drops as stop words do not count.
 */
const QUERY = `q AS (
    SELECT terms,
           (SELECT string_agg('(' || t::text || ')',
                              CASE WHEN NOT $10::boolean AND cardinality(terms) <= 2 THEN ' & ' ELSE ' | ' END)::tsquery
            FROM unnest(terms) AS t) AS query,
           CASE WHEN $10::boolean THEN 1 WHEN cardinality(terms) <= 2 THEN cardinality(terms)
                ELSE floor(cardinality(terms) * ${MINIMUM_SHOULD_MATCH_PERCENT} / 100.0)::int END AS required
    FROM (SELECT ARRAY(
            SELECT string_agg('(' || t::text || ')', ' | ')::tsquery
            FROM unnest($9::text[], $1::int[]) AS a(alternative, term),
                 phraseto_tsquery('french_unaccent', a.alternative) AS t
            WHERE numnode(t) > 0
            GROUP BY a.term ORDER BY a.term) AS terms) AS words),
  rarity AS (
    SELECT array_agg(ln((n.total + 1.0) / (df.n + 1.0)) ORDER BY t.i) AS idf,
           sum(ln((n.total + 1.0) / (df.n + 1.0))) AS total
    FROM q, unnest(q.terms) WITH ORDINALITY AS t(query, i),
         (SELECT count(*) AS total FROM provisions WHERE present_in_source) AS n,
         LATERAL (SELECT count(*) AS n FROM provisions WHERE present_in_source AND search_vector @@ t.query) AS df)`;
/**
 * How much of the query's rarity a provision holds (0–1): each term weighs ln(N / df), as in BM25,
 * so a provision holding the rare words of a question beats one holding its common ones.
 */
const RARITY_SHARE = `(SELECT coalesce(sum(x.idf), 0) FROM unnest(q.terms, rarity.idf) AS x(t, idf)
   WHERE p.search_vector @@ x.t) / nullif(rarity.total, 0)`;
/**
 * The index finds provisions holding any of the words; the count keeps those holding enough.
 * Long queries therefore rank many candidates: see docs/RELEVANCE.md on what that costs.
 */
const MATCHES = `(p.number_key = $11 OR p.search_vector @@ q.query
  AND (q.required <= 1 OR (SELECT count(*) FROM unnest(q.terms) AS t WHERE p.search_vector @@ t) >= q.required))`;

/** The provision whose number the query names ($11, services/search/citations.ts) ranks first. */
const NUMBER_BONUS = "CASE WHEN p.number_key = $11 THEN 10 ELSE 0 END";

export class PostgresSearchEngine implements SearchEngine {
  readonly name = "postgres" as const;

  constructor(
    private readonly db: Database,
    private readonly synonyms: Synonyms = Synonyms.bundled(),
  ) {}

  private queryParams(query: SearchQuery) {
    const terms = queryTerms(query.q, this.synonyms);
    return {
      alternatives: terms.flat(),
      termOf: terms.flatMap((alternatives, term) => alternatives.map(() => term)),
      anyWord: query.match === "any",
    };
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    // The page is chosen first; snippets are computed for that page only.
    const words = this.queryParams(query);
    const { rows } = await this.db.query<Row>(
      `WITH ${QUERY},
       page AS (
         SELECT p.id, coalesce(ts_rank_cd(p.search_vector, q.query, ${query.match === "any" ? RANK_ANY : RANK_ALL}), 0)
                  * coalesce(${RARITY_SHARE}, 1) * ${IN_FORCE_PREFERENCE} + ${NUMBER_BONUS} AS score,
                count(*) OVER () AS total
         FROM provisions p JOIN documents d ON d.id = p.document_id, q, rarity
         WHERE p.present_in_source AND ${MATCHES}
           ${FILTERS}
         ORDER BY score DESC, p.public_id
         LIMIT $6 OFFSET $7
       )
       SELECT p.public_id, p.number, d.public_id AS document_public_id, d.title AS document_title, p.section_path,
              coalesce(ts_headline('french_unaccent', p.text, q.query, '${HEADLINE_OPTIONS}'), left(p.text, 200)) AS snippet,
              p.status, p.effective_from, p.effective_to, p.domains, page.score::float8 AS score, page.total
       FROM page JOIN provisions p ON p.id = page.id JOIN documents d ON d.id = p.document_id, q
       ORDER BY page.score DESC, p.public_id`,
      [
        words.termOf,
        query.domains,
        query.document,
        query.inForce,
        query.asOf,
        query.limit,
        query.offset,
        query.unclassifiedDocuments ?? [],
        words.alternatives,
        words.anyWord,
        articleNumberKey(query.q),
      ],
    );
    let total = rows[0]?.total ?? 0;
    if (rows.length === 0 && query.offset > 0) total = await this.count(query);
    return {
      total,
      filterMode: "exact",
      hits: rows.map((r) => ({
        publicId: r.public_id,
        number: r.number,
        document: { publicId: r.document_public_id, title: r.document_title },
        sectionPath: r.section_path,
        snippet: r.snippet,
        status: r.status,
        effectiveFrom: r.effective_from,
        effectiveTo: r.effective_to,
        domains: r.domains,
        score: Math.round(r.score * 10000) / 10000,
      })),
    };
  }

  /** A page past the end still reports the total. */
  private async count(query: SearchQuery): Promise<number> {
    const words = this.queryParams(query);
    const { rows } = await this.db.query<{ n: number }>(
      // The page's $6 and $7 (limit, offset) have no place here: later parameters move down two.
      `WITH ${QUERY}
       SELECT count(*)::int AS n FROM provisions p JOIN documents d ON d.id = p.document_id, q
       WHERE p.present_in_source AND ${MATCHES}
         ${FILTERS}`.replace(/\$(8|9|10|11)\b/g, (_all, n: string) => `$${Number(n) - 2}`),
      [
        words.termOf,
        query.domains,
        query.document,
        query.inForce,
        query.asOf,
        query.unclassifiedDocuments ?? [],
        words.alternatives,
        words.anyWord,
        articleNumberKey(query.q),
      ],
    );
    return rows[0]?.n ?? 0;
  }

  async ping(): Promise<boolean> {
    try {
      await this.db.query("SELECT 1");
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {}
}

import type { Queryable } from "./database.ts";

/**
 * The term statistics Postgres search reads (migration 009: postings, document frequencies,
 * totals), checked against what the provisions' vectors say now. Triggers keep them in step in
 * every writer's transaction; this proves it, and puts them right if a bug ever did not.
 */
export interface SearchStatisticsDrift {
  /** Postings that should exist and do not, or differ. */
  missingPostings: number;
  /** Postings that exist and should not. */
  extraPostings: number;
  /** Lexemes whose document frequency (in any field, or in one of the three) is wrong. */
  wrongFrequencies: number;
  /** The totals row (provisions indexed, summed lengths) differs from a recount. */
  wrongTotals: boolean;
  /** References (migration 011) missing or extra. */
  wrongReferences: number;
}

const EXPECTED = `expected AS (
  SELECT v.id AS provision_id, s.lexeme, s.tf_text, s.tf_headings, s.tf_guides
  FROM provisions v, search_vector_postings(v.search_vector) AS s
  WHERE v.present_in_source)`;

export async function searchStatisticsDrift(db: Queryable): Promise<SearchStatisticsDrift> {
  const { rows } = await db.query<{
    missing: number;
    extra: number;
    frequencies: number;
    totals: boolean;
    refs: number;
  }>(
    `WITH ${EXPECTED},
     stored AS (SELECT provision_id, lexeme, tf_text, tf_headings, tf_guides FROM search_postings),
     references_expected AS (
       SELECT p.id, p.document_id, k FROM provisions p, cited_number_keys(p.text) AS k
       WHERE p.present_in_source AND k <> p.number_key),
     references_stored AS (SELECT provision_id, document_id, number_key FROM provision_references),
     lengths AS (
       SELECT count(*) AS provisions, coalesce(sum(text_length), 0) AS text_length,
              coalesce(sum(headings_length), 0) AS headings_length, coalesce(sum(guides_length), 0) AS guides_length,
              count(*) FILTER (WHERE guides_length > 0) AS with_guides
       FROM (SELECT v.id, coalesce(sum(e.tf_text), 0) AS text_length, coalesce(sum(e.tf_headings), 0) AS headings_length,
                    coalesce(sum(e.tf_guides), 0) AS guides_length
             FROM provisions v LEFT JOIN expected e ON e.provision_id = v.id
             WHERE v.present_in_source GROUP BY v.id) AS x)
     SELECT (SELECT count(*) FROM (SELECT * FROM expected EXCEPT SELECT * FROM stored) AS a)::int AS missing,
            (SELECT count(*) FROM (SELECT * FROM stored EXCEPT SELECT * FROM expected) AS a)::int AS extra,
            (SELECT count(*) FROM (SELECT lexeme, (count(*), count(*) FILTER (WHERE tf_text > 0),
                                                   count(*) FILTER (WHERE tf_headings > 0),
                                                   count(*) FILTER (WHERE tf_guides > 0)) AS df
                                   FROM expected GROUP BY lexeme) AS e
               FULL JOIN (SELECT lexeme, (df::bigint, df_text::bigint, df_headings::bigint, df_guides::bigint) AS df
                          FROM search_lexemes WHERE df <> 0) AS l USING (lexeme)
               WHERE e.df IS DISTINCT FROM l.df)::int AS frequencies,
            (SELECT (t.provisions, t.text_length, t.headings_length, t.guides_length, t.with_guides)
                    IS DISTINCT FROM (l.provisions, l.text_length, l.headings_length, l.guides_length, l.with_guides)
             FROM search_totals t, lengths l) AS totals,
            (SELECT count(*) FROM (
               (SELECT * FROM references_expected EXCEPT SELECT * FROM references_stored)
               UNION ALL (SELECT * FROM references_stored EXCEPT SELECT * FROM references_expected)) AS r)::int AS refs`,
  );
  const row = rows[0]!;
  return {
    missingPostings: row.missing,
    extraPostings: row.extra,
    wrongFrequencies: row.frequencies,
    wrongTotals: row.totals,
    wrongReferences: row.refs,
  };
}

/**
 * Rebuilds the statistics and references from the provisions, in the caller's transaction (then
 * refreshSearchAuthority recounts who is cited).
 */
export async function rebuildSearchStatistics(tx: Queryable): Promise<void> {
  await tx.query("LOCK TABLE provisions IN SHARE MODE");
  await tx.query("TRUNCATE search_postings, search_fields, search_lexemes");
  await tx.query(
    "UPDATE search_totals SET provisions = 0, text_length = 0, headings_length = 0, guides_length = 0, with_guides = 0",
  );
  await tx.query("SELECT search_index(ARRAY(SELECT id FROM provisions WHERE present_in_source))");
  await tx.query("TRUNCATE provision_references");
  await tx.query(
    `INSERT INTO provision_references (provision_id, document_id, number_key)
     SELECT p.id, p.document_id, k FROM provisions p, cited_number_keys(p.text) AS k
     WHERE p.present_in_source AND k <> p.number_key ON CONFLICT DO NOTHING`,
  );
}

/**
 * After a load: gives the planner fresh statistics of the provisions and the search tables (a
 * plan made blind over two million postings is a hundred times slower), and marks the postings'
 * pages all-visible, so a search reads them from the index alone. Autovacuum would come to it
 * later (PGlite has none); a search must not wait for it. Outside any transaction. Ingest runs
 * call it through refreshPlannerStatistics, when it is due.
 */
export async function analyzeSearchTables(db: Queryable): Promise<void> {
  await db.query(
    "VACUUM (ANALYZE) provisions, search_postings, search_lexemes, search_fields, search_authority, provision_references",
  );
}

/**
 * After an ingest run (documents or guides): analyzeSearchTables when the runs since the last
 * refreshing run wrote more than 50 provisions plus a tenth of the store, autovacuum's rule
 * (migration 033), and the run marked as the one that refreshed. A smaller run, an editor's act of
 * a few articles, leaves the statistics as they are: they still describe the store within the
 * margin autovacuum itself allows, and the 1.4 s of ANALYZE on the four codes and the agreements
 * would be most of its run. Returns whether it refreshed. Outside any transaction.
 */
export async function refreshPlannerStatistics(db: Queryable, runId: number): Promise<boolean> {
  const { rows } = await db.query<{ due: boolean }>("SELECT corpus_statistics_due() AS due");
  if (!rows[0]!.due) return false;
  await analyzeSearchTables(db);
  await db.query("SELECT corpus_mark_analyzed($1)", [runId]);
  return true;
}

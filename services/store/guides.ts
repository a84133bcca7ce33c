import type { Database, Queryable } from "./database.ts";
import { recordForIndexing } from "./search-outbox.ts";

/** Guide citations and the guides field search reads (migration 010): SQL only. */

/** What a guide says of the articles it cites, as stored (ingest/sources/guides/citation.ts reads it). */
export interface GuideCitationRow {
  /** The guide's own id (its pubId, its fiche id F1234). */
  guideId: string;
  /** The section of the guide citing the articles; "" when the guide cites them as a whole. */
  section: string;
  guideTitle: string;
  sectionTitle: string;
  /** The section's (or the guide's) text, plain. */
  paragraphs: string;
  /** LEGI article ids as the guide gives them: an article's id (LEGIARTI cid) or one of its versions'. */
  articles: string[];
}

export interface GuideSourceRow {
  source: string;
  version: string;
  runId: number | null;
  guides: number;
  citations: number;
  provisions: number;
  withParagraphs: boolean;
  /** Abbreviations its guides define (distinct, as written), read by search as synonyms. */
  abbreviations: number;
  loadedAt: string;
}

/** Rows per statement: a few megabytes of JSON at most. */
const BATCH = 500;

/**
 * Replaces every citation of one guide source by these, each attached to the provisions whose id
 * or one of whose versions' ids the guide gives. Returns how many citations found a provision.
 */
export async function replaceGuideCitations(
  tx: Queryable,
  source: string,
  citations: GuideCitationRow[],
): Promise<{ stored: number; unmatchedArticles: number }> {
  await tx.query("DELETE FROM guide_citations WHERE source = $1", [source]);
  let stored = 0;
  let unmatchedArticles = 0;
  for (let i = 0; i < citations.length; i += BATCH) {
    const batch = citations.slice(i, i + BATCH).map((c) => ({
      guide_id: c.guideId,
      section: c.section,
      guide_title: c.guideTitle,
      section_title: c.sectionTitle,
      paragraphs: c.paragraphs,
      articles: c.articles,
    }));
    const { rows } = await tx.query<{ stored: number; unmatched: number }>(
      `WITH cited AS (
         SELECT r.*, a.article
         FROM jsonb_to_recordset($2::jsonb) AS r(guide_id text, section text, guide_title text,
                                                 section_title text, paragraphs text, articles text[]),
              unnest(r.articles) AS a(article)),
       matched AS (
         SELECT c.*, m.provision_id
         FROM cited c LEFT JOIN LATERAL (
           SELECT id AS provision_id FROM provisions WHERE source_id = c.article
           UNION SELECT id FROM provisions WHERE version_id = c.article
           UNION SELECT provision_id FROM provision_versions WHERE version_id = c.article) AS m ON true),
       inserted AS (
         INSERT INTO guide_citations (provision_id, source, guide_id, section, guide_title, section_title, paragraphs)
         SELECT DISTINCT ON (provision_id, guide_id, section)
                provision_id, $1, guide_id, section, guide_title, section_title, paragraphs
         FROM matched WHERE provision_id IS NOT NULL
         ON CONFLICT DO NOTHING
         RETURNING 1)
       SELECT (SELECT count(*) FROM inserted)::int AS stored,
              (SELECT count(DISTINCT article) FROM matched WHERE provision_id IS NULL)::int AS unmatched`,
      [source, JSON.stringify(batch)],
    );
    stored += rows[0]!.stored;
    unmatchedArticles += rows[0]!.unmatched;
  }
  return { stored, unmatchedArticles };
}

/** An abbreviation one guide defines (services/search/abbreviations.ts), as written. */
export interface GuideAbbreviationRow {
  guideId: string;
  short: string;
  long: string;
}

/** Replaces every abbreviation one guide source defines by these (migration 018). */
export async function replaceGuideAbbreviations(
  tx: Queryable,
  source: string,
  rows: GuideAbbreviationRow[],
): Promise<void> {
  await tx.query("DELETE FROM guide_abbreviations WHERE source = $1", [source]);
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows
      .slice(i, i + BATCH)
      .map((r) => ({ guide_id: r.guideId, short: r.short, long: r.long }));
    await tx.query(
      `INSERT INTO guide_abbreviations (source, guide_id, short_form, long_form)
       SELECT $1, guide_id, short, long
       FROM jsonb_to_recordset($2::jsonb) AS r(guide_id text, short text, long text)
       ON CONFLICT DO NOTHING`,
      [source, JSON.stringify(batch)],
    );
  }
}

/**
 * Every abbreviation the loaded guides define, with each guide named `source:guide_id`, and how
 * the provisions use each abbreviation as a word: `used` when some provision's text or headings
 * hold it (its analysed lexemes), `stopWord` when the analyser drops it (« CET » is « cet »).
 */
export async function listGuideAbbreviations(db: Queryable): Promise<{
  definitions: Array<{ guide: string; short: string; long: string }>;
  words: Map<string, { used: boolean; stopWord: boolean }>;
}> {
  const { rows } = await db.query<{ guide: string; short_form: string; long_form: string }>(
    `SELECT source || ':' || guide_id AS guide, short_form, long_form FROM guide_abbreviations
     ORDER BY source, guide_id, short_form, long_form`,
  );
  const shorts = [...new Set(rows.map((r) => r.short_form))];
  const { rows: use } = await db.query<{ word: string; lexemes: number; used: boolean }>(
    `SELECT w AS word, count(x.lexeme)::int AS lexemes,
            coalesce(bool_or(greatest(l.df_text, l.df_headings) > 0), false) AS used
     FROM unnest($1::text[]) AS w
          LEFT JOIN LATERAL unnest(tsvector_to_array(corpus_tsvector(w))) AS x(lexeme) ON true
          LEFT JOIN search_lexemes l ON l.lexeme = x.lexeme
     GROUP BY w`,
    [shorts],
  );
  return {
    definitions: rows.map((r) => ({ guide: r.guide, short: r.short_form, long: r.long_form })),
    words: new Map(use.map((u) => [u.word, { used: u.used, stopWord: u.lexemes === 0 }])),
  };
}

export async function recordGuideSource(
  tx: Queryable,
  row: Omit<GuideSourceRow, "loadedAt" | "provisions" | "abbreviations">,
): Promise<void> {
  await tx.query(
    `INSERT INTO guide_sources (source, version, run_id, guides, citations, provisions, with_paragraphs, loaded_at)
     VALUES ($1, $2, $3, $4, $5,
             (SELECT count(DISTINCT provision_id) FROM guide_citations WHERE source = $1), $6, now())
     ON CONFLICT (source) DO UPDATE SET version = excluded.version, run_id = excluded.run_id,
       guides = excluded.guides, citations = excluded.citations, provisions = excluded.provisions,
       with_paragraphs = excluded.with_paragraphs, loaded_at = excluded.loaded_at`,
    [row.source, row.version, row.runId, row.guides, row.citations, row.withParagraphs],
  );
}

/**
 * Rewrites each provision's guides field from its citations: the distinct guide and section
 * titles, in a stable order, and the paragraphs of sources loaded with them. Only provisions whose
 * field changes are written (their postings follow by trigger); with an index engine they are
 * queued for re-indexing. Returns their public ids.
 */
export async function refreshProvisionGuides(tx: Queryable, searchOutbox: boolean): Promise<string[]> {
  const { rows } = await tx.query<{ public_id: string }>(
    `WITH wanted AS (
       SELECT p.id,
              coalesce((SELECT string_agg(t, ' ; ' ORDER BY t)
                        FROM (SELECT DISTINCT unnest(ARRAY[g.guide_title, g.section_title]
                                || CASE WHEN s.with_paragraphs THEN ARRAY[g.paragraphs] ELSE '{}' END) AS t
                              FROM guide_citations g JOIN guide_sources s ON s.source = g.source
                              WHERE g.provision_id = p.id) AS x
                        WHERE t <> ''), '') AS guides
       FROM provisions p
       WHERE p.guides <> '' OR EXISTS (SELECT 1 FROM guide_citations g WHERE g.provision_id = p.id))
     UPDATE provisions p SET guides = w.guides FROM wanted w
     WHERE p.id = w.id AND p.guides IS DISTINCT FROM w.guides
     RETURNING p.public_id`,
  );
  const changed = rows.map((r) => r.public_id);
  if (searchOutbox) await recordForIndexing(tx, changed);
  return changed;
}

export async function listGuideSources(db: Database): Promise<GuideSourceRow[]> {
  const { rows } = await db.query<{
    source: string;
    version: string;
    run_id: number | null;
    guides: number;
    citations: number;
    provisions: number;
    with_paragraphs: boolean;
    abbreviations: number;
    loaded_at: Date;
  }>(
    `SELECT s.*, (SELECT count(DISTINCT a.short_form)::int FROM guide_abbreviations a
                  WHERE a.source = s.source) AS abbreviations
     FROM guide_sources s ORDER BY s.source`,
  );
  return rows.map((r) => ({
    source: r.source,
    version: r.version,
    runId: r.run_id,
    guides: r.guides,
    citations: r.citations,
    provisions: r.provisions,
    withParagraphs: r.with_paragraphs,
    abbreviations: r.abbreviations,
    loadedAt: new Date(r.loaded_at).toISOString(),
  }));
}

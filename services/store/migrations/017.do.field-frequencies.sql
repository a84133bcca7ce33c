-- Term statistics per field (issue 17). BM25 takes a word's rarity in the field it is found in, as
-- the index engines do: in the headings and text, its document frequency in whichever of the two
-- holds it in more provisions (what Lucene's combined_fields takes), among all provisions; in the
-- guides, its document frequency there, among the provisions that have guides (that field's own
-- statistics). Before, one frequency over every field served both, and a word a few guides use
-- but many agreements' texts hold weighed the same in either. `df` (any field) stays: it picks a
-- phrase's rarest word, and word frequencies report it.
ALTER TABLE search_lexemes
  ADD COLUMN df_text integer NOT NULL DEFAULT 0,
  ADD COLUMN df_headings integer NOT NULL DEFAULT 0,
  ADD COLUMN df_guides integer NOT NULL DEFAULT 0;

UPDATE search_lexemes l
SET df_text = c.df_text, df_headings = c.df_headings, df_guides = c.df_guides
FROM (SELECT lexeme,
             count(*) FILTER (WHERE tf_text > 0) AS df_text,
             count(*) FILTER (WHERE tf_headings > 0) AS df_headings,
             count(*) FILTER (WHERE tf_guides > 0) AS df_guides
      FROM search_postings GROUP BY lexeme) AS c
WHERE c.lexeme = l.lexeme;

-- As migration 009's, the per-field frequencies added beside df.
CREATE OR REPLACE FUNCTION search_index(ids integer[]) RETURNS void LANGUAGE sql AS $$
  WITH added AS (
    SELECT v.id, s.lexeme, s.tf_text, s.tf_headings, s.tf_guides
    FROM provisions v LEFT JOIN LATERAL search_vector_postings(v.search_vector) AS s ON true
    WHERE v.id = ANY(ids)
  ),
  lengths AS (
    SELECT id, coalesce(sum(tf_text), 0) AS text_length, coalesce(sum(tf_headings), 0) AS headings_length,
           coalesce(sum(tf_guides), 0) AS guides_length
    FROM added GROUP BY id
  ),
  postings AS (
    INSERT INTO search_postings
    SELECT a.lexeme, a.id, a.tf_text, a.tf_headings, a.tf_guides, l.text_length, l.headings_length, l.guides_length
    FROM added a JOIN lengths l ON l.id = a.id WHERE a.lexeme IS NOT NULL
  ),
  -- Sorted, so two writers touching the same lexemes lock them in the same order.
  lexemes AS (
    INSERT INTO search_lexemes (lexeme, df, df_text, df_headings, df_guides)
    SELECT lexeme, count(*), count(*) FILTER (WHERE tf_text > 0), count(*) FILTER (WHERE tf_headings > 0),
           count(*) FILTER (WHERE tf_guides > 0)
    FROM added WHERE lexeme IS NOT NULL GROUP BY lexeme ORDER BY lexeme
    ON CONFLICT (lexeme) DO UPDATE SET
      df = search_lexemes.df + excluded.df,
      df_text = search_lexemes.df_text + excluded.df_text,
      df_headings = search_lexemes.df_headings + excluded.df_headings,
      df_guides = search_lexemes.df_guides + excluded.df_guides
  ),
  fields AS (
    INSERT INTO search_fields SELECT * FROM lengths RETURNING *
  )
  UPDATE search_totals t SET
    provisions = t.provisions + x.n,
    text_length = t.text_length + x.text_length,
    headings_length = t.headings_length + x.headings_length,
    guides_length = t.guides_length + x.guides_length,
    with_guides = t.with_guides + x.with_guides
  FROM (SELECT count(*) AS n, coalesce(sum(text_length), 0) AS text_length,
               coalesce(sum(headings_length), 0) AS headings_length,
               coalesce(sum(guides_length), 0) AS guides_length,
               count(*) FILTER (WHERE guides_length > 0) AS with_guides
        FROM fields) AS x
$$;

CREATE OR REPLACE FUNCTION search_unindex(ids integer[], vectors tsvector[]) RETURNS void LANGUAGE sql AS $$
  WITH removed AS (
    DELETE FROM search_postings s
    USING unnest(ids, vectors) AS r(id, vector), search_vector_postings(r.vector) AS v
    WHERE s.lexeme = v.lexeme AND s.provision_id = r.id
    RETURNING s.lexeme, s.tf_text, s.tf_headings, s.tf_guides
  ),
  lexemes AS (
    UPDATE search_lexemes l SET
      df = l.df - r.n, df_text = l.df_text - r.n_text, df_headings = l.df_headings - r.n_headings,
      df_guides = l.df_guides - r.n_guides
    FROM (SELECT lexeme, count(*) AS n, count(*) FILTER (WHERE tf_text > 0) AS n_text,
                 count(*) FILTER (WHERE tf_headings > 0) AS n_headings,
                 count(*) FILTER (WHERE tf_guides > 0) AS n_guides
          FROM removed GROUP BY lexeme ORDER BY lexeme) AS r
    WHERE l.lexeme = r.lexeme
  ),
  fields AS (
    DELETE FROM search_fields WHERE provision_id = ANY(ids) RETURNING *
  )
  UPDATE search_totals t SET
    provisions = t.provisions - x.n,
    text_length = t.text_length - x.text_length,
    headings_length = t.headings_length - x.headings_length,
    guides_length = t.guides_length - x.guides_length,
    with_guides = t.with_guides - x.with_guides
  FROM (SELECT count(*) AS n, coalesce(sum(text_length), 0) AS text_length,
               coalesce(sum(headings_length), 0) AS headings_length,
               coalesce(sum(guides_length), 0) AS guides_length,
               count(*) FILTER (WHERE guides_length > 0) AS with_guides
        FROM fields) AS x
$$;

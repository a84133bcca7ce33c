-- BM25 on Postgres: an inverted index kept as tables, so a search reads term statistics instead of
-- counting them. One posting per (lexeme, provision) with its frequency in each field; each
-- provision's field lengths; each lexeme's document frequency; the corpus totals. Triggers on
-- `provisions` keep all four in step with `search_vector` however rows are written, in the
-- writer's transaction, so a search never sees postings of a provision that is not there (no
-- foreign keys: the triggers remove a deleted provision's postings, and need them to do so).
-- Only provisions present in their source are indexed, as on the index engines.
-- Fields are read from search_vector's weights: B headings, C text, D guides (A, the article
-- number, is matched by number_key instead).

-- The provision's field lengths are repeated on each of its postings, and the primary key
-- carries every column: a search reads a term's postings from the index alone, in order.
CREATE TABLE search_postings (
  lexeme           text NOT NULL,
  provision_id     integer NOT NULL,
  tf_text          smallint NOT NULL,
  tf_headings      smallint NOT NULL,
  tf_guides        smallint NOT NULL,
  text_length      integer NOT NULL,
  headings_length  integer NOT NULL,
  guides_length    integer NOT NULL,
  PRIMARY KEY (lexeme, provision_id)
    INCLUDE (tf_text, tf_headings, tf_guides, text_length, headings_length, guides_length)
);

CREATE TABLE search_fields (
  provision_id     integer PRIMARY KEY,
  text_length      integer NOT NULL,
  headings_length  integer NOT NULL,
  guides_length    integer NOT NULL
);

CREATE TABLE search_lexemes (
  lexeme  text PRIMARY KEY,
  df      integer NOT NULL
);

-- One row: how many provisions are indexed and their summed field lengths (averages for BM25).
CREATE TABLE search_totals (
  singleton        boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  provisions       integer NOT NULL,
  text_length      bigint NOT NULL,
  headings_length  bigint NOT NULL,
  guides_length    bigint NOT NULL,
  with_guides      integer NOT NULL
);
INSERT INTO search_totals VALUES (true, 0, 0, 0, 0, 0);

-- Per lexeme of a vector: its frequency in each field.
CREATE FUNCTION search_vector_postings(tsvector)
  RETURNS TABLE (lexeme text, tf_text smallint, tf_headings smallint, tf_guides smallint)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT u.lexeme,
           count(*) FILTER (WHERE w = 'C')::smallint,
           count(*) FILTER (WHERE w = 'B')::smallint,
           count(*) FILTER (WHERE w = 'D')::smallint
    FROM unnest($1) AS u, unnest(u.weights) AS w
    GROUP BY u.lexeme
    HAVING count(*) FILTER (WHERE w <> 'A') > 0
  $$;

-- Adds the postings, field lengths, document frequencies and totals of these provisions.
CREATE FUNCTION search_index(ids integer[]) RETURNS void LANGUAGE sql AS $$
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
    INSERT INTO search_lexemes (lexeme, df)
    SELECT lexeme, count(*) FROM added WHERE lexeme IS NOT NULL GROUP BY lexeme ORDER BY lexeme
    ON CONFLICT (lexeme) DO UPDATE SET df = search_lexemes.df + excluded.df
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

-- Takes back what search_index added for these provisions, given the vectors they were indexed
-- with (those not indexed are ignored).
CREATE FUNCTION search_unindex(ids integer[], vectors tsvector[]) RETURNS void LANGUAGE sql AS $$
  WITH removed AS (
    DELETE FROM search_postings s
    USING unnest(ids, vectors) AS r(id, vector), search_vector_postings(r.vector) AS v
    WHERE s.lexeme = v.lexeme AND s.provision_id = r.id
    RETURNING s.lexeme
  ),
  lexemes AS (
    UPDATE search_lexemes l SET df = l.df - r.n
    FROM (SELECT lexeme, count(*) AS n FROM removed GROUP BY lexeme ORDER BY lexeme) AS r
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

-- Statement-level: a batch of rows costs a few statements, not a few per row.
CREATE FUNCTION search_postings_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed integer[];
  vectors tsvector[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM search_index(ARRAY(SELECT id FROM new_rows WHERE present_in_source));
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT coalesce(array_agg(o.id), '{}'), coalesce(array_agg(o.search_vector), '{}') INTO changed, vectors
      FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE n.search_vector IS DISTINCT FROM o.search_vector OR n.present_in_source <> o.present_in_source;
    IF cardinality(changed) > 0 THEN
      PERFORM search_unindex(changed, vectors);
      PERFORM search_index(ARRAY(SELECT id FROM provisions WHERE id = ANY(changed) AND present_in_source));
    END IF;
  ELSE
    SELECT coalesce(array_agg(id), '{}'), coalesce(array_agg(search_vector), '{}') INTO changed, vectors
      FROM old_rows;
    PERFORM search_unindex(changed, vectors);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER search_postings_insert AFTER INSERT ON provisions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_postings_sync();
CREATE TRIGGER search_postings_update AFTER UPDATE ON provisions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_postings_sync();
CREATE TRIGGER search_postings_delete AFTER DELETE ON provisions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_postings_sync();

-- What is already stored.
SELECT search_index(ARRAY(SELECT id FROM provisions WHERE present_in_source));

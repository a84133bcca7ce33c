-- Postgres full-text search, the embedded search engine: French stemming with accents folded;
-- article number, headings and text weighted A, B, C; one GIN index. The vector is a generated
-- column: Postgres keeps it in step with the row however the row is written (INSERT, UPDATE, COPY).

CREATE EXTENSION IF NOT EXISTS unaccent;

CREATE TEXT SEARCH CONFIGURATION french_unaccent (COPY = french);
ALTER TEXT SEARCH CONFIGURATION french_unaccent
  ALTER MAPPING FOR hword, hword_part, word WITH unaccent, french_stem;

-- array_to_string is only STABLE in general; for text[] it cannot change, and a generated column
-- needs an IMMUTABLE expression.
CREATE FUNCTION corpus_headings_text(text[]) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT array_to_string($1, ' ') $$;

ALTER TABLE provisions ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('french_unaccent'::regconfig, number), 'A') ||
  setweight(to_tsvector('french_unaccent'::regconfig, corpus_headings_text(section_path)), 'B') ||
  setweight(to_tsvector('french_unaccent'::regconfig, text), 'C')
) STORED;

CREATE INDEX provisions_search ON provisions USING gin (search_vector);

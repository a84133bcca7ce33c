-- The same words on every Postgres (issue 17). A few characters are read differently by the
-- embedded store (PGlite, Postgres 18 in WebAssembly) and by a Postgres server, by their versions'
-- case and unaccent rules and by the server's locale; bench:ingest found 8 of the four codes'
-- 29,115 provisions whose search vectors differed, so the same query ranked them differently
-- embedded and on a server:
--   * the micro sign « µ » (U+00B5): « μg » (Greek mu) on PGlite, « µg » on the server;
--   * the ordinal indicator in « nº »: « no » on PGlite, « nº » on the server;
--   * a zero-width space (U+200B): part of the word on PGlite (« pss​ »), a break on the server.
-- Search now reads every text through corpus_search_text before analysing it: typographic spaces
-- and the zero-width space as plain spaces (a break, as the server and Lucene read it), the
-- characters that join or only hint at layout dropped (soft hyphen, zero-width joiners, word
-- joiner, byte order mark), the micro sign as the Greek letter it stands for, « º » as « ° »
-- (« n° », as the texts write it elsewhere and as the KALI adapter already cleans it), then
-- composed accents (NFC, last, so that an accent a dropped character held apart composes too:
-- « ore\u0301 » is one word, « oré », as a query types it). Queries are analysed through the same
-- function (corpus_tsvector), so what a query types and what the text holds meet whichever
-- character either uses; services/search/words.ts's asSearched and the index engines'
-- corpus_characters filter (dsl.ts) read them alike. Stored texts are unchanged: only what search
-- reads of them.

DO $$
BEGIN
  IF current_setting('server_encoding') <> 'UTF8' THEN
    RAISE EXCEPTION 'the corpus database must be UTF8 (it is %): create it with ENCODING ''UTF8''',
      current_setting('server_encoding');
  END IF;
END $$;

-- SQL-standard bodies (BEGIN ATOMIC): the names they use are bound when they are created, not looked
-- up on each call, so the generated column computes the same on a restore, which runs with an
-- empty search_path.
CREATE FUNCTION corpus_search_text(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
  -- µ º, the zero-width space, eleven typographic spaces (U+2000–U+200A), U+202F, U+205F, U+3000;
  -- then the five dropped (no counterpart in the second list).
  SELECT normalize(translate(value,
    E'\u00b5\u00ba\u200b\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000\u00ad\u200c\u200d\u2060\ufeff',
    E'\u03bc\u00b0               '), NFC);
END;

-- What search reads of a text: its lexemes, as the vector's fields and every query are analysed.
CREATE FUNCTION corpus_tsvector(value text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT to_tsvector('french_unaccent'::regconfig, corpus_search_text(value));
END;

-- The functions the vector calls, bound to this schema too: before, a backup restored with
-- pg_restore failed on the provisions table (« function corpus_defined_notions(text) does not
-- exist »: the restore's empty search_path). corpus_guides_field takes the SQL-standard form (its
-- body unchanged). corpus_defined_notions, which Postgres never inlines, keeps the search_path it
-- was created with (SET … FROM CURRENT), and the functions it calls (corpus_notion,
-- corpus_opening_notion, corpus_granted_notion) run under it; a later CREATE OR REPLACE of it must
-- say so again (test/integration/backup-restore.test.ts fails otherwise).
CREATE OR REPLACE FUNCTION corpus_guides_field(guides text, body text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT btrim(guides || ' ' || corpus_defined_notions(body));
END;
ALTER FUNCTION corpus_defined_notions(text) SET search_path FROM CURRENT;

-- The vector, each field read through corpus_tsvector. Only the provisions whose vector changes are
-- indexed again, as the update trigger of migration 009 does for a row written again.
CREATE TEMP TABLE migration_025_before AS
  SELECT id, search_vector, present_in_source FROM provisions;

ALTER TABLE provisions DROP COLUMN search_vector;
ALTER TABLE provisions ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
  setweight(corpus_tsvector(number), 'A') ||
  setweight(corpus_tsvector(corpus_headings_text(section_path)), 'B') ||
  setweight(corpus_tsvector(text), 'C') ||
  setweight(corpus_tsvector(corpus_guides_field(guides, text)), 'D')
) STORED;

DO $$
DECLARE
  changed integer[];
  vectors tsvector[];
BEGIN
  SELECT coalesce(array_agg(b.id), '{}'), coalesce(array_agg(b.search_vector), '{}') INTO changed, vectors
    FROM migration_025_before b JOIN provisions p ON p.id = b.id
    WHERE b.present_in_source AND p.search_vector IS DISTINCT FROM b.search_vector;
  IF cardinality(changed) > 0 THEN
    PERFORM search_unindex(changed, vectors);
    PERFORM search_index(changed);
    -- In-memory copies of the model (memory-search.ts) are stale now.
    UPDATE search_generation SET value = value + 1;
  END IF;
END $$;

DROP TABLE migration_025_before;

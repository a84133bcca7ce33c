-- The priors of migrations 020–031 recomputed for the documents an ingest run changed, not for
-- the whole store (issue 17). Which article opens a division, and the names it opens, depend on
-- its own document only: its provisions' order, status, text and headings. The citation counts
-- of search_authority do depend on every document, but they cost a join over the references
-- (tens of milliseconds); the openers and the names cost a pass over every provision's text and
-- a sort of every article's every heading level (1.2 s on the four codes on server Postgres,
-- 2.4–2.8 s on PGlite), paid again by each run however small, and growing with the agreements
-- loaded. refreshSearchAuthority now hands the functions the documents the run created or
-- updated; a run that changed nothing pays nothing for them.
--
-- `documents`: the ids (documents.id) to recompute; NULL for every document. The functions
-- without an argument stay, as every document's, for the migrations and the ingest floor
-- (test/bench/worker.ts) that call them.

CREATE OR REPLACE FUNCTION corpus_section_openers(documents integer[]) RETURNS TABLE (provision_id integer)
  LANGUAGE sql STABLE AS $$
  SELECT id FROM (
    SELECT DISTINCT ON (document_id, section_source_id) id, section_path
    FROM provisions
    WHERE (documents IS NULL OR document_id = ANY (documents))
      AND present_in_source AND status = 'in_force' AND NOT corpus_scope_clause(text)
    ORDER BY document_id, section_source_id, position) AS first
  WHERE NOT corpus_special_division(section_path)
$$;

CREATE OR REPLACE FUNCTION corpus_section_openers() RETURNS TABLE (provision_id integer)
  LANGUAGE sql STABLE AS $$ SELECT provision_id FROM corpus_section_openers(NULL::integer[]) $$;

-- As migration 029 wrote it, for `documents` only.
CREATE OR REPLACE FUNCTION corpus_opened_divisions(documents integer[]) RETURNS TABLE (provision_id integer, names text[])
  LANGUAGE sql STABLE AS $$
  WITH levels AS (
    SELECT p.id, p.document_id, p.position, p.section_path AS path, l.level,
           p.section_path[1:l.level] AS prefix, l.heading
    FROM provisions p
         LEFT JOIN sections s ON s.document_id = p.document_id AND s.source_id = p.section_source_id
         CROSS JOIN LATERAL unnest(p.section_path[1:coalesce(s.depth + 1, 0)]) WITH ORDINALITY AS l(heading, level)
    WHERE (documents IS NULL OR p.document_id = ANY (documents))
      AND p.present_in_source AND p.status = 'in_force' AND NOT corpus_scope_clause(p.text)),
  firsts AS MATERIALIZED (
    SELECT DISTINCT ON (document_id, prefix) id, level, path, heading
    FROM levels ORDER BY document_id, prefix, position),
  named AS (
    SELECT id, level, corpus_division_name(heading) AS name FROM firsts
    WHERE NOT corpus_special_division(path))
  SELECT id, array_agg(name ORDER BY level) FROM named WHERE name <> '' GROUP BY id
$$;

CREATE OR REPLACE FUNCTION corpus_opened_divisions() RETURNS TABLE (provision_id integer, names text[])
  LANGUAGE sql STABLE AS $$ SELECT provision_id, names FROM corpus_opened_divisions(NULL::integer[]) $$;

-- Writes the names again where they changed, among the provisions of `documents`, and returns
-- the ids written.
CREATE OR REPLACE FUNCTION corpus_write_opened_divisions(documents integer[]) RETURNS SETOF integer LANGUAGE sql AS $$
  UPDATE provisions p SET opened_divisions = coalesce(o.names, '{}')
  FROM provisions q LEFT JOIN corpus_opened_divisions(documents) o ON o.provision_id = q.id
  WHERE q.id = p.id AND (documents IS NULL OR q.document_id = ANY (documents))
    AND p.opened_divisions IS DISTINCT FROM coalesce(o.names, '{}')
  RETURNING p.id
$$;

CREATE OR REPLACE FUNCTION corpus_write_opened_divisions() RETURNS SETOF integer LANGUAGE sql AS $$
  SELECT * FROM corpus_write_opened_divisions(NULL::integer[])
$$;

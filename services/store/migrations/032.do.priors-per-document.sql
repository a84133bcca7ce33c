-- The priors of migrations 020–031 recomputed for the documents that changed, not for the
-- whole store (issue 17). Which article opens a division, and the names it opens, depend on its
-- own document only: its provisions' order, status, text and headings, and its sections' depths.
-- The citation counts of search_authority do depend on every document, but they cost a join over
-- the references (tens of milliseconds); the openers and the names cost a pass over every
-- provision's text and a sort of every article's every heading level (about 2 s on the four codes,
-- on PGlite and on server Postgres), paid again by each run however small, and growing with the
-- agreements loaded.
--
-- search_priors_pending lists the documents whose priors wait to be recomputed. Triggers write
-- it in the writer's own transaction, so a document is listed exactly when its rows committed: an
-- ingest run killed after committing a document and before its refresh leaves the document
-- listed, and the next run's refresh (which finds the document unchanged) still recomputes it.
-- refreshSearchAuthority takes the list (corpus_take_priors_pending) and hands it to the
-- functions below, in its own transaction.
--
-- `documents`: the ids (documents.id) to recompute; NULL for every document. The functions
-- without an argument stay, as every document's, for the migrations and the ingest floor
-- (test/bench/worker.ts) that call them.

CREATE TABLE search_priors_pending (
  document_id integer PRIMARY KEY,
  marked_at   timestamptz NOT NULL DEFAULT now()
);

-- The triggers on provisions and on sections (a section's depth tells which levels of an
-- article's headings are divisions, migration 029). A provision's update counts when a column an
-- opener is chosen by changed: an update of its guides, or of the names the refresh writes
-- (opened_divisions), lists nothing. Ingest replaces a document's sections only when the document
-- changed. DO UPDATE rather than DO NOTHING: it locks the listed row, so a refresh taking the list
-- waits for this transaction's commit and then reads the rows it wrote. The search generation's
-- row is locked first, as its own trigger on provisions does (migration 012, fired before these
-- by name), and as the refresh does: a writer and a refresh never wait on each other in opposite
-- orders.
CREATE FUNCTION search_priors_mark() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM search_generation FOR UPDATE;
  -- Each transition table is only there for its own operations: one statement per branch.
  IF TG_OP = 'DELETE' THEN
    INSERT INTO search_priors_pending (document_id) SELECT DISTINCT document_id FROM old_rows
    ON CONFLICT (document_id) DO UPDATE SET marked_at = excluded.marked_at;
  ELSIF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'provisions' THEN
    INSERT INTO search_priors_pending (document_id)
    SELECT DISTINCT d.document_id
    FROM old_rows o JOIN new_rows n ON n.id = o.id
         CROSS JOIN LATERAL (VALUES (o.document_id), (n.document_id)) AS d(document_id)
    WHERE (o.document_id, o.section_source_id, o.section_path, o.position, o.present_in_source, o.status, o.text)
          IS DISTINCT FROM
          (n.document_id, n.section_source_id, n.section_path, n.position, n.present_in_source, n.status, n.text)
    ON CONFLICT (document_id) DO UPDATE SET marked_at = excluded.marked_at;
  ELSE
    INSERT INTO search_priors_pending (document_id) SELECT DISTINCT document_id FROM new_rows
    ON CONFLICT (document_id) DO UPDATE SET marked_at = excluded.marked_at;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER search_priors_provisions_insert AFTER INSERT ON provisions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_priors_mark();
CREATE TRIGGER search_priors_provisions_update AFTER UPDATE ON provisions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_priors_mark();
CREATE TRIGGER search_priors_provisions_delete AFTER DELETE ON provisions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_priors_mark();
CREATE TRIGGER search_priors_sections_insert AFTER INSERT ON sections
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_priors_mark();
CREATE TRIGGER search_priors_sections_update AFTER UPDATE ON sections
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_priors_mark();
CREATE TRIGGER search_priors_sections_delete AFTER DELETE ON sections
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_priors_mark();

-- Takes the list: the documents listed, removed from it, the search generation's row locked first.
CREATE OR REPLACE FUNCTION corpus_take_priors_pending() RETURNS integer[] LANGUAGE plpgsql AS $$
DECLARE
  taken integer[];
BEGIN
  PERFORM 1 FROM search_generation FOR UPDATE;
  WITH gone AS (DELETE FROM search_priors_pending RETURNING document_id)
  SELECT coalesce(array_agg(document_id ORDER BY document_id), '{}') INTO taken FROM gone;
  RETURN taken;
END $$;

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

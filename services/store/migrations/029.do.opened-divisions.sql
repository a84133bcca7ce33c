-- The names of the divisions an article opens, read twice in its headings (issue 17). A code names
-- its subject in a division's heading (« Section 3 : Rupture conventionnelle », « Chapitre II :
-- Harcèlement moral ») and states the rule in the division's first article (L1237-11, L1152-1);
-- the articles after it set the terms, the procedure and the exceptions. Every article of the
-- division carries the heading alike, so the headings field alone cannot tell the article stating
-- the rule from the ones applying it, and the opening prior (migration 020, RANKING.opening) only
-- breaks ties between provisions matching alike. Here the division's name is written a second time
-- in the headings of the article that opens it: what the division is about is that article's own
-- subject. A lawyer's rule, not a weight: the name counts twice, as if the heading were repeated.
--
-- An article opens each division of its path whose first article in force it is, in its
-- document's order, among the provisions present in the source (the first article of a title's
-- first chapter's first section opens all three), as migration 020 reads the opener of its own
-- section, and with the same exceptions: an article stating only its division's scope
-- (corpus_scope_clause, migrations 021 and 028) leaves it to the next, and within a division of special
-- rules (corpus_special_division) no article opens. A part (« Partie législative », « Première
-- partie : Les relations individuelles de travail ») names no subject: its name is not read again.
-- Only the name is read again, not its label (« Section 3 : »), and a label alone (« Chapitre
-- unique ») names nothing.
--
-- provisions.opened_divisions holds those names; the vector's headings field (B) reads the path and
-- then them. refreshSearchAuthority writes them again after each ingest run, with the other priors,
-- since an article inserted or repealed changes which one opens. The index engines hold them in
-- their own field, copied into `section_path` (dsl.ts): a mapping change, `corpus index rebuild`
-- after upgrading (README).

ALTER TABLE provisions ADD COLUMN opened_divisions text[] NOT NULL DEFAULT '{}';

-- A division's name as its heading gives it, without its label (« Section 3 : », « Chapitre III -
-- », « Section 1 »); '' for a part (« Partie législative », « Première partie : … »), which names no
-- subject, and for a label alone (« Chapitre unique », « Section 13 », « Annexes »). A word after
-- the label that is no number is part of the name (« Titre emploi simplifié agricole »).
-- What ends a label's number is spelled out (a space, « . », « : », a dash or the end), and the
-- accented letters are given in both cases: a database made in the C locale reads neither a word's
-- end nor a case past ASCII.
CREATE FUNCTION corpus_division_name(heading text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN heading ~* '^(\S+\s+)?partie\M' OR name !~ '[[:alpha:]]'
                OR name ~* '^(livre|titre|chapitre|section|sous-section|paragraphe|sous-paragraphe|annexe)s?\.?$'
              THEN '' ELSE name END
  FROM (SELECT btrim(CASE WHEN heading ~ ':' THEN regexp_replace(heading, '^[^:]*:\s*', '')
                     ELSE regexp_replace(heading,
                       '^(livre|titre|chapitre|section|sous-section|paragraphe|sous-paragraphe|annexe)\s+(unique|pr[éÉ]liminaire|premier|premi[èÈ]re|[ivxlc]+(er|re)?|\d+(er|re)?|[a-z])(\s+(bis|ter|quater|quinquies))?(?=[\s.:–-]|$)\s*([.–-]\s*)?',
                       '', 'i') END) AS name) AS x
$$;

-- Each article opening a division, with the names of the divisions it opens, outermost first.
CREATE FUNCTION corpus_opened_divisions() RETURNS TABLE (provision_id integer, names text[])
  LANGUAGE sql STABLE AS $$
  -- The levels of the article's section: a title of its own, which ends its path when the source
  -- gives one (« Période d'essai » in an agreement, ingest/pipeline/rows.ts), is no division.
  WITH levels AS (
    SELECT p.id, p.document_id, p.position, p.section_path AS path, l.level,
           p.section_path[1:l.level] AS prefix, l.heading
    FROM provisions p
         LEFT JOIN sections s ON s.document_id = p.document_id AND s.source_id = p.section_source_id
         CROSS JOIN LATERAL unnest(p.section_path[1:coalesce(s.depth + 1, 0)]) WITH ORDINALITY AS l(heading, level)
    WHERE p.present_in_source AND p.status = 'in_force' AND NOT corpus_scope_clause(p.text)),
  -- Each division's first article, then what it is read for: MATERIALIZED, or the planner reads
  -- the headings for every article's every level (over the four codes on a busy server, 7 s
  -- rather than 1.4 s).
  firsts AS MATERIALIZED (
    SELECT DISTINCT ON (document_id, prefix) id, level, path, heading
    FROM levels ORDER BY document_id, prefix, position),
  -- An article within a division of special rules opens nothing (migration 020), not even a
  -- division above it whose first article it is.
  named AS (
    SELECT id, level, corpus_division_name(heading) AS name FROM firsts
    WHERE NOT corpus_special_division(path))
  SELECT id, array_agg(name ORDER BY level) FROM named WHERE name <> '' GROUP BY id
$$;

-- Writes every provision's names again where they changed (an article that no longer opens gets
-- none) and returns the ids written: their vectors, postings and the search generation follow by
-- the triggers of migrations 009 and 012. (OR REPLACE: a test upgrading an older store gives it
-- one writing nothing, test/helpers/stores.ts.)
CREATE OR REPLACE FUNCTION corpus_write_opened_divisions() RETURNS SETOF integer LANGUAGE sql AS $$
  UPDATE provisions p SET opened_divisions = coalesce(o.names, '{}')
  FROM provisions q LEFT JOIN corpus_opened_divisions() o ON o.provision_id = q.id
  WHERE q.id = p.id AND p.opened_divisions IS DISTINCT FROM coalesce(o.names, '{}')
  RETURNING p.id
$$;

-- The vector as migration 025 wrote it, its headings field now reading the opened names after the
-- path. With no names yet, every vector is the one it was: the postings stay right, and the
-- update below writes the openers' again through the triggers.
ALTER TABLE provisions DROP COLUMN search_vector;
ALTER TABLE provisions ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
  setweight(corpus_tsvector(number), 'A') ||
  setweight(corpus_tsvector(corpus_headings_text(section_path || opened_divisions)), 'B') ||
  setweight(corpus_tsvector(text), 'C') ||
  setweight(corpus_tsvector(corpus_guides_field(guides, text)), 'D')
) STORED;

SELECT count(*) FROM corpus_write_opened_divisions();

-- The article that opens its division (issue 17). French codes are written general rule first: a
-- division (« Section 3 : Rupture conventionnelle », « Chapitre II : Harcèlement moral ») opens
-- with the article stating its principle or definition (L1237-11, L1152-1), and the articles after
-- it set the terms, the procedure and the exceptions. Search's priors (services/search/ranking.ts,
-- RANKING.opening) read it as the legislative prior is read: among provisions matching alike, the
-- one that opens its division first.
--
-- A provision opens its division when it is the first in force, in its document's order, among the
-- provisions present in the source that share its section (provisions.section_source_id; articles
-- outside any division share the document's top level), unless it stands within a division of
-- special rules (corpus_special_division): there every division's first article is a special case
-- too (« Section 2 : Dérogations » opens a sub-section, and a paragraph, per derogation).
-- search_authority becomes the table of search's structural priors: a row for every provision cited
-- by another or opening its division, refreshed after each ingest run with the citation counts
-- (refreshSearchAuthority), since an article inserted or repealed changes which one opens.

-- Whether a heading of the path names special rules: derogations, exceptions, particular, specific
-- or special provisions or regimes, penal or transitional ones (« Dérogations au repos
-- hebdomadaire », « Dispositions particulières à certaines professions », « Régimes particuliers »,
-- « Dispositions pénales »), as whole words: « Exposition exceptionnelle » is no exception.
CREATE FUNCTION corpus_special_division(text[]) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT EXISTS (
    SELECT 1 FROM unnest($1) AS heading
    WHERE heading ~* '(d[éÉ]rogations?|exceptions?|particuli(er|[èÈ]re)s?|sp[éÉ]cifiques?|sp[éÉ]ciales?|p[éÉ]nales?|transitoires?)\M')
$$;

ALTER TABLE search_authority ADD COLUMN opens_section boolean NOT NULL DEFAULT false;

CREATE TABLE migration_020_openers AS
  SELECT id FROM (
    SELECT DISTINCT ON (document_id, section_source_id) id, section_path
    FROM provisions
    WHERE present_in_source AND status = 'in_force'
    ORDER BY document_id, section_source_id, position) AS first
  WHERE NOT corpus_special_division(section_path);

INSERT INTO search_authority (provision_id, cited_by, opens_section)
SELECT id, 0, true FROM migration_020_openers
ON CONFLICT (provision_id) DO UPDATE SET opens_section = true;

-- The index engines hold the prior as a field of their own (`opens_section`), a mapping change:
-- `corpus index rebuild` after upgrading (README). The field enters the indexed hash, so
-- `corpus index verify` names the documents an index made before holds without it.
DROP TABLE migration_020_openers;

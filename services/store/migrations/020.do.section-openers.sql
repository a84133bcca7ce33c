-- The article that opens its division (issue 17). French codes are written general rule first: a
-- division (« Section 3 : Rupture conventionnelle », « Chapitre II : Harcèlement moral ») opens
-- with the article stating its principle or definition (L1237-11, L1152-1), and the articles after
-- it set the terms, the procedure and the exceptions. Search's priors (services/search/ranking.ts,
-- RANKING.opening) read it as the legislative prior is read: among provisions matching alike, the
-- one that opens its division first.
--
-- A provision opens its division when it is the first in force, in its document's order, among the
-- provisions present in the source that share its section (provisions.section_source_id; articles
-- outside any division share the document's top level). search_authority becomes the table of
-- search's structural priors: a row for every provision cited by another or opening its division,
-- refreshed after each ingest run with the citation counts (refreshSearchAuthority), since an
-- article inserted or repealed in a division changes which one opens it.

ALTER TABLE search_authority ADD COLUMN opens_section boolean NOT NULL DEFAULT false;

CREATE TABLE migration_020_openers AS
  SELECT DISTINCT ON (document_id, section_source_id) id
  FROM provisions
  WHERE present_in_source AND status = 'in_force'
  ORDER BY document_id, section_source_id, position;

INSERT INTO search_authority (provision_id, cited_by, opens_section)
SELECT id, 0, true FROM migration_020_openers
ON CONFLICT (provision_id) DO UPDATE SET opens_section = true;

-- The index engines hold the prior as a field of their own (`opens_section`), a mapping change:
-- `corpus index rebuild` after upgrading (README). The field enters the indexed hash, so
-- `corpus index verify` names the documents an index made before holds without it.
DROP TABLE migration_020_openers;

-- A division's scope, then its rule (issue 17). Migration 021 passes over an article whose first
-- sentence states where or to whom its division applies: the next article in force opens the
-- division. Some such articles go on to state the division's rule themselves:
--   « Les dispositions du présent livre sont applicables aux maladies d'origine professionnelle
--   sous réserve des dispositions du présent titre. […] Est présumée d'origine professionnelle
--   toute maladie désignée dans un tableau de maladies professionnelles… »   (L461-1 CSS)
-- The rule a lawyer states: an article that defines a notion (corpus_defined_notions: what it
-- defines, institutes, grants or says how to understand) is no mere scope clause; it opens its
-- division like any other. Of the 484 articles in force of the four codes read as scope clauses, 6
-- define a notion (L461-1, L623-2 and R161-39 of the Code de la sécurité sociale, L5122-5 of the
-- Code du travail, L226-2 of the Code rural, R*133-1 of the Code des relations entre le public et
-- l'administration).

-- SQL-standard body (as migration 025's): corpus_defined_notions is bound when this is created.
-- The notions are read only for a text whose first sentence states a scope.
CREATE OR REPLACE FUNCTION corpus_scope_clause(text) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT CASE
    WHEN split_part($1, '. ', 1) ~* '\mprésente?s? (code|livre|titre|chapitre|section|sous-section|paragraphe)\M'
     AND split_part($1, '. ', 1) ~* '(\mapplicables?\M|\ms''appliqu)'
    THEN corpus_defined_notions($1) = ''
    ELSE false
  END;
END;

-- The articles opening their section (migrations 020 and 021), in one place: the first in force of
-- the provisions present in the source sharing a section, in the document's order, unless it only
-- states the division's scope (the next one opens it) or stands within a division of special
-- rules. refreshSearchAuthority reads it after every ingest run; this migration, once, below.
CREATE OR REPLACE FUNCTION corpus_section_openers() RETURNS TABLE (provision_id integer) LANGUAGE sql STABLE AS $$
  SELECT id FROM (
    SELECT DISTINCT ON (document_id, section_source_id) id, section_path
    FROM provisions
    WHERE present_in_source AND status = 'in_force' AND NOT corpus_scope_clause(text)
    ORDER BY document_id, section_source_id, position) AS first
  WHERE NOT corpus_special_division(section_path)
$$;

-- The rows that change, written in one statement and queued for the index engines, which hold the
-- prior in their own copy (`opens_section`), as migration 021 did.
WITH openers AS MATERIALIZED (SELECT provision_id FROM corpus_section_openers()),
     closed AS (
       UPDATE search_authority SET opens_section = false
       WHERE opens_section AND provision_id NOT IN (SELECT provision_id FROM openers)
       RETURNING provision_id),
     opened AS (
       INSERT INTO search_authority (provision_id, cited_by, opens_section)
       SELECT provision_id, 0, true FROM openers
       ON CONFLICT (provision_id) DO UPDATE SET opens_section = true WHERE NOT search_authority.opens_section
       RETURNING provision_id)
INSERT INTO search_outbox (public_id)
SELECT public_id FROM provisions
WHERE id IN (SELECT provision_id FROM closed UNION SELECT provision_id FROM opened);

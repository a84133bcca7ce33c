-- A division's scope is not its rule (issue 17). Many divisions open with an article saying only
-- where or to whom they apply (« Les dispositions du présent titre sont applicables aux employeurs
-- de droit privé… », L2311-1; « Le présent chapitre s'applique… »); the rule the division sets out
-- comes in the article after it (L2311-2: « Un comité social et économique est mis en place dans
-- les entreprises d'au moins onze salariés »). Such an article does not open its division for
-- search's opening prior (migration 020, RANKING.opening): the next one in force does.

-- Whether a provision's first sentence states the scope of a division of its code: it names « le
-- présent titre », « la présente section »… and says it applies (or does not).
CREATE FUNCTION corpus_scope_clause(text) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT split_part($1, '. ', 1) ~* '\mprésente?s? (code|livre|titre|chapitre|section|sous-section|paragraphe)\M'
     AND split_part($1, '. ', 1) ~* '(\mapplicables?\M|\ms''appliqu)'
$$;

CREATE TABLE migration_021_openers AS
  SELECT id FROM (
    SELECT DISTINCT ON (document_id, section_source_id) id, section_path
    FROM provisions
    WHERE present_in_source AND status = 'in_force' AND NOT corpus_scope_clause(text)
    ORDER BY document_id, section_source_id, position) AS first
  WHERE NOT corpus_special_division(section_path);

-- The rows that change, written in one statement (the two sets are disjoint), and queued for the
-- index engines, which hold the prior in their own copy (`opens_section`), as migration 019 queued
-- the rows it rewrote.
WITH closed AS (
       UPDATE search_authority SET opens_section = false
       WHERE opens_section AND provision_id NOT IN (SELECT id FROM migration_021_openers)
       RETURNING provision_id),
     opened AS (
       INSERT INTO search_authority (provision_id, cited_by, opens_section)
       SELECT id, 0, true FROM migration_021_openers
       ON CONFLICT (provision_id) DO UPDATE SET opens_section = true WHERE NOT search_authority.opens_section
       RETURNING provision_id)
INSERT INTO search_outbox (public_id)
SELECT public_id FROM provisions
WHERE id IN (SELECT provision_id FROM closed UNION SELECT provision_id FROM opened);

DROP TABLE migration_021_openers;

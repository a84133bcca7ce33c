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

UPDATE search_authority SET opens_section = false
WHERE opens_section AND provision_id NOT IN (SELECT id FROM migration_021_openers);

INSERT INTO search_authority (provision_id, cited_by, opens_section)
SELECT id, 0, true FROM migration_021_openers
ON CONFLICT (provision_id) DO UPDATE SET opens_section = true;

-- The index engines read opens_section as before, from their own copy: `corpus index verify` names
-- the documents whose prior changed here (it enters the indexed hash), and `corpus index rebuild`
-- after upgrading rewrites them (README).
DROP TABLE migration_021_openers;

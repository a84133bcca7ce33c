-- Defined notions, the other way round (issue 17). Migration 013 reads the forms that put the
-- notion after the verb: « Constitue un licenciement pour motif économique… », « On entend par… »,
-- « Est considéré comme… ». Many articles that define or institute a notion open with it instead,
-- as the subject of their first sentence:
--   « Le contrat d'apprentissage est un contrat de travail de type particulier… »   (a genus)
--   « L'intéressement a pour objet d'associer collectivement les salariés… »          (a purpose)
--   « Le portage salarial désigne l'ensemble organisé… »                              (a designation)
--   « Un comité social et économique est mis en place dans les entreprises… »         (an institution)
-- The rule a lawyer states is the same: that article comes first for that notion. The notion joins
-- the guides field as 013's do, on every engine (index-source.ts reads corpus_guides_field).
-- « Il est institué une surcompensation interprofessionnelle des prestations d'accidents du
-- travail… » is not read: it names a thing by a description whose words are other notions', and
-- put a Code de la sécurité sociale article among the first ten for « accident du travail ».

-- The notion an article's opening sentence defines or institutes, or ''. Only the opening clause
-- (up to its first full stop, semicolon or colon) is read, and only these verbs right after the
-- subject: « Le contrat… est conclu… » or « Le délai est de deux mois » define nothing.
CREATE FUNCTION corpus_opening_notion(body text) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  opening text := substring(body from '^[^.;:]*');
  m text[];
BEGIN
  -- The subject, up to its first verb (the shortest: « Le contrat… | est | un contrat… qui est… »).
  m := regexp_match(opening, '^(.*?)\s(est|sont|a|ont|d[ée]signe(?:nt)?)\s(.*)$');
  IF m IS NULL THEN RETURN ''; END IF;
  -- A thing named with an article: not « Le présent chapitre », « Le fait de… », « L'employeur… » acting.
  IF m[1] !~* '^(les?\s|la\s|l[''’]|une?\s)' OR m[1] ~* '^(les?|la|une?)\s(présente?s?|fait|même|dernier|dernière)\M' THEN
    RETURN '';
  END IF;
  -- Nor a subject that holds a verb of its own or a relative clause (« L'Etat peut apporter… »,
  -- « Les ministres auprès desquels… »): its first verb was not the defining one.
  IF m[1] ~* '\m(peut|peuvent|doit|doivent|ne|n[''’]\w*|lequel|laquelle|lesquel(le)?s|desquel(le)?s|auxquel(le)?s|duquel|auquel)\M' THEN
    RETURN '';
  END IF;
  IF (m[2] IN ('est', 'sont') AND m[3] ~ '^(une?|des)\s')
     OR (m[2] IN ('a', 'ont') AND m[3] ~ '^pour objet\s')
     OR (m[2] ~ '^d' AND m[3] ~* '^(tout|toute|tous|toutes|l[''’]ensemble)\M')
     OR (m[2] IN ('est', 'sont') AND m[3] ~ '^(mise?s? en place|institu[ée]e?s?|cr[ée][ée]e?s?)\M') THEN
    RETURN corpus_notion(m[1]);
  END IF;
  RETURN '';
END $$;

-- Every notion a text defines, distinct, separated by ' ; ': 013's forms and the opening's.
CREATE OR REPLACE FUNCTION corpus_defined_notions(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(DISTINCT n, ' ; '), '')
  FROM (SELECT corpus_notion(m[1]) AS n
        FROM regexp_matches($1,
          '(?:^|[.;:]\s+|,\s+)(?:constituen?t?|(?:est|sont)\s+(?:consid[ée]r[ée]e?s?|r[ée]put[ée]e?s?|pr[ée]sum[ée]e?s?|qualifi[ée]e?s?)(?:\s+comme|\s+de|\s+d[''’])?|on\s+entend\s+par)\s+([^,;.:()«»]{1,200})',
          'gi') AS m
        UNION ALL
        SELECT corpus_opening_notion($1)) AS x
  WHERE n <> ''
$$;

-- The stored vectors were computed with the old function: write again the rows it now reads
-- otherwise, so the generated column is computed anew and migration 009's triggers count their
-- postings again (the search generation moves with them, migration 012). The index engines
-- re-index them from the outbox, as migration 014's corrected rows.
CREATE TABLE migration_019_changed AS
  SELECT id, public_id FROM provisions WHERE corpus_opening_notion(text) <> '';
UPDATE provisions SET text = text WHERE id IN (SELECT id FROM migration_019_changed);
INSERT INTO search_outbox (public_id) SELECT public_id FROM migration_019_changed;
DROP TABLE migration_019_changed;

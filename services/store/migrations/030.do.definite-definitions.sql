-- Definitions with the definite article (issue 17). Migration 019 reads the notion an article's
-- opening sentence defines by a genus with the indefinite article (« Le contrat d'apprentissage
-- est un contrat de travail de type particulier… »). The codes define as often with the definite
-- one, saying which thing it is:
--   « Le contrat de travail à durée indéterminée est la forme normale et générale de la relation
--     de travail. »                                                                  (L1221-2)
--   « La durée du travail effectif est le temps pendant lequel le salarié est à la disposition de
--     l'employeur… »                                                                (L3121-1)
--   « Le bail à métayage est le contrat par lequel un bien rural est donné à bail… » (L417-1 rural)
--   « Les chemins ruraux sont les chemins appartenant aux communes… »              (L161-1 rural)
-- The rule a lawyer states is the same: that article comes first for that notion. Not a list it
-- announces (« Les missions du tuteur sont les suivantes : »), a sameness (« …sont les mêmes
-- que… »), a degree (« les plus faibles »), a cause (« est le fait de »), what belongs to whom
-- (« Le registre est la propriété de l'employeur »), nor an office or body named as the one that
-- acts (« L'autorité compétente… est le préfet », « …est l'organisme payeur agréé »): those say
-- who, or how much, not what.

CREATE TEMP TABLE migration_030_before AS
  SELECT id, public_id, corpus_opening_notion(text) AS notion FROM provisions
  WHERE text ~* '^[^.;:]*\s(est|sont)\s(le|la|les|l[''’])';

CREATE OR REPLACE FUNCTION corpus_opening_notion(body text) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
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
  -- Which thing it is (this migration): the definite article, then a noun that is no list, no
  -- sameness, no ownership and no office or body acting.
  IF m[2] IN ('est', 'sont') AND m[3] ~ '^((le|la|les)\s|l[''’])'
     AND m[3] !~* '^((le|la|les)\s|l[''’])\s*(suivante?s?|mêmes?|propriété|fait|plus|moins)\M'
     AND m[3] !~* '^((le|la|les)\s|l[''’])\s*(préfets?|ministres?|directeurs?|directrices?|présidents?|représentants?|organismes?|caisses?|autorités?|organes?|instances?|agents?|services?|établissements?)\M'
     AND m[1] !~* '^((le|la|les)\s|l[''’])\s*(autorités?|commissaires?)\M'
     -- The subject named at once: no incidental clause, no relative one (« …dont les
     -- rémunérations sont les plus faibles »), whose verb would be taken for the defining one.
     AND m[1] !~ ',' AND m[1] !~* '\m(dont|qui|que|qu[''’]\w*)\M' THEN
    RETURN corpus_notion(m[1]);
  END IF;
  RETURN '';
END $$;

-- The rows whose notions change: written again, so the generated vector and migration 009's
-- postings follow (the search generation with them, migration 012), and queued for the index
-- engines, which read the notions through corpus_guides_field (index-source.ts), as 019 did.
CREATE TEMP TABLE migration_030_changed AS
  SELECT id, public_id FROM migration_030_before WHERE corpus_opening_notion((SELECT text FROM provisions p WHERE p.id = migration_030_before.id)) IS DISTINCT FROM notion;
UPDATE provisions SET text = text WHERE id IN (SELECT id FROM migration_030_changed);
INSERT INTO search_outbox (public_id) SELECT public_id FROM migration_030_changed;
DROP TABLE migration_030_changed;
DROP TABLE migration_030_before;

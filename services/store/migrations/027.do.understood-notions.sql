-- The notion a clause says how to understand (issue 17): « Une période d'astreinte s'entend comme
-- une période pendant laquelle le salarié… » (L3121-9), « La mise à la retraite s'entend de la
-- possibilité donnée à l'employeur… » (L1237-5), « Pour l'application du présent article,
-- l'activité principale s'entend comme celle… » (D3141-12). « X s'entend de / comme » is how the
-- codes define a word, as « On entend par X » (migration 013), which reads the notion after its
-- verb; here it stands before. A clause counts when it opens the text or follows « . », « ; » or
-- « : », and its subject is a thing named with an article, optionally after « Au sens de… , » or
-- « Pour l'application de… , », or with « , au sens de… , » before the verb. Not a subject after
-- « Si… , » or « Pour les personnes… , » (a condition, then a rule), nor one holding a verb of its
-- own, a relative pronoun or « présent » (« Le présent chapitre »), as the opening's (019), nor
-- one pointing back to the text before it (« ci-dessus », « cette »).
-- 74 texts of the four codes say « s'entend(ent) de / comme »; the rule reads a notion in 29 of
-- them (docs/RELEVANCE.md, row 38, lists them). Rows whose notions change are written again (vectors, postings)
-- and queued for the index engines, as migrations 019 and 023 did.

CREATE TEMP TABLE migration_027_before AS
  SELECT id, public_id, corpus_defined_notions(text) AS notions FROM provisions
  WHERE text ~* '\ms[''’]entend';

-- Each notion the text says how to understand: the subject of each clause of that shape.
CREATE FUNCTION corpus_understood_notions(body text) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  -- The name ends before a reference to other text (« visée au premier alinéa », « au titre de
  -- l'article 64 bis »), as corpus_notion ends it before « mentionné » or « prévu »; a word the
  -- clause names as a word (« Le terme " agents de direction " s'entend… ») is that word. The
  -- subject stops at the clause's first « s'entend » (a regular expression whose first quantifier
  -- is greedy is greedy throughout, in Postgres: the lazy {1,150}? alone would run on to the last).
  SELECT corpus_notion(translate(
      regexp_replace(
        regexp_replace(m[1], '\s(visée?s?|exigée?s?|au\s+titre)\M.*$', '', 'i'),
        '^(?:les?\s+)?(?:termes?|mots?|expressions?)\s+(?=["«“])', '', 'i'),
      '"«»“”', '     '))
    -- Only a text saying « s'entend » is matched clause by clause: the pattern tried at every
    -- clause of every text cost 8.5 s over the codes' texts on a server, the test 0.1 s.
    FROM (SELECT body WHERE body ~* '\ms[''’]entend') AS said(body),
         regexp_matches(said.body,
      '(?:^|[.;:]\s+)(?:(?:au\s+sens|pour\s+l[''’]application)\M[^,;.:]{1,120},\s+)?((?:les?\s|la\s|l[''’]|une?\s)(?:(?!\ms[''’]entend)[^,;.:()«»]){1,150}?)(?:,\s+au\s+sens\M[^,;.:]{1,120},)?\s+s[''’]entend(?:ent)?\s+(?:comme|de|d[''’]|du|des)\M',
      'gi') AS m
   WHERE m[1] !~* '^(les?|la|une?)\s(présente?s?|fait|même|dernier|dernière)\M'
     -- A subject pointing back (« La durée maximale hebdomadaire ci-dessus fixée ») names nothing by
     -- itself, as « de cette … » names nothing in migration 024.
     AND m[1] !~* '\m(ci-dessus|ci-après|précitée?s?|susvisée?s?|susmentionnée?s?|cette|ces|cet|ce)\M'
     AND m[1] !~* '\m(peut|peuvent|doit|doivent|ne|n[''’]\w*|qui|que|dont|lequel|laquelle|lesquel(le)?s|desquel(le)?s|auxquel(le)?s|duquel|auquel)\M'
$$;

-- Every notion a text defines, distinct, separated by ' ; ': 013's forms, the opening's (019), the
-- benefit it grants (023) and the notions it says how to understand. It keeps the search_path it
-- is created with (migration 025: a backup restores with an empty one).
CREATE OR REPLACE FUNCTION corpus_defined_notions(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  SET search_path FROM CURRENT AS $$
  SELECT coalesce(string_agg(DISTINCT n, ' ; '), '')
  FROM (SELECT corpus_notion(m[1]) AS n
        FROM regexp_matches($1,
          '(?:^|[.;:]\s+|,\s+)(?:constituen?t?|(?:est|sont)\s+(?:consid[ée]r[ée]e?s?|r[ée]put[ée]e?s?|pr[ée]sum[ée]e?s?|qualifi[ée]e?s?)(?:\s+comme|\s+de|\s+d[''’])?|on\s+entend\s+par)\s+([^,;.:()«»]{1,200})',
          'gi') AS m
        UNION ALL
        SELECT corpus_opening_notion($1)
        UNION ALL
        SELECT corpus_granted_notion($1)
        UNION ALL
        SELECT corpus_understood_notions($1)) AS x
  WHERE n <> ''
$$;

CREATE TEMP TABLE migration_027_changed AS
  SELECT b.id, b.public_id FROM migration_027_before b JOIN provisions p ON p.id = b.id
  WHERE b.notions IS DISTINCT FROM corpus_defined_notions(p.text);
UPDATE provisions SET text = text WHERE id IN (SELECT id FROM migration_027_changed);
INSERT INTO search_outbox (public_id) SELECT public_id FROM migration_027_changed;
DROP TABLE migration_027_changed;
DROP TABLE migration_027_before;

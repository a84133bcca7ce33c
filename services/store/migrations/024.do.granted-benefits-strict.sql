-- The benefit an article grants, read more strictly (issue 17; migration 023 wrote the rule). A
-- review of the 465 provisions 023 named (docs/RELEVANCE.md, row 29) found four faults a lawyer would
-- point out:
--   * a grant inside a relative or conditional clause is not the article's rule: « Le salarié qui
--     bénéficie d'un congé … ne peut être licencié », « Lorsque la victime … bénéficie d'un
--     aménagement de peine, une feuille d'accident … lui est remise », « Les conditions dans
--     lesquelles … bénéficient … sont fixées » name the condition, not the benefit the article
--     grants. The verb no longer counts right after « qui (ne) » or « dont », nor after
--     « lorsque », « quand », « si », « s'il(s) », « tant que », « pendant que », « lequel » and
--     its forms, « dans le cas où » in the same clause (no comma between);
--   * an article opening with « I. - » had « I » as its first sentence: the number is skipped;
--   * the name ran on past its end: « jusqu'à » and « lorsqu' » never cut it (a word boundary after an
--     apostrophe never holds), nor did the beneficiary (« indemnités journalières à l'assuré »), a
--     verb or « ne » (« capital décès sont », « … prend fin »), a participle that qualifies it (« rente
--     calculée », « indemnité due », « convocation comportant »), a relative (« auquel elles »),
--     « de cette … » (a name that points back to the text before it names nothing by itself);
--   * a name the cuts leave ending on « de », « à » or « d'un » now ends before that word.
-- Every provision whose benefit changes is written again, as 023 did.

CREATE TEMP TABLE migration_024_before AS
  SELECT id, public_id, corpus_granted_notion(text) AS notion FROM provisions
  WHERE text ~* '(droit|b[ée]n[ée]fici|re[çc]oi|per[çc]oi|versement)';

CREATE OR REPLACE FUNCTION corpus_granted_notion(body text) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  opening text := substring(regexp_replace(body, '^\s*I\s*\.?\s*[-–—]\s*', '') from '^(?:[^.;:]|\.\s*(?=\d))*');
  m text[];
  n text;
BEGIN
  m := regexp_match(opening,
    '(?<!\m(?:qui|dont)\M\s{1,3}(?:ne\s{1,3})?)(?<!(?:\mlorsque\M|\mlorsqu[''’]|\mquand\M|\msi\M|\ms[''’]ils?\M|\m(?:tant|pendant)\s+qu(?:e\M|[''’])|\m(?:lequel|laquelle|lesquel(?:le)?s|duquel|desquel(?:le)?s)\M|\mcas\s+où\M)[^,;]{0,120})\m(?:a|ont|ouvre(?:nt)?)\s+droit(?:,[^,]{1,80},|\s+(?:chaque\s+ann[ée]e|[eé]galement|aussi))?\s+(?:à|au|aux)\s+(.*)$', 'i');
  IF m IS NULL THEN
    m := regexp_match(opening,
      '(?<!\m(?:qui|dont)\M\s{1,3}(?:ne\s{1,3})?)(?<!(?:\mlorsque\M|\mlorsqu[''’]|\mquand\M|\msi\M|\ms[''’]ils?\M|\m(?:tant|pendant)\s+qu(?:e\M|[''’])|\m(?:lequel|laquelle|lesquel(?:le)?s|duquel|desquel(?:le)?s)\M|\mcas\s+où\M)[^,;]{0,120})\m(?:b[ée]n[ée]ficie(?:nt)?|(?:a|ont)\s+le\s+droit\s+de\s+b[ée]n[ée]ficier|re[çc]oi(?:t|vent)|per[çc]oi(?:t|vent)|assure(?:nt)?\s+le\s+versement)(?:,[^,]{1,80},)?\s+((?:d[''’]|du\s|de\s|des\s|une?\s).*)$', 'i');
  END IF;
  IF m IS NULL THEN RETURN ''; END IF;
  n := regexp_replace(m[1], '^(?:d[''’]|du\s|de\s(?:la\s|l[''’])?|des\s)', '', 'i');
  n := regexp_replace(n, '(?:[,(]|(?:^|\s)(?:lorsqu[''’]|jusqu[''’]|n[''’]|s[''’]ils?\M)|(?:^|\s)(?:à\s+(?:partir|compter|condition|la\s+charge|l[''’]issue)|afin|pour|dans|sous|selon|avant|après|pendant|durant|nonobstant|au\s+titre|au\s+moins|au\s+plus|[ée]gale?s?|équivalente?s?|en\s+cas|lorsque|quand|dès|sauf|dont|qui|que|et\s+(?:doit|doivent|peut|peuvent|est|sont|a|ont)|est|sont|doit|doivent|peut|peuvent|prend|prennent|a|ont|du(?:es?|s)|dûs?|ne|(?:prév|vers|attribu|accord|serv|calcul|détermin|fix|mentionn|assur|réalis|effectu|dispens|institu|octroy|organis)(?:ue?s?|ée?s?|ie?s?)|(?:défini|établi)e?s?|à\s+hauteur|à\s+ce\s+titre|auprès|auquel|auxquel(?:le)?s|lequel|laquelle|lesquel(?:le)?s|où|lui|applicables?|comportant|résultant|reconnaissant|entraînant|faisant|préparant|comprenant|justifiant|exerçant|remplissant|répondant|bénéficiant|percevant|prévoyant|travaillant|résidant|permettant|concernant|correspondant|figurant|ayant|étant|tenant|relevant|portant|visant|de\s+(?:cette|ce|ces|cet)|(?:à|au|aux)\s+(?:l[''’]|la\s+|les\s+)?(?:assurée?s?|salariée?s?|intéressée?s?|bénéficiaires?|victimes?|ayants?\s+droit|employeurs?|travailleurs?|conjoints?))\M).*$', '', 'i');
  n := regexp_replace(corpus_notion(n), '(?:\s(?:vers|contre|ainsi|entre|envers|de|des|du|à|au|aux)|\sd[''’]une?)$', '', 'i');
  IF n !~ '\S+\s+\S+'
     OR n ~* '^(dispositions|stipulations|titre|application|mesures|conditions|modalit[ée]s|droits?|son|sa|ses|leurs?|m[êe]mes?|ensemble|plein)\M' THEN
    RETURN '';
  END IF;
  RETURN n;
END $$;

CREATE TEMP TABLE migration_024_changed AS
  SELECT id, public_id FROM migration_024_before b
  WHERE notion IS DISTINCT FROM corpus_granted_notion((SELECT text FROM provisions p WHERE p.id = b.id));
UPDATE provisions SET text = text WHERE id IN (SELECT id FROM migration_024_changed);
INSERT INTO search_outbox (public_id) SELECT public_id FROM migration_024_changed;
DROP TABLE migration_024_changed;
DROP TABLE migration_024_before;

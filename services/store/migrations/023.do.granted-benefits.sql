-- Benefits, as the article granting them names them (issue 17). Migrations 013 and 019 read the
-- notion an article defines or institutes; the rule of a social benefit or a leave is often written
-- otherwise, as the right to it:
--   « L'assuré a droit à une pension d'invalidité lorsqu'il présente une invalidité… »  (L341-1 CSS)
--   « Tout salarié a droit chaque année à un congé payé à la charge de l'employeur. »   (L3141-1)
--   « … a droit, sauf en cas de faute grave, à une indemnité de licenciement. »          (L1234-9)
--   « Toute personne … bénéficie d'une allocation de solidarité aux personnes âgées… »   (L815-1 CSS)
--   « … l'assurée reçoit une indemnité journalière de repos… »                           (L331-3 CSS)
-- The rule a lawyer states: the article whose first sentence grants the right to a benefit comes
-- first for that benefit. Before, « pension d'invalidité » put L341-1 118th, behind every article
-- of the sections headed « … de la pension d'invalidité ». The benefit joins the guides field as
-- 013's and 019's notions do, on every engine (index-source.ts reads corpus_guides_field).

-- The benefit an article's first sentence grants (« a droit à », « ouvre droit à », « bénéficie
-- de », « a le droit de bénéficier de », « reçoit », « perçoit », « assure le versement de »), or ''. Its name ends where its conditions begin (« lorsque », « à condition de »,
-- « dans les conditions… », a comma); a name of one word (« une indemnité ») names no benefit in
-- particular, and « bénéficie des dispositions… », « a droit au titre de… » name none.
CREATE FUNCTION corpus_granted_notion(body text) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  -- The first sentence: a full stop before a number (« l'article L. 751-1 ») does not end it.
  opening text := substring(body from '^(?:[^.;:]|\.\s*(?=\d))*');
  m text[];
  n text;
BEGIN
  m := regexp_match(opening,
    '\m(?:a|ont|ouvre(?:nt)?)\s+droit(?:,[^,]{1,80},|\s+(?:chaque\s+ann[ée]e|[eé]galement|aussi))?\s+(?:à|au|aux)\s+(.*)$', 'i');
  IF m IS NULL THEN
    m := regexp_match(opening,
      '\m(?:b[ée]n[ée]ficie(?:nt)?|(?:a|ont)\s+le\s+droit\s+de\s+b[ée]n[ée]ficier|re[çc]oi(?:t|vent)|per[çc]oi(?:t|vent)|assure(?:nt)?\s+le\s+versement)(?:,[^,]{1,80},)?\s+((?:d[''’]|du\s|de\s|des\s|une?\s).*)$', 'i');
  END IF;
  IF m IS NULL THEN RETURN ''; END IF;
  n := regexp_replace(m[1], '^(?:d[''’]|du\s|de\s(?:la\s|l[''’])?|des\s)', '', 'i');
  n := regexp_replace(n, '(?:[,(]|\s(?:à\s+(?:partir|compter|condition|la\s+charge|l[''’]issue)|afin|pour|dans|sous|selon|avant|après|pendant|durant|nonobstant|au\s+titre|au\s+moins|[ée]gale?s?|équivalente?s?|en\s+cas|s[''’]ils?|lorsque|lorsqu[''’]|quand|dès|jusqu[''’]|sauf|prévue?s?|mentionnée?s?|fixée?s?|dont|qui|que)\M).*$', '', 'i');
  n := regexp_replace(corpus_notion(n), '\s(?:vers|contre|ainsi|entre|envers)$', '', 'i');
  IF n !~ '\S+\s+\S+'
     OR n ~* '^(dispositions|stipulations|titre|application|mesures|conditions|modalit[ée]s|droits?|son|sa|ses|leurs?|m[êe]mes?|ensemble|plein)\M' THEN
    RETURN '';
  END IF;
  RETURN n;
END $$;

-- Every notion a text defines, distinct, separated by ' ; ': 013's forms, the opening's (019) and
-- the benefit it grants.
CREATE OR REPLACE FUNCTION corpus_defined_notions(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(DISTINCT n, ' ; '), '')
  FROM (SELECT corpus_notion(m[1]) AS n
        FROM regexp_matches($1,
          '(?:^|[.;:]\s+|,\s+)(?:constituen?t?|(?:est|sont)\s+(?:consid[ée]r[ée]e?s?|r[ée]put[ée]e?s?|pr[ée]sum[ée]e?s?|qualifi[ée]e?s?)(?:\s+comme|\s+de|\s+d[''’])?|on\s+entend\s+par)\s+([^,;.:()«»]{1,200})',
          'gi') AS m
        UNION ALL
        SELECT corpus_opening_notion($1)
        UNION ALL
        SELECT corpus_granted_notion($1)) AS x
  WHERE n <> ''
$$;

-- As migration 019: the rows the new function reads otherwise are written again, so their vectors
-- and postings are computed anew, and queued for the index engines.
CREATE TABLE migration_023_changed AS
  SELECT id, public_id FROM provisions WHERE corpus_granted_notion(text) <> '';
UPDATE provisions SET text = text WHERE id IN (SELECT id FROM migration_023_changed);
INSERT INTO search_outbox (public_id) SELECT public_id FROM migration_023_changed;
DROP TABLE migration_023_changed;

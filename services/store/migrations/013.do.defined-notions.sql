-- Defined notions: the rule a lawyer states first, "the article that defines a notion comes first
-- for that notion". An article defining a term says so in a few fixed forms: « Constitue un
-- licenciement pour motif économique le licenciement… », « On entend par télétravail… », « Est
-- considéré comme travailleur de nuit… », « Est réputé travail dissimulé… », « Est présumée
-- d'origine professionnelle… ». The notion those forms name joins the guides in the fourth field
-- of the search vector (weight D): the names under which a provision is known, its guides' titles
-- and what it defines, scored with no length penalty (services/search/ranking.ts). Computed from
-- the text by the database, so every writer and every engine reads the same words; the index
-- engines read it through index-source.ts.

-- The notion a defining clause names: its words up to the first that starts what the notion is
-- defined as (an article or a pronoun: « …économique | le licenciement effectué… »), at most
-- eight, without a leading article or a trailing preposition, and none when the clause names a
-- quality rather than a thing (« Est réputée non écrite… », « Sont considérés comme ayant… »).
CREATE FUNCTION corpus_notion(clause text) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  kept text[] := '{}';
  word text;
  lowered text;
  previous text := '';
BEGIN
  clause := regexp_replace(clause, '\s(au sens|pour l[''’]application|en application|mentionnée?s?|prévue?s?|définie?s?)\M.*$', '', 'i');
  FOREACH word IN ARRAY regexp_split_to_array(btrim(clause), '\s+') LOOP
    lowered := lower(word);
    IF cardinality(kept) = 0 THEN
      CONTINUE WHEN lowered IN ('un', 'une', 'des', 'du', 'le', 'la', 'les', 'comme');
      word := regexp_replace(word, '^[ldLD][''’]', '');
      -- A notion is named by a noun: what starts otherwise is a quality (« ayant… », « non écrite »).
      EXIT WHEN lower(word) IN ('ayant', 'avoir', 'être', 'étant', 'tel', 'telle', 'tels', 'telles', 'chacun',
        'chacune', 'non', 'également', 'ne', 'en', 'à', 'ce', 'cet', 'cette', 'ces', 'leur', 'leurs', 'seul',
        'seule', 'seuls', 'seules', 'nul', 'nulle', 'présenter', 'faites', 'fait', 'applicable', 'applicables');
    ELSE
      EXIT WHEN cardinality(kept) = 8;
      EXIT WHEN lower(previous) NOT IN ('de', 'à', 'du', 'des', 'et', 'ou')
        AND (lowered IN ('le', 'la', 'les', 'tout', 'toute', 'tous', 'toutes', 'celui', 'celle', 'ceux', 'celles', 'un', 'une', 'lorsque', 'lorsqu''', 'si', 'qui', 'que', 'dont', 'quel', 'quelle', 'quels', 'quelles', 'notamment', 'même', 'quand')
             OR lowered ~ '^(l|lorsqu|qu)[''’]');
    END IF;
    kept := kept || word;
    previous := word;
  END LOOP;
  -- Nor ends with a preposition (« périodes de travail effectif pour [la détermination…] »).
  WHILE cardinality(kept) > 0 AND lower(kept[cardinality(kept)]) IN ('pour', 'de', 'à', 'du', 'des', 'et', 'ou', 'en', 'au', 'aux', 'par', 'sur', 'dans', 'avec') LOOP
    kept := kept[1:cardinality(kept) - 1];
  END LOOP;
  RETURN array_to_string(kept, ' ');
END $$;

-- Every notion a text defines, distinct, separated by ' ; '; '' when it defines none.
CREATE FUNCTION corpus_defined_notions(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(DISTINCT n, ' ; '), '')
  FROM (SELECT corpus_notion(m[1]) AS n
        FROM regexp_matches($1,
          '(?:^|[.;:]\s+|,\s+)(?:constituen?t?|(?:est|sont)\s+(?:consid[ée]r[ée]e?s?|r[ée]put[ée]e?s?|pr[ée]sum[ée]e?s?|qualifi[ée]e?s?)(?:\s+comme|\s+de|\s+d[''’])?|on\s+entend\s+par)\s+([^,;.:()«»]{1,200})',
          'gi') AS m) AS x
  WHERE n <> ''
$$;

-- The guides field of search, on every engine: the guides' wording, then the notions defined.
CREATE FUNCTION corpus_guides_field(guides text, body text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT btrim(guides || ' ' || corpus_defined_notions(body)) $$;

-- The vector gains the defined notions in the guides' field; postings, document frequencies and
-- totals are counted again from it, as search_index counts them at ingest.
ALTER TABLE provisions DROP COLUMN search_vector;
ALTER TABLE provisions ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('french_unaccent'::regconfig, number), 'A') ||
  setweight(to_tsvector('french_unaccent'::regconfig, corpus_headings_text(section_path)), 'B') ||
  setweight(to_tsvector('french_unaccent'::regconfig, text), 'C') ||
  setweight(to_tsvector('french_unaccent'::regconfig, corpus_guides_field(guides, text)), 'D')
) STORED;

TRUNCATE search_postings, search_fields, search_lexemes;
UPDATE search_totals SET provisions = 0, text_length = 0, headings_length = 0, guides_length = 0, with_guides = 0;
SELECT search_index(ARRAY(SELECT id FROM provisions WHERE present_in_source));
-- In-memory copies of the model (memory-search.ts) are stale now.
UPDATE search_generation SET value = value + 1;

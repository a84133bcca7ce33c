import { OUT_OF_FORCE_WEIGHT } from "./engine.ts";
import { MINIMUM_SHOULD_MATCH_PERCENT } from "./query-text.ts";
import { AGREEMENT_KIND, NUMBER_BONUS, PAIR_SLOP, RANKING } from "./ranking.ts";

/*
 * The ranking model of postgres-engine.ts as SQL: the statement that ranks a page when the
 * in-memory copy (memory-index.ts, the same model) is not current or not kept (server Postgres),
 * built from the parts below, each the SQL of one piece of the model.
 */

/**
 * Okapi BM25 over fields, the simple BM25F of Robertson and Zaragoza (what Elasticsearch's and
 * OpenSearch's `combined_fields` compute): the headings and the text are read as one field in
 * which a word of the headings counts RANKING.fields.headings times; its frequency there is
 * normalised by that field's length, then saturated once. The guides (document expansion) are a
 * field of their own, with their own length normalisation (RANKING.guidesB), so a provision many
 * guides cite does not look long to the words of its text, nor less about each guide's topic.
 * Each field takes a word's rarity from its own statistics, as the index engines do (migration
 * 017): in the headings and text, the larger of its document frequencies in the two, among all
 * provisions (combined_fields); in the guides, its document frequency there, among the provisions
 * that have guides. Term statistics come from the tables migrations 009 and 017 keep at ingest
 * (search_postings, search_lexemes, search_totals): nothing is counted per query.
 */
const { fields: W, k1, b } = RANKING;
const saturated = (tf: string, length: string, average: string, lengthWeight = b) =>
  `${tf} * ${k1 + 1}::float8 / (${tf} + ${k1}::float8 * (${1 - lengthWeight}::float8 + ${lengthWeight}::float8 * ${length} / ${average}))`;
const combined = (of: string, field: "tf" | "length") =>
  field === "tf"
    ? `(${W.text}::float8 * ${of}tf_text + ${W.headings}::float8 * ${of}tf_headings)`
    : `(${W.text}::float8 * ${of}text_length + ${W.headings}::float8 * ${of}headings_length)`;
const BM25 = (bodyIdf: string, guidesIdf: string) =>
  `(${bodyIdf} * ${saturated(combined("s.", "tf"), combined("s.", "length"), "t.average_length")}
  + ${W.guides}::float8 * ${guidesIdf} * ${saturated("s.tf_guides", "s.guides_length", "t.average_guides", RANKING.guidesB)})`;

/** Okapi BM25's idf of a word `df` of `n` documents hold. */
const IDF = (n: string, df: string) => `ln(1 + (${n} - ${df} + 0.5::float8) / (${df} + 0.5::float8))`;

/**
 * The query's terms (services/search/query-text.ts): $1 every alternative of every term (a word,
 * or a synonym phrase), $2 the term each belongs to, $12 whether its words keep their order. Each
 * alternative is analysed as the corpus is (corpus_tsvector, migration 025): a word gives one lexeme; a phrase or
 * a hyphenated word gives several, which must all be there and, checked on the provision's vector
 * when in order, side by side in that order (withHyphensApart).
 */
const TERMS = `alternatives AS (
    SELECT a.term, a.n, a.alternative, a.in_order, l.lexemes, cardinality(l.lexemes) AS size
    FROM unnest($1::text[], $2::int[], $12::boolean[]) WITH ORDINALITY AS a(alternative, term, in_order, n),
         LATERAL (SELECT tsvector_to_array(corpus_tsvector(a.alternative)) AS lexemes) AS l
    WHERE cardinality(l.lexemes) > 0),
  totals AS (
    SELECT provisions::float8 AS n, with_guides::float8 AS with_guides,
           greatest(${combined("", "length")} / greatest(provisions, 1), 1) AS average_length,
           greatest(text_length::float8 / greatest(provisions, 1), 1) AS average_text,
           greatest(headings_length::float8 / greatest(provisions, 1), 1) AS average_headings,
           greatest(guides_length::float8 / greatest(with_guides, 1), 1) AS average_guides
    FROM search_totals),
  lexemes AS (
    SELECT a.term, a.n, a.size, x.lexeme, l.df,
           ${IDF("t.n", "greatest(l.df_text, l.df_headings)")} AS idf_body,
           ${IDF("t.with_guides", "l.df_guides")} AS idf_guides,
           ${IDF("t.n", "l.df_text")} AS idf_text, ${IDF("t.n", "l.df_headings")} AS idf_headings
    FROM alternatives a CROSS JOIN totals t, unnest(a.lexemes) AS x(lexeme)
         JOIN search_lexemes l ON l.lexeme = x.lexeme AND l.df > 0),
  required AS (
    SELECT count(DISTINCT term) AS terms, CASE WHEN $3::boolean THEN 1
                WHEN count(DISTINCT term) <= 1 OR (count(DISTINCT term) = 2 AND $4::text IS NOT NULL)
                  THEN count(DISTINCT term)
                ELSE floor(count(DISTINCT term) * ${MINIMUM_SHOULD_MATCH_PERCENT} / 100.0) END AS n
    FROM alternatives)`;

/**
 * A lexeme's postings, read from the index, lexeme after lexeme: OFFSET 0 keeps the planner from
 * merging the whole postings index with the query's lexemes (which it did on PGlite, reading two
 * million postings for five words).
 */
const POSTINGS_OF = (lexeme: string) => `SELECT * FROM search_postings WHERE lexeme = ${lexeme} OFFSET 0`;

/**
 * A matching provision's row, by its key: the planner, which expects millions of postings, would
 * otherwise merge the whole provisions index with a few hundred matches (bench:search).
 */
const PROVISION_OF = (id: string) => `SELECT * FROM provisions WHERE id = ${id} OFFSET 0`;

/** A provision's field lengths, by its key (OFFSET 0: as PROVISION_OF, not a merge of the whole table). */
const FIELDS_OF = (id: string) => `SELECT * FROM search_fields WHERE provision_id = ${id} OFFSET 0`;

/**
 * Each provision's score per term: the best of the term's alternatives. A word's postings are
 * scored as they are read. A phrase is scored as its rarest word (frequencies and weight: the
 * phrase is at most as frequent, and at least as rare), on the provisions holding every one of
 * its words and, checked on the provision's vector, the phrase itself (unless its words may stand
 * anywhere: `in_order` false, a hyphenated word's parts, withHyphensApart). A phrase with a word the
 * corpus never holds matches nothing and is not looked for: "L1237-11" is 'l1237' and '-11', and
 * the texts write "L. 1237-11", so without this every provision holding "-11" was checked, for
 * every such number in the query (bench:search's long query of article numbers, 66 ms).
 */
const TERM_SCORES = `word_scores AS (
    SELECT s.provision_id, w.term, ${BM25("w.idf_body", "w.idf_guides")} AS score
    FROM lexemes w CROSS JOIN totals t CROSS JOIN LATERAL (${POSTINGS_OF("w.lexeme")}) AS s
    WHERE w.size = 1),
  phrase_scores AS (
    SELECT s.provision_id, a.term, ${BM25("r.idf_body", "r.idf_guides")} AS score
    FROM alternatives a CROSS JOIN totals t
         CROSS JOIN LATERAL (SELECT w.lexeme, w.idf_body, w.idf_guides FROM lexemes w
                             WHERE w.term = a.term AND w.n = a.n ORDER BY w.df, w.lexeme COLLATE "C" LIMIT 1) AS r
         CROSS JOIN LATERAL (${POSTINGS_OF("r.lexeme")}) AS s
         JOIN provisions p ON p.id = s.provision_id
    WHERE a.size > 1
      AND a.size = (SELECT count(*) FROM lexemes w WHERE w.term = a.term AND w.n = a.n)
      AND NOT EXISTS (SELECT 1 FROM unnest(a.lexemes) AS x(lexeme)
                      WHERE NOT EXISTS (SELECT 1 FROM search_postings o
                                        WHERE o.lexeme = x.lexeme AND o.provision_id = s.provision_id))
      AND (NOT a.in_order OR p.search_vector @@ phraseto_tsquery('french_unaccent', corpus_search_text(a.alternative)))),
  term_scores AS (
    SELECT provision_id, term, max(score) AS score
    FROM (SELECT * FROM word_scores UNION ALL SELECT * FROM phrase_scores) AS x
    GROUP BY provision_id, term),
  matches AS (
    SELECT m.provision_id, m.score, m.terms = r.terms AS every_term FROM (
      SELECT provision_id, sum(score) AS score, count(*) AS terms FROM term_scores GROUP BY provision_id
    ) AS m, required r
    WHERE m.terms >= r.n
    UNION ALL
    -- The provision whose number the query names ($4, services/search/citations.ts): what the
    -- query asks for, so it counts as holding every term.
    SELECT p.id, 0, true FROM provisions p WHERE p.number_key = $4)`;

/**
 * Proximity, the second pass: each pair of consecutive query words (as typed) found close together
 * in a provision's headings or text adds its score, as the index engines score the phrase "x y"
 * with slop 3 over those two fields (dsl.ts; memory-index.ts's pairScore, operation for
 * operation). In each field, the two words' idf in that field times the pair's sloppy frequency
 * (PAIR_FREQUENCIES) saturated as BM25 saturates a word's (with k1 + 1, which Lucene's leaves
 * out: the scale of this model) and normalised by the field's length; the better field counts.
 * Checked on the best RANKING.rescoreWindow provisions of the first pass, whatever the page, as
 * the index engines rescore (those after them keep their first-pass score, which a second pass
 * only raises, so they follow); `query` (the six word orders a slop of 3 allows) skips the
 * provisions where the pair cannot be.
 */
const PAIRS = `first_words AS (
    SELECT w.term, w.lexeme, w.idf_text, w.idf_headings, (quote_literal(w.lexeme) || ':BC')::tsquery AS query
    FROM lexemes w
    WHERE w.size = 1 AND w.n = (SELECT min(a.n) FROM alternatives a WHERE a.term = w.term)),
  pairs AS (
    SELECT x.lexeme AS x, y.lexeme AS y, x.idf_text + y.idf_text AS idf_text,
           x.idf_headings + y.idf_headings AS idf_headings,
           tsquery_phrase(x.query, y.query, 1) || tsquery_phrase(x.query, y.query, 2)
             || tsquery_phrase(x.query, y.query, 3) || tsquery_phrase(x.query, y.query, 4)
             || tsquery_phrase(y.query, x.query, 1) || tsquery_phrase(y.query, x.query, 2) AS query
    FROM first_words x JOIN first_words y ON y.term = x.term + 1)`;

/**
 * Pair x's sloppy frequency in provision p's text (C) and headings (B), as a Lucene phrase "x y"
 * with slop 3 counts it (positions.ts's sloppyFrequency): y's positions read one less, both
 * words' occurrences in that order (x first at a tie), and each time one word follows the other
 * within PAIR_SLOP positions, 1 / (1 + that distance). One lexeme twice: each occurrence and the
 * next, one position after counting as adjacent (the gap less one).
 */
const PAIR_FREQUENCIES = `SELECT o.weight, sum(CASE WHEN (o.word <> o.previous_word OR x.x = x.y) AND o.gap <= ${PAIR_SLOP}
                                 THEN 1::float8 / (1 + o.gap) ELSE 0 END) AS frequency
    FROM (SELECT e.weight, e.word, lag(e.word) OVER w AS previous_word,
                 e.at - lag(e.at) OVER w - (x.x = x.y)::int AS gap
          FROM (SELECT q.weight, (v.lexeme = x.y)::int AS word, q.position - (v.lexeme = x.y)::int AS at
                FROM unnest(p.search_vector) AS v, unnest(v.positions, v.weights) AS q(position, weight)
                WHERE v.lexeme IN (x.x, x.y) AND q.weight IN ('B', 'C')) AS e
          WINDOW w AS (PARTITION BY e.weight ORDER BY e.at, e.word)) AS o
    GROUP BY o.weight`;

/** Pair x's score in provision p (lengths f, totals t): each field's idf times the saturated frequency, the better. */
const PAIR_SCORE = `SELECT max(CASE u.weight
      WHEN 'C' THEN x.idf_text * ${saturated("u.frequency", "f.text_length", "t.average_text")}
      ELSE x.idf_headings * ${saturated("u.frequency", "f.headings_length", "t.average_headings")} END) AS score
    FROM (${PAIR_FREQUENCIES}) AS u WHERE u.frequency > 0`;

/** Parameters $5–$9: domains, document, in force only, as of, unclassified documents. */
const IN_FORCE = `((p.in_force_from IS NULL OR p.in_force_from <= $8::date)
    AND (p.in_force_to > $8::date OR (p.in_force_to IS NULL AND p.status <> 'repealed')))`;

const FILTERS = `p.present_in_source
  AND ($5::text[] IS NULL OR p.domains && $5::text[]
    OR (cardinality(p.domains) = 0 AND d.public_id = ANY($9::text[])))
  AND ($6::text IS NULL OR d.public_id = $6)
  AND (NOT $7::boolean OR ${IN_FORCE})`;

/**
 * Asked for every provision (`in_force=false`), those in force on the day rank first among equals:
 * a repealed or future text weighs OUT_OF_FORCE_WEIGHT of its score (engine.ts).
 */
const IN_FORCE_PREFERENCE = `CASE WHEN ${IN_FORCE} THEN 1 ELSE ${OUT_OF_FORCE_WEIGHT} END`;

/**
 * The reach of the provision's document (RANKING.agreement): an agreement's provision weighs less
 * unless the search is within one document ($6). Multiplies the score as IN_FORCE_PREFERENCE does.
 */
const REACH_PREFERENCE = `CASE WHEN $6::text IS NULL AND d.kind = '${AGREEMENT_KIND}' THEN ${RANKING.agreement}::float8 ELSE 1 END`;

/**
 * Priors (RANKING.authority, RANKING.legislative, RANKING.opening; migrations 011 and 020 for the
 * citation counts and the provisions opening their division).
 */
const PRIOR = `(1 + ${RANKING.authority}::float8 * ln(1 + coalesce(a.cited_by, 0))
    + CASE WHEN p.number_key LIKE 'L%' THEN ${RANKING.legislative}::float8 ELSE 0 END
    + CASE WHEN coalesce(a.opens_section, false) THEN ${RANKING.opening}::float8 ELSE 0 END)`;

/**
 * A matching provision's first-pass score (`m.words` its words, `p` its row, `d` its document):
 * what chooses the RANKING.rescoreWindow provisions the second pass re-scores, and what orders
 * those after them, whatever page is asked (ranking.ts, rescoreWindow).
 */
const FIRST_PASS = `(m.words * ${IN_FORCE_PREFERENCE} * ${REACH_PREFERENCE} + CASE WHEN p.number_key = $4 THEN ${NUMBER_BONUS} ELSE 0 END)`;

/** A hit's columns, from its provision `p`, document `d` and `page` (its score). */
const PAGE_COLUMNS = `p.public_id, p.number, d.public_id AS document_public_id, d.title AS document_title, p.section_path,
       p.text, p.status, p.effective_from, p.effective_to, p.in_force_from, p.in_force_to, p.domains, page.score`;

/**
 * The page the in-memory model chose ($1 ids, $2 scores, best first), each row with the store's
 * search generation: the copy that chose it must still be current.
 */
export const PAGE_OF_IDS = `SELECT ${PAGE_COLUMNS}, (SELECT value::text FROM search_generation) AS generation
  FROM unnest($1::int[], $2::float8[]) WITH ORDINALITY AS page(id, score, n)
       JOIN provisions p ON p.id = page.id JOIN documents d ON d.id = p.document_id
  ORDER BY page.n`;

export const GENERATION = "SELECT value::text AS generation FROM search_generation";

/**
 * The page of a query, ranked: its parameters are $1 every alternative of every term, $2 the term
 * each belongs to, $3 whether any term suffices (match=any), $4 the article number the query names,
 * $5–$9 the filters (domains, document, in force only, as of, unclassified documents), $10 and $11
 * the page's limit and offset, $12 whether each alternative's words keep their order. First pass:
 * every provision matching enough terms, by its words (TERM_SCORES) and preferences; second pass,
 * on the first RANKING.rescoreWindow of them: proximity pairs and priors. Each row carries the
 * total matched and whether one of them holds every term.
 */
export const RANKED_PAGE = `WITH ${TERMS}, ${TERM_SCORES},
 ranked AS (
   -- Numbered after the LIMIT, so that only the rows kept are sorted for the window.
   SELECT c.*, row_number() OVER (ORDER BY c.first_pass DESC, c.public_id COLLATE "C") AS n FROM (
     SELECT p.id, p.public_id, m.words, ${IN_FORCE_PREFERENCE} * ${REACH_PREFERENCE} AS preference,
            CASE WHEN p.number_key = $4 THEN ${NUMBER_BONUS} ELSE 0 END AS bonus,
            count(*) OVER () AS total, bool_or(m.every_term) OVER () AS every_term,
            ${FIRST_PASS} AS first_pass
     FROM (SELECT provision_id, max(score) AS words, bool_or(every_term) AS every_term
           FROM matches GROUP BY provision_id) AS m
          CROSS JOIN LATERAL (${PROVISION_OF("m.provision_id")}) AS p JOIN documents d ON d.id = p.document_id
     WHERE ${FILTERS}
     ORDER BY ${FIRST_PASS} DESC, p.public_id COLLATE "C"
     LIMIT greatest(${RANKING.rescoreWindow}, $10::int + $11::int)) AS c
 ),
 ${PAIRS},
 page AS (
   SELECT r.id, r.total, r.every_term,
          (CASE WHEN r.n > ${RANKING.rescoreWindow} THEN r.words * r.preference + r.bonus
           ELSE (r.words + ${RANKING.proximity}::float8 * coalesce((
             SELECT sum(s.score) FROM pairs x CROSS JOIN LATERAL (${PAIR_SCORE}) AS s
             WHERE p.search_vector @@ x.query), 0))
           * ${PRIOR} * r.preference + r.bonus END)::float8 AS score
   FROM ranked r CROSS JOIN LATERAL (${PROVISION_OF("r.id")}) AS p CROSS JOIN totals t
        CROSS JOIN LATERAL (${FIELDS_OF("r.id")}) AS f LEFT JOIN search_authority a ON a.provision_id = r.id
   ORDER BY score DESC, p.public_id COLLATE "C"
   LIMIT $10::int OFFSET $11::int
 )
 SELECT ${PAGE_COLUMNS}, page.total, page.every_term
 FROM page JOIN provisions p ON p.id = page.id JOIN documents d ON d.id = p.document_id
 ORDER BY page.score DESC, p.public_id COLLATE "C"`;

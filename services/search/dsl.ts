import { articleNumberKey } from "./citations.ts";
import { OUT_OF_FORCE_WEIGHT, type SearchHit, type SearchQuery, type SearchResult } from "./engine.ts";
import type { ProvisionIndexDocument } from "./index-document.ts";
import { minimumShouldMatch, queryTerms } from "./query-text.ts";
import { AGREEMENT_KIND, NUMBER_BONUS, PAIR_SLOP, RANKING } from "./ranking.ts";
import { buildSnippet } from "./snippets.ts";
import type { Synonyms } from "./synonyms.ts";
import { ELIDED } from "./words.ts";

/**
 * The request bodies Elasticsearch and OpenSearch share: index settings and mapping, the search
 * query, and reading hits back. Both engines' glue only sends these; nothing here knows which
 * client is used, so results are the same whatever the engine.
 */

export interface IndexLayout {
  shards: number;
  replicas: number;
}

/** French legal text: elided articles removed (l', d', qu'…), accents folded, Snowball stemming. */
export function indexBody(layout: IndexLayout) {
  return {
    settings: {
      number_of_shards: layout.shards,
      number_of_replicas: layout.replicas,
      // The guides field's own length normalisation (services/search/ranking.ts, guidesB).
      similarity: { guides_bm25: { type: "BM25", k1: RANKING.k1, b: RANKING.guidesB } },
      analysis: {
        filter: {
          french_elision: {
            type: "elision",
            articles_case: true,
            articles: ELIDED,
          },
          french_stop: { type: "stop", stopwords: "_french_" },
          // Snowball's French stemmer after accents are folded: what Postgres's french_unaccent does,
          // so both engines match the same words.
          french_stemmer: { type: "stemmer", language: "french" },
        },
        // Characters read as the store reads them (corpus_search_text, migration 025; words.ts's
        // asSearched): typographic spaces and the zero-width space as plain spaces (the standard
        // tokenizer joins the words on either side of U+202F), the joining and layout characters
        // dropped, the micro sign as the Greek letter, « º » as « ° », and the combining accents
        // French writes (grave, acute, circumflex, tilde, diaeresis, cedilla) dropped: accents are
        // folded next, and a decomposed « é » would otherwise stay « é » through asciifolding.
        char_filter: {
          corpus_characters: {
            type: "mapping",
            mappings: [
              "\\u00b5=>\\u03bc",
              "\\u00ba=>\\u00b0",
              ..."200b 2000 2001 2002 2003 2004 2005 2006 2007 2008 2009 200a 202f 205f 3000"
                .split(" ")
                .map((code) => `\\u${code}=>\\u0020`),
              ..."00ad 200c 200d 2060 feff 0300 0301 0302 0303 0308 0327"
                .split(" ")
                .map((code) => `\\u${code}=>`),
            ],
          },
        },
        analyzer: {
          french_legal: {
            tokenizer: "standard",
            char_filter: ["corpus_characters"],
            filter: ["french_elision", "lowercase", "french_stop", "asciifolding", "french_stemmer"],
          },
        },
        normalizer: { number_normalizer: { type: "custom", filter: ["uppercase"] } },
      },
    },
    mappings: {
      dynamic: "strict",
      properties: {
        public_id: { type: "keyword" },
        source_id: { type: "keyword" },
        version_id: { type: "keyword" },
        document_id: { type: "keyword" },
        document_title: { type: "text", analyzer: "french_legal", fields: { raw: { type: "keyword" } } },
        document_kind: { type: "keyword" },
        number: { type: "keyword" },
        number_key: { type: "keyword", normalizer: "number_normalizer" },
        section_path: { type: "text", analyzer: "french_legal" },
        // The names of the divisions a provision opens (migration 029), read a second time by the
        // headings field: copied into section_path's terms, not its stored value.
        opened_divisions: { type: "text", index: false, copy_to: "section_path" },
        text: { type: "text", analyzer: "french_legal" },
        guides: { type: "text", analyzer: "french_legal", similarity: "guides_bm25" },
        status: { type: "keyword" },
        effective_from: { type: "date", format: "yyyy-MM-dd" },
        effective_to: { type: "date", format: "yyyy-MM-dd" },
        in_force_from: { type: "date", format: "yyyy-MM-dd" },
        in_force_to: { type: "date", format: "yyyy-MM-dd" },
        domains: { type: "keyword" },
        document_domains: { type: "keyword" },
        present_in_source: { type: "boolean" },
        content_hash: { type: "keyword", index: false },
        cited_by: { type: "integer" },
        opens_section: { type: "boolean" },
      },
    },
  };
}

function filters(query: SearchQuery): object[] {
  const filter: object[] = [{ term: { present_in_source: true } }];
  if (query.domains) {
    const candidates = query.unclassifiedDocuments ?? [];
    filter.push(
      candidates.length === 0
        ? { terms: { domains: query.domains } }
        : {
            bool: {
              should: [
                { terms: { domains: query.domains } },
                {
                  bool: {
                    must_not: { exists: { field: "domains" } },
                    filter: { terms: { document_id: candidates } },
                  },
                },
              ],
              minimum_should_match: 1,
            },
          },
    );
  }
  if (query.document) filter.push({ term: { document_id: query.document } });
  if (query.inForce) filter.push(...inForceOn(query.asOf));
  return filter;
}

/**
 * In force on a day, in whichever version (migration 022): started, and not ended; a provision
 * the source says is repealed, with no end date, never is.
 */
function inForceOn(asOf: string): object[] {
  return [
    {
      bool: {
        should: [
          { bool: { must_not: { exists: { field: "in_force_from" } } } },
          { range: { in_force_from: { lte: asOf } } },
        ],
      },
    },
    {
      bool: {
        should: [
          { range: { in_force_to: { gt: asOf } } },
          { bool: { must_not: [{ exists: { field: "in_force_to" } }, { term: { status: "repealed" } }] } },
        ],
      },
    },
  ];
}

/**
 * What multiplies a provision's score, as on Postgres: asked for every provision, one not in force
 * on the day weighs OUT_OF_FORCE_WEIGHT of it; unless the search is within one document, an
 * agreement's provision weighs RANKING.agreement of it.
 */
function preferred(query: SearchQuery, scored: object): object {
  const functions: object[] = [];
  if (!query.inForce)
    functions.push({
      filter: { bool: { must_not: { bool: { filter: inForceOn(query.asOf) } } } },
      weight: OUT_OF_FORCE_WEIGHT,
    });
  // The reach of the document (RANKING.agreement), unless the search is within one document.
  if (query.document === null && RANKING.agreement !== 1)
    functions.push({ filter: { term: { document_kind: AGREEMENT_KIND } }, weight: RANKING.agreement });
  if (functions.length === 0) return scored;
  return { function_score: { query: scored, functions, score_mode: "multiply", boost_mode: "multiply" } };
}

/** The fields words are looked for in, weighted as the ranking model says (services/search/ranking.ts). */
const WORD_FIELDS = [`text^${RANKING.fields.text}`, `section_path^${RANKING.fields.headings}`];

/** A word: headings and text as one field (BM25F, as Postgres ranks), plus the guides field. */
const wordClauses = (word: string): object[] => [
  { combined_fields: { query: word, fields: WORD_FIELDS, operator: "and" } },
  { match: { guides: { query: word, operator: "and", boost: RANKING.fields.guides } } },
];

/**
 * One term of the query: the word, or any of its synonyms (phrases kept whole, scored as their
 * best word, as on Postgres). A word the analyser drops entirely (a stop word) matches everything
 * rather than nothing, so it never blocks a match; it counts towards the minimum-should-match
 * (a safeguard: words.ts's stop list holds the words both engines drop, and query-text.ts removes
 * the elisions this analyser strips, « jusqu' » among them, and hyphenated words made of stop
 * words only, « lui-même »; a word of another script the tokenizer drops would still be one).
 */
function termClause(alternatives: string[]): object {
  const clauses = alternatives.map((alternative) =>
    alternative.includes(" ")
      ? {
          bool: {
            filter: {
              multi_match: { query: alternative, fields: ["text", "section_path", "guides"], type: "phrase" },
            },
            must: {
              dis_max: {
                queries: alternative.split(/\s+/).map((word) => ({ bool: { should: wordClauses(word) } })),
              },
            },
          },
        }
      : {
          bool: {
            should: [
              ...wordClauses(alternative),
              // combined_fields has no zero_terms_query: this clause adds nothing to the score and
              // matches everything only when the analyser drops the word.
              { match: { text: { query: alternative, operator: "and", zero_terms_query: "all", boost: 0 } } },
            ],
          },
        },
  );
  return clauses.length === 1 ? clauses[0]! : { dis_max: { queries: clauses } };
}

/**
 * The second pass, on the best RANKING.rescoreWindow provisions whatever the page (the engine
 * then sorts the provisions beyond the window by their first-pass score, which re-scoring only
 * raises, so they follow the window), as Postgres rescores: proximity, each pair of consecutive query words found close together
 * (slop 3, in the headings or the text) adding its phrase score, as Solr's "pf2" does; then the
 * priors (citation authority, law before decree, the article opening its division) multiplying
 * the score.
 */
function rescorers(query: SearchQuery, words: string[]): object[] {
  const window = RANKING.rescoreWindow;
  const priors = {
    window_size: window,
    query: {
      score_mode: "multiply",
      rescore_query: {
        function_score: {
          query: { match_all: {} },
          functions: [
            { weight: 1 },
            {
              field_value_factor: { field: "cited_by", modifier: "ln1p", missing: 0 },
              weight: RANKING.authority,
            },
            { filter: { prefix: { number_key: "L" } }, weight: RANKING.legislative },
            { filter: { term: { opens_section: true } }, weight: RANKING.opening },
          ],
          score_mode: "sum",
          boost_mode: "replace",
        },
      },
    },
  };
  if (words.length < 2) return [priors];
  const pairs = words.slice(1).map((word, i) => ({
    multi_match: {
      query: `${words[i]} ${word}`,
      fields: ["text", "section_path"],
      type: "phrase",
      slop: PAIR_SLOP,
      zero_terms_query: "none",
    },
  }));
  return [
    {
      window_size: window,
      query: {
        query_weight: 1,
        rescore_query_weight: RANKING.proximity,
        score_mode: "total",
        rescore_query: preferred(query, { bool: { should: pairs } }),
      },
    },
    priors,
  ];
}

/** The aggregation counting the matches that hold every term (readHits' holdsEveryTerm). */
const EVERY_TERM = "every_term";

/**
 * Free text: the query's terms (services/search/query-text.ts, synonyms expanded), one of one or
 * two required, half of more; an article number typed as such ranks its provision first.
 */
export function searchBody(query: SearchQuery, synonyms: Synonyms) {
  const terms = queryTerms(query.q, synonyms);
  const number = articleNumberKey(query.q);
  // Each term's first alternative is the word as typed.
  const rescore = rescorers(
    query,
    terms.map(([word]) => word!),
  );
  return {
    from: query.offset,
    size: query.limit,
    track_total_hits: true,
    // The text comes back for the snippet (snippets.ts, as on Postgres), the guides do not.
    _source: { excludes: ["guides", "opened_divisions", "content_hash"] },
    query: preferred(query, {
      bool: {
        should: [
          ...(number
            ? [{ constant_score: { filter: { term: { number_key: number } }, boost: NUMBER_BONUS } }]
            : []),
          // No meaningful word ("de la"): nothing matches by words, as on Postgres.
          terms.length === 0
            ? { match_none: {} }
            : {
                bool: {
                  should: terms.map(termClause),
                  minimum_should_match:
                    query.match === "any" ? 1 : minimumShouldMatch(terms.length, number !== null),
                },
              },
        ],
        minimum_should_match: 1,
        filter: filters(query),
      },
    }),
    // Rescored, so sorted by score alone (the engines refuse another sort with rescore).
    rescore,
    // Of two terms one may suffice to match (minimumShouldMatch): whether any match holds both, the
    // provision the query names by number counting as holding them.
    ...(terms.length === 2 && query.match !== "any"
      ? {
          aggs: {
            [EVERY_TERM]: {
              filter: {
                bool: {
                  should: [
                    { bool: { filter: terms.map(termClause) } },
                    ...(number ? [{ term: { number_key: number } }] : []),
                  ],
                  minimum_should_match: 1,
                },
              },
            },
          },
        }
      : {}),
  };
}

export interface RawHit {
  _score: number | null;
  _source: Omit<ProvisionIndexDocument, "guides" | "opened_divisions" | "content_hash">;
}

/**
 * The engines' answer as search results; `terms` are the query's (queryTerms), for snippets;
 * `aggregations` the answer's, when searchBody asked whether a match holds every term.
 */
export function readHits(
  hits: RawHit[],
  total: number | { value: number },
  terms: string[][],
  aggregations?: Record<string, unknown>,
): Omit<SearchResult, "filterMode"> {
  const everyTerm = aggregations?.[EVERY_TERM] as { doc_count: number } | undefined;
  return {
    total: typeof total === "number" ? total : total.value,
    ...(everyTerm ? { holdsEveryTerm: everyTerm.doc_count > 0 } : {}),
    hits: hits.map(
      (hit): SearchHit => ({
        publicId: hit._source.public_id,
        number: hit._source.number,
        document: { publicId: hit._source.document_id, title: hit._source.document_title },
        sectionPath: hit._source.section_path,
        snippet: buildSnippet(hit._source.text, hit._source.section_path, terms),
        status: hit._source.status,
        effectiveFrom: hit._source.effective_from,
        effectiveTo: hit._source.effective_to,
        inForceFrom: hit._source.in_force_from,
        inForceTo: hit._source.in_force_to,
        domains: hit._source.domains,
        score: Math.round((hit._score ?? 0) * 10000) / 10000,
      }),
    ),
  };
}

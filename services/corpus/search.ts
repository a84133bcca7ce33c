import type { Principal } from "../access/keys.ts";
import type { Config } from "../core/config.ts";
import { agreementReader, codeReader, type DocumentMention } from "../search/citations.ts";
import type { SearchEngine } from "../search/engine.ts";
import { queryTerms, searchedWords } from "../search/query-text.ts";
import { type SearchOutcome, type SearchRequest, searchProvisions } from "../search/service.ts";
import { type Correction, correctSpelling, rewrite } from "../search/spelling.ts";
import type { Synonyms } from "../search/synonyms.ts";
import type { TitleClassifier } from "../search/title-classifier.ts";
import { documentPublicId, listDocumentTitles, wordFrequencies } from "../store/corpus-queries.ts";
import type { Database } from "../store/database.ts";
import { unknownDocument } from "./documents.ts";
import { searchVocabulary } from "./vocabulary.ts";

/** Search as the API offers it: pages within these bounds, a document named by public or source id. */

export const MAX_SEARCH_LIMIT = 50;
export const MAX_SEARCH_OFFSET = 1000;

/** A search restricted to the collective agreement or the code its query named. */
export interface NamedDocument {
  id: string;
  /** The words of the query that named it. */
  namedAs: string;
  /** The rest of the query: what was searched within it. */
  searched: string;
}

/** The query as searched, when words of it were read otherwise (services/search/spelling.ts). */
export interface Spelling {
  /** What was searched: the query (or, within a named agreement or code, the rest of it) with the corrections made. */
  readAs: string;
  corrections: Correction[];
}

/** What searchCorpus found, and how it read the query. */
export type CorpusSearchOutcome = SearchOutcome & {
  namedDocument?: NamedDocument;
  spelling?: Spelling;
  /**
   * No provision holds every word of a query of two (which finds the provisions holding either,
   * query-text.ts's minimumShouldMatch), or enough of a longer one (half; those shown come from a
   * second search, any word): the provisions shown hold some of the words, best first.
   */
  partial?: true;
};

type SearchContext = SpellingContext & { search: SearchEngine; titles: TitleClassifier };

/**
 * Search as the API and MCP offer it. A request that does not say how many words must match
 * (`match`) gets, when no provision holds enough of its words, the provisions holding some of them
 * rather than nothing, flagged `partial`: « télétravail covid » finds the articles on telework,
 * though none says « covid ». A request naming `match` (the answer endpoint's retrieval) gets
 * exactly what it asked.
 */
export async function searchCorpus(
  ctx: SearchContext,
  who: Principal,
  request: SearchRequest,
): Promise<CorpusSearchOutcome> {
  // An unknown document is a mistake to report, not a filter that finds nothing (as on changes).
  const document = request.document ? await documentPublicId(ctx.db, request.document) : undefined;
  if (request.document && !document) throw unknownDocument(request.document);
  // The file's synonyms and the abbreviations the loaded guides define, for spelling and search.
  const synonyms = await searchVocabulary(ctx.db, ctx.synonyms);
  const searching = { ...ctx, synonyms };
  if (!document) {
    const named = await documentNamedBy(ctx.db, request.q, synonyms);
    if (named) {
      const { q, spelling } = await spelled(searching, named.rest);
      const outcome = await searchOrRelax(ctx, who, { ...request, q, document: named.publicId, synonyms });
      return {
        ...outcome,
        namedDocument: { id: named.publicId, namedAs: named.text, searched: q },
        ...(spelling ? { spelling } : {}),
      };
    }
  }
  const { q, spelling } = await spelled(searching, request.q);
  const outcome = await searchOrRelax(ctx, who, { ...request, q, document, synonyms });
  return spelling ? { ...outcome, spelling } : outcome;
}

async function searchOrRelax(
  ctx: SearchContext,
  who: Principal,
  request: SearchRequest,
): Promise<SearchOutcome & { partial?: true }> {
  const outcome = await searchProvisions(ctx.search, who, request, ctx.titles);
  // A request naming `match` gets what it asked.
  if (request.match !== undefined) return outcome;
  if (outcome.total > 0) {
    // Two words: one suffices to match (query-text.ts's minimumShouldMatch); partial when none holds both.
    const two = queryTerms(request.q, request.synonyms ?? ctx.synonyms).length === 2;
    return two && outcome.holdsEveryTerm === false ? { ...outcome, partial: true } : outcome;
  }
  // One word: "any" would find the same nothing.
  if (searchedWords(request.q, request.synonyms).length < 2) return outcome;
  const relaxed = await searchProvisions(ctx.search, who, { ...request, match: "any" }, ctx.titles);
  return relaxed.total > 0 ? { ...relaxed, partial: true } : outcome;
}

/**
 * Each word's reading (services/search/spelling.ts) is remembered for a minute per store, as the
 * agreements' names are: a word searched again costs no statement, and a word a new act brings is
 * no longer read otherwise within a minute of its ingest.
 */
const spellingReadings = new WeakMap<Database, { until: number; readings: Map<string, string | null> }>();

interface SpellingContext {
  db: Database;
  synonyms: Synonyms;
  config: Pick<Config, "SEARCH_SPELLING">;
}

async function spelled(
  { db, synonyms, config }: SpellingContext,
  q: string,
): Promise<{ q: string; spelling?: Spelling }> {
  if (config.SEARCH_SPELLING === "off") return { q };
  let cached = spellingReadings.get(db);
  if (!cached || cached.until <= Date.now()) {
    cached = { until: Date.now() + 60_000, readings: new Map() };
    spellingReadings.set(db, cached);
  }
  const corrections = await correctSpelling(
    q,
    async (words) => (await wordFrequencies(db, words)).frequencies,
    { synonyms, readings: cached.readings },
  );
  if (corrections.length === 0) return { q };
  const readAs = rewrite(q, corrections);
  return { q: readAs, spelling: { readAs, corrections } };
}

/**
 * The names of the agreements and codes loaded, compiled into a reader, at most once a minute per
 * store: a search costs no extra statement, and a document just loaded is named in queries within
 * a minute.
 */
type Reader = (text: string) => DocumentMention | null;
const documentReaders = new WeakMap<Database, { until: number; reader: Promise<Reader> }>();

function loadedDocuments(db: Database): Promise<Reader> {
  const cached = documentReaders.get(db);
  if (cached && cached.until > Date.now()) return cached.reader;
  const reader = listDocumentTitles(db).then((all): Reader => {
    const agreement = agreementReader(all);
    const code = codeReader(all);
    // An agreement named anywhere wins: it is the narrower document (« syntec code du travail
    // période d'essai » asks what Syntec says, wherever the code's name stands).
    return (text) => agreement(text) ?? code(text);
  });
  documentReaders.set(db, { until: Date.now() + 60_000, reader });
  // A failed read is not kept: the next search asks again.
  reader.catch(() => documentReaders.delete(db));
  return reader;
}

/**
 * « période d'essai syntec », « IDCC 1486 période d'essai », « article 7.2 convention collective
 * 2216 », « travail de nuit code du travail »: a query that names one collective agreement or one
 * code (services/search/citations.ts) and asks something of it is searched within it, without the
 * words that named it (an agreement's text never says « Syntec » or « IDCC »; « code » and
 * « travail » would find the other codes' references to the Code du travail). A query whose
 * other words are no word search reads (« le code du travail », « la convention collective
 * Syntec »; a number is one) is left as typed.
 */
async function documentNamedBy(db: Database, q: string, synonyms: Synonyms) {
  const named = (await loadedDocuments(db))(q);
  if (!named) return undefined;
  const rest = `${q.slice(0, named.start)} ${q.slice(named.end)}`.replace(/\s+/g, " ").trim();
  if (searchedWords(rest, synonyms).length === 0) return undefined;
  return { publicId: named.publicId, text: named.text, rest };
}

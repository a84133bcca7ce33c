import snowball from "snowball-stemmers";
import { foldAccents } from "../core/public-ids.ts";

/** How search compares words: the stop words the engines drop, and each word's comparison key. */

/**
 * The French stop words both engines drop: the Snowball list, which is Postgres's `french`
 * dictionary (tsearch_data/french.stop) and Lucene's `_french_` stop set, plus "les" and "ils",
 * which Lucene drops and Postgres's list lacks (it indexes them as "le" and "il", in nearly every
 * provision). Terms are counted for the minimum-should-match without them, as each engine counts
 * after analysis.
 */
const STOP_WORDS = new Set(
  (
    "au aux avec ce ces dans de des du elle en et eux il ils je la le les leur lui ma mais me même mes " +
    "moi mon ne nos notre nous on ou par pas pour qu que qui sa se ses son sur ta te tes toi ton " +
    "tu un une vos votre vous c d j l à m n s t y été étée étées étés étant étante étants étantes " +
    "suis es est sommes êtes sont serai seras sera serons serez seront serais serait serions " +
    "seriez seraient étais était étions étiez étaient fus fut fûmes fûtes furent sois soit soyons " +
    "soyez soient fusse fusses fût fussions fussiez fussent ayant ayante ayantes ayants eu eue " +
    "eues eus ai as avons avez ont aurai auras aura aurons aurez auront aurais aurait aurions " +
    "auriez auraient avais avait avions aviez avaient eut eûmes eûtes eurent aie aies ait ayons " +
    "ayez aient eusse eusses eût eussions eussiez eussent"
  )
    .split(" ")
    .map((w) => foldAccents(w)),
);

/**
 * The elided words Lucene's elision filter strips on the index engines (dsl.ts), and the query
 * reader on every engine (query-text.ts): « l'employeur », « jusqu'à », « lorsqu'il ».
 */
export const ELIDED = ["l", "m", "t", "qu", "n", "s", "j", "d", "c", "jusqu", "quoiqu", "lorsqu", "puisqu"];

/** A stop word (lower case, accents folded): never a term, never marked in a snippet. */
export const isStopWord = (folded: string) => STOP_WORDS.has(folded);

/**
 * A text as search reads it on every engine (the store's corpus_search_text, migration 025; the
 * index engines' corpus_characters filter, dsl.ts): typographic spaces and the zero-width space as
 * plain spaces, the characters that join or only hint at layout dropped (soft hyphen, zero-width
 * joiners, word joiner, byte order mark: pasted from a PDF, « responsa­bilités » would be two
 * words), the micro sign as the Greek letter, « º » as « ° », then composed accents (NFC, last, so
 * that an accent a dropped character held apart composes too).
 */
export const asSearched = (text: string): string =>
  text
    .replace(/\u00ad|\u200c|\u200d|\u2060|\ufeff/g, "")
    .replace(/[\u2000-\u200b\u202f\u205f\u3000]/g, " ")
    .replaceAll("\u00b5", "\u03bc")
    .replaceAll("\u00ba", "\u00b0")
    .normalize("NFC");

const stemmer = snowball.newStemmer("french");
/** Keys by word as written (most words recur from text to text): one lookup a word. */
const keys = new Map<string, string | null>();

/**
 * A word's comparison key, as engines compare words: read as search reads it (asSearched), lower case, Snowball French stem, accents
 * folded; null for a stop word (never matched, never marked).
 */
export function wordKey(word: string): string | null {
  let key = keys.get(word);
  if (key === undefined) {
    const lower = asSearched(word).toLowerCase();
    key = isStopWord(foldAccents(lower)) ? null : foldAccents(stemmer.stem(lower));
    if (keys.size > 200_000) keys.clear();
    keys.set(word, key);
  }
  return key;
}

/** « œ » and « æ » as the engines fold them (Postgres's unaccent, Lucene's asciifolding): « oe », « ae ». */
export const foldLigatures = (text: string) => text.replaceAll("œ", "oe").replaceAll("æ", "ae");

/** Keys by word as written, folded before stemming: one lookup a word. */
const indexedKeys = new Map<string, string>();

/**
 * A word as the engines' analysers index it: accents folded first, then Snowball's French stem
 * (Postgres's `french_unaccent`; `asciifolding` then `stemmer` on the index engines), the terms
 * search's statistics count (search_lexemes). « indemnite » typed without accents is « indemnité »,
 * « oeuvre » « œuvre »; « salarié » and « salariée » part, as they do there. A stop word stays as
 * folded.
 */
export function indexedKey(word: string): string {
  let key = indexedKeys.get(word);
  if (key === undefined) {
    const folded = foldLigatures(foldAccents(asSearched(word).toLowerCase()));
    key = isStopWord(folded) ? folded : stemmer.stem(folded);
    if (indexedKeys.size > 200_000) indexedKeys.clear();
    indexedKeys.set(word, key);
  }
  return key;
}

/** Keys by word as written, for snippets: one lookup a word. */
const matchedKeys = new Map<string, string | null>();

/**
 * A word as the engines match it (indexedKey), null for a stop word (never marked): how snippets
 * mark the words a provision matched (snippets.ts). « employes » typed without accents marks
 * « employés »; « employés » does not mark « emploi », which Snowball's stem of the accented word
 * (wordKey) joins to it.
 */
export function matchedKey(word: string): string | null {
  let key = matchedKeys.get(word);
  if (key === undefined) {
    const folded = foldLigatures(foldAccents(asSearched(word).toLowerCase()));
    key = isStopWord(folded) ? null : indexedKey(word);
    if (matchedKeys.size > 200_000) matchedKeys.clear();
    matchedKeys.set(word, key);
  }
  return key;
}

/**
 * The keys search compares a text's words by, in order, a stop word as null: it holds its place, as
 * on every engine, so « congé, qui n'est pas payé » holds no phrase « congés payés ».
 */
export const phraseKeys = (text: string): Array<string | null> =>
  (asSearched(text).match(/[\p{L}\p{N}]+/gu) ?? []).map((word) => wordKey(word));

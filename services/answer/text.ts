import { foldAccents } from "../core/public-ids.ts";
import { ASKING_INVERSIONS, ASKING_MODALS, ASKING_VERBS, queryWords } from "../search/query-text.ts";
import type { Synonyms } from "../search/synonyms.ts";
import { indexedKey, phraseKeys } from "../search/words.ts";

/**
 * Sentences and words of French legal text, for composing answers. Pure.
 */

const SEGMENTER = new Intl.Segmenter("fr", { granularity: "sentence" });

/** A full stop that does not end a sentence: "art. L. 1221-19", "al. 2", "cf. ", a lone "1." or "II.". */
const NOT_AN_END = [
  /(?:^|[\s'’(])(?:art|arts|al|cf|ex|mme|vol|chap|sect|n|nos?)\.$/i,
  /(?:^|[\s'’(])[A-Z]{1,3}\.$/,
  /^(?:\d+|[IVXL]+)\.$/,
];
const continues = (text: string) => NOT_AN_END.some((pattern) => pattern.test(text));

/** Sentences of a text, each a verbatim substring (trimmed), in order. */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  let pending = "";
  for (const { segment } of SEGMENTER.segment(text)) {
    pending += segment;
    if (continues(pending.trim()) && !/\n\s*$/.test(segment)) continue;
    const sentence = pending.trim();
    if (sentence) sentences.push(sentence);
    pending = "";
  }
  if (pending.trim()) sentences.push(pending.trim());
  // Segments may have been cut inside whitespace runs; what we return must appear in the text.
  return sentences.filter((s) => text.includes(s));
}

/**
 * What marks words left out of a quote: between a long enumeration's lead-in and the item quoted
 * (extractive.ts). Each part is copied verbatim from the provision.
 */
export const OMISSION = " […] ";

/**
 * Whether `quote` is copied from `text`: each part verbatim and in the text's order, OMISSION
 * standing for words left out.
 */
export function quotedIn(text: string, quote: string): boolean {
  let from = 0;
  for (const part of quote.split(OMISSION)) {
    const at = text.indexOf(part, from);
    if (at < 0) return false;
    from = at + part.length;
  }
  return true;
}

/** « existe-t-il » and the other asking inversions (ASKING_INVERSIONS), wherever they stand. */
const ASKING_INVERSION = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${ASKING_INVERSIONS.join("|")})(?![\\p{L}\\p{N}])`,
  "giu",
);

/**
 * Common French words that carry no meaning for matching, question words, and the verbs that ask;
 * a text's words are split at hyphens (keyWords), so « est-ce » is « est » and « ce ».
 */
const STOP_WORDS = new Set([
  ...(
    "a au aux avec ce ces cette cet dans de des du elle elles en est et etre eux il ils je la le les leur leurs lui ma mais me meme mes moi mon ne nos notre nous on ou par pas pour qu que qui sa se ses son sont sur ta te tes toi ton tu un une vos votre vous y " +
    "quel quelle quels quelles quoi quand comment combien pourquoi ou peut peuvent doit doivent faut ai as avons avez ont suis es sommes etes etait sera seront cas lorsque lorsqu jusqu puisqu quoiqu si sans sous entre vers chez tout tous toute toutes autre autres plus moins tres bien fait faire"
  ).split(" "),
  ...ASKING_VERBS,
  ...ASKING_MODALS,
]);

/**
 * A word's term: the word as the engines index it (indexedKey: accents folded, then Snowball's
 * French stem), the key of search's term statistics, by which questionRarity weighs it. A
 * sentence states a question's word when one of the word's keys (keysOf) is among its words' keys.
 */
export const stem = (word: string) => indexedKey(word);

/**
 * The keys a word is compared by: its term (stem), and, for a feminine « -ée » or « -ées », the
 * term of its masculine « -é » (« salariée »: « salarié »; « signée »: « signé »). Folding accents
 * before stemming, as the engines do, parts the feminine from the masculine ('salarie', 'salar');
 * a sentence about « la salariée » states a question's « salarié ». Other words stay apart as on
 * every engine: « employeur » and « employés », « retraite » and « retrait », « partiel » and
 * « partie » (a stem of their first six letters joined them, and a sentence about the employer
 * stated a question's « employés »). A stop word of the composer's (STOP_WORDS) has none, as in
 * keyWords: the preposition « entre » states no « entrée », whose term it shares.
 */
export function keysOf(word: string): string[] {
  const folded = foldAccents(word).toLowerCase();
  if (STOP_WORDS.has(folded)) return [];
  const term = stem(word);
  if (!/ees?$/.test(folded)) return [term];
  const other = stem(folded.replace(/es?$/, ""));
  return other === term ? [term] : [term, other];
}

/** A text's terms' other keys (keysOf), by term: the question's, for statedTerms (extractive.ts). */
export function otherKeys(text: string): Map<string, Set<string>> {
  const other = new Map<string, Set<string>>();
  for (const word of keyWords(text))
    for (const key of keysOf(word).slice(1)) {
      const term = stem(word);
      if (!other.has(term)) other.set(term, new Set());
      other.get(term)!.add(key);
    }
  return other;
}

/**
 * Abbreviations a text defines itself, in parentheses after the words they abbreviate: "activité
 * partielle de longue durée (APLD)", "contrat à durée déterminée d'usage (CDDU)". They add nothing
 * to the words before them. Lower case, accents folded.
 */
export function definedAbbreviations(text: string): Set<string> {
  const defined = new Set<string>();
  for (const match of text.matchAll(/\((\p{Lu}{2,8})\)/gu)) {
    const abbreviation = match[1]!;
    const before = text
      .slice(0, match.index)
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 1 && !STOP_WORDS.has(foldAccents(w).toLowerCase()));
    const initials = before
      .slice(-abbreviation.length)
      .map((w) => foldAccents(w[0]!).toUpperCase())
      .join("");
    if (initials === foldAccents(abbreviation).toUpperCase())
      defined.add(foldAccents(abbreviation).toLowerCase());
  }
  return defined;
}

/** The meaningful words of a text, each once, lower case with accents folded. */
export function keyWords(text: string): string[] {
  const words = new Set<string>();
  const defined = definedAbbreviations(text);
  for (const raw of text.replace(ASKING_INVERSION, " ").split(/[^\p{L}\p{N}]+/u)) {
    const word = foldAccents(raw).toLowerCase();
    if (word.length < 3 || STOP_WORDS.has(word) || /^\d+$/.test(word) || defined.has(word)) continue;
    words.add(word);
  }
  return [...words];
}

/** The meaningful words of a text, stemmed, each once. */
export const keyTerms = (text: string): string[] => [...new Set(keyWords(text).map(stem))];

/**
 * The words of a text behind some of its terms, as written there (the first for each term), in
 * the order of the terms: how the answer names the question's words no sentence states.
 */
export function wordsBehind(text: string, terms: readonly string[]): string[] {
  const written = new Map<string, string>();
  for (const raw of text.split(/[^\p{L}\p{N}]+/u)) {
    if (!raw) continue;
    const term = stem(raw);
    if (!written.has(term)) written.set(term, raw);
  }
  return terms.flatMap((term) => written.get(term) ?? []);
}

/**
 * The codes' words that state some of a question's words, as search reads them (the synonyms
 * file), by the question's term (stem), each as the keys search compares a phrase's words by
 * (phraseKeys): a sentence holding a reading as search holds a phrase (holdsPhrase) states the
 * word (statedTerms).
 * - A verb form states its act's noun and other forms (`acts`: « démissionne », « démission »),
 *   found by stem as search finds it (Synonyms.actReadings).
 * - A lay word states its readings (`lay`: « alcool », « boisson alcoolisée »), written as the lay
 *   word (« vacance », a vacancy, is not « vacances »), a hyphenated word whole
 *   (« chèques-vacances » is no « vacances »), not where the question writes it only in one of its
 *   set phrases (« chèques vacances », synonyms.layWordsIn).
 * `asked`: the question as typed, when `question` is what Synonyms.canonical made of it.
 */
export function questionReadings(
  question: string,
  synonyms: Synonyms,
  asked = question,
): Map<string, Array<Array<string | null>>> {
  const readings = new Map<string, Array<Array<string | null>>>();
  // Set phrases are found in the question as asked, as search finds them, before its groups' words
  // were read as their full form (Synonyms.canonical).
  const read = synonyms.layWordsIn(asked);
  for (const word of queryWords(question)) {
    const act = synonyms.actReadings(word);
    if (act) readings.set(stem(word), act.map(phraseKeys));
    const meant = synonyms.layReadings(word);
    if (meant && read.has(foldAccents(word).toLowerCase())) readings.set(stem(word), meant.map(phraseKeys));
  }
  return readings;
}

/**
 * Whether `keys` (a text's, phraseKeys) hold the phrase `reading` (phraseKeys too): its words in
 * its order, its stop words' places held by any word. A reading of stop words only holds nothing.
 */
export function holdsPhrase(
  keys: ReadonlyArray<string | null>,
  reading: ReadonlyArray<string | null>,
): boolean {
  let first = 0;
  let last = reading.length;
  while (first < last && reading[first] === null) first++;
  while (last > first && reading[last - 1] === null) last--;
  const phrase = reading.slice(first, last);
  if (phrase.length === 0) return false;
  for (let i = 0; i + phrase.length <= keys.length; i++)
    if (phrase.every((key, j) => key === null || keys[i + j] === key)) return true;
  return false;
}

import { foldAccents } from "../core/public-ids.ts";
import { isFrenchWord } from "./french-words.ts";
import { searchedWords } from "./query-text.ts";
import type { Synonyms } from "./synonyms.ts";
import { asSearched, isStopWord } from "./words.ts";

/**
 * Spelling: people type « licenciment », « démision », « harcelemnt ». Such a word matches no
 * provision: one slip empties a query of one word, and leaves a longer one to its other words.
 * The rule: a query word of at least MIN_LENGTH letters that no provision uses is read as
 * the word, one keystroke away (a letter left out, added, replaced, or two letters swapped), that
 * the most provisions use. A word some provision uses is never changed, so nothing that could be
 * found is lost; nor is a French word, accents aside (french-words.ts), which is no slip but a
 * word the codes do not write (« yeux » is not « deux », « turban » not « urban »), except a
 * feminine in « -ée » or « -ées » no provision uses, read as its masculine when that is French
 * too and some provision uses it (« je suis harcelée »: « harcelé »; accents are folded before
 * stemming, which parts the two).
 * A slip that makes another French word (« amande » for « amende ») is left as typed: no rule
 * that reads words one at a time can tell it. The response says what was read (`spelling`).
 * Pure apart from the word counts it is given.
 */

/**
 * Shorter words are left as typed: one keystroke turns most of them into another real word
 * (Lucene's "AUTO" fuzziness allows no edit below three letters, and one up to five).
 */
export const MIN_LENGTH = 4;

/**
 * The letters a keystroke may add or put in place of another: the alphabet and the accented
 * letters French uses. The analyser folds accents, so « indemnite » and « indemnité » read alike;
 * the accented ones are there so that the reading shown keeps the accents the person typed.
 */
const LETTERS = [..."abcdefghijklmnopqrstuvwxyzéèêëàâçîïôûùü"];

/**
 * A word the rule may read otherwise: letters only (no number, hyphen or apostrophe), long enough,
 * and no capital after its first letter. « ESUS », « CDDI », « SOLTéA » are names and acronyms: one
 * the corpus does not hold is not a slip for the word a keystroke away (« CDDI » is not « CDD »).
 */
export function correctable(word: string): boolean {
  return (
    /^\p{L}+$/u.test(word) &&
    [...word].length >= MIN_LENGTH &&
    !/\p{Lu}/u.test(word.slice(1)) &&
    !isStopWord(foldAccents(word).toLowerCase())
  );
}

/**
 * Every word one keystroke away from `word` (lower case), without `word` itself, by the slip it
 * undoes: a letter left out (added back), two letters swapped, a letter too many (removed), a
 * letter struck for another (the reading furthest from what was typed, last).
 */
export function oneKeystrokeAway(word: string): string[] {
  const w = [...word.toLowerCase()];
  const at = (i: number) => w.slice(0, i).join("");
  const from = (i: number) => w.slice(i).join("");
  const added: string[] = [];
  const swapped: string[] = [];
  const replaced: string[] = [];
  const removed: string[] = [];
  for (let i = 0; i <= w.length; i++) {
    for (const letter of LETTERS) added.push(at(i) + letter + from(i));
    if (i >= w.length) continue;
    if (i < w.length - 1) swapped.push(at(i) + w[i + 1] + w[i] + from(i + 2));
    for (const letter of LETTERS) replaced.push(at(i) + letter + from(i + 1));
    removed.push(at(i) + from(i + 1));
  }
  const out = new Set([...added, ...swapped, ...removed, ...replaced]);
  out.delete(word.toLowerCase());
  return [...out];
}

/**
 * The most used of the candidates, by how many provisions use each; undefined if none is used.
 * Among equals (two spellings of one word: « harcelement » and « harceleant » analyse alike), the
 * first in `candidates`' order.
 */
export function mostUsed(
  candidates: Iterable<string>,
  frequencies: ReadonlyMap<string, number>,
): string | undefined {
  let best: string | undefined;
  let bestCount = 0;
  for (const candidate of candidates) {
    const count = frequencies.get(candidate) ?? 0;
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}

/**
 * The masculine of a feminine in « -ée » or « -ées », lower case (« Harcelée »: « harcelé »,
 * « salariées »: « salariés »), the only reading of a French word, if French too (« cheminée »
 * is read as « cheminé », of « cheminer », only where no provision writes « cheminée »); none for
 * any other word.
 */
export function masculineOf(word: string): string[] {
  const lower = word.toLowerCase();
  const masculine = lower.replace(/([ée])e(s?)$/u, "$1$2");
  return masculine === lower ? [] : [masculine];
}

/** A word read otherwise, as the response shows it. */
export interface Correction {
  typed: string;
  readAs: string;
}

/**
 * `q` as search reads it (asSearched: composed accents, so that « harcele\u0301e » pasted in
 * decomposed form is one word), with each corrected word replaced where it stands as a whole word
 * (case and accents aside).
 */
export function rewrite(q: string, corrections: readonly Correction[]): string {
  const readings = new Map(corrections.map((c) => [foldAccents(c.typed).toLowerCase(), c.readAs]));
  return asSearched(q).replace(
    /[\p{L}\p{N}]+/gu,
    (word) => readings.get(foldAccents(word).toLowerCase()) ?? word,
  );
}

/** How many provisions use each word, as the corpus is analysed; no entry for a stop word. */
export type WordCounter = (words: string[]) => Promise<ReadonlyMap<string, number>>;

/**
 * At most this many words of one query are read otherwise: a query with more words no provision
 * uses (French words aside) is not mistyped but in other words (or another language), and each
 * costs a thousand candidates to count.
 */
export const MAX_CORRECTIONS = 3;

/**
 * The corrections the rule makes to `q`, among the words search reads (the first
 * MAX_QUERY_TERMS distinct ones): one statement counting its correctable words, and if some are
 * used by no provision, one counting their readings (the words a keystroke away; a French
 * feminine's masculine; a French word none), for the first MAX_CORRECTIONS with some. `readings`
 * remembers each word's outcome (its reading, or null: as typed) between calls; the caller
 * decides how long that holds.
 */
export async function correctSpelling(
  q: string,
  count: WordCounter,
  options: {
    synonyms?: Synonyms;
    readings?: Map<string, string | null>;
    /** Whether a word is a word of the language, not a slip (default: isFrenchWord). */
    isWord?: (word: string) => boolean;
  } = {},
): Promise<Correction[]> {
  const isWord = options.isWord ?? isFrenchWord;
  const readings = options.readings ?? new Map<string, string | null>();
  // A word with synonyms is searched by them too (« SMIC », which the codes spell out).
  const typed = searchedWords(q)
    .filter((word) => correctable(word) && (options.synonyms?.alternatives(word).length ?? 1) === 1)
    .map((word) => [foldAccents(word).toLowerCase(), word] as const);
  const unread = typed.filter(([key]) => !readings.has(key));
  if (unread.length > 0) {
    const counts = await count(unread.map(([, word]) => word));
    for (const [key, word] of unread) if (counts.get(word) !== 0) readings.set(key, null);
    // A French word no provision uses is searched as typed, unless it is a feminine whose masculine
    // is French too: it takes none of the MAX_CORRECTIONS places (it costs no candidates).
    const readingsOf = (word: string) =>
      isWord(word) ? masculineOf(word).filter((masculine) => isWord(masculine)) : oneKeystrokeAway(word);
    const unused = unread
      .filter(([, word]) => counts.get(word) === 0)
      .map(([key, word]) => [key, readingsOf(word)] as const);
    for (const [key, words] of unused) if (words.length === 0) readings.set(key, null);
    const alreadyRead = typed.filter(([key]) => readings.get(key)).length;
    // A word beyond MAX_CORRECTIONS is searched as typed and not remembered: another query may read it.
    const unknown = unused
      .filter(([, words]) => words.length > 0)
      .slice(0, Math.max(0, MAX_CORRECTIONS - alreadyRead));
    if (unknown.length > 0) {
      const candidates = new Map(unknown);
      const all = [...new Set([...candidates.values()].flat())];
      const candidateCounts = all.length > 0 ? await count(all) : new Map<string, number>();
      for (const [key, words] of candidates) readings.set(key, mostUsed(words, candidateCounts) ?? null);
    }
  }
  return typed.flatMap(([key, word]) => {
    const readAs = readings.get(key);
    return readAs ? [{ typed: word, readAs }] : [];
  });
}

import { foldAccents } from "../../../services/core/public-ids.ts";

/**
 * Abbreviations the official guides define: « la commission santé, sécurité et conditions de
 * travail (CSSCT) », « le CSE (comité social et économique) ». A guide spells an abbreviation out
 * the first time it uses it; the codes seldom do, and people ask with the abbreviation
 * (« rôle de la CSSCT »). Read here at guide ingest (ingest/guides.ts, table guide_abbreviations);
 * search chooses one full form per abbreviation and reads it as the synonyms file's groups are
 * (services/search/abbreviations.ts, synonyms.ts). Pure.
 *
 * The rule, as Schwartz and Hearst's (2003) for biomedical text, made strict for French: the
 * abbreviation is written in capitals, two to ten letters, in parentheses after its full form (or
 * its full form in parentheses after it); each word of the full form gives the next letter by its
 * initial, in order, except the small words that link them (de, la, et, pour…), which give none;
 * a word joined by a hyphen or an apostrophe is two words (« compte épargne-temps », CET). So
 * « activité partielle de longue durée (APLD) » defines APLD, and « certains groupements
 * d'employeurs (GEIQ) » defines nothing.
 */

export interface AbbreviationDefinition {
  /** As written: « CSSCT ». */
  short: string;
  /** As written, from the word giving the first letter: « commission santé, sécurité et conditions de travail ». */
  long: string;
}

/** Small words that link the words of a name and give no letter. */
const LINKING = new Set(
  "a au aux d de des du en et l la le les par pour sur un une dans avec entre sous chez".split(" "),
);

const SHORT = /^\p{Lu}{2,10}$/u;
/** Words, with where each starts and ends in the text; a hyphen or an apostrophe ends a word. */
const WORD = /[\p{L}\p{N}]+/gu;

interface Word {
  text: string;
  start: number;
  end: number;
}

function words(text: string): Word[] {
  return [...text.matchAll(WORD)].map((m) => ({ text: m[0], start: m.index, end: m.index + m[0].length }));
}

const initial = (word: string) => foldAccents(word).charAt(0).toLowerCase();
const isLinking = (word: string) => LINKING.has(foldAccents(word).toLowerCase());

/**
 * The full form of `short` ending with the last of `candidates` (the words before the
 * parenthesis, in order), as the index of the word giving its first letter; -1 when those words
 * do not spell it.
 */
function spelledFrom(short: string, candidates: Word[]): number {
  const letters = foldAccents(short).toLowerCase();
  let letter = letters.length - 1;
  for (let i = candidates.length - 1; i >= 0; i--) {
    const word = candidates[i]!.text;
    if (isLinking(word)) continue;
    if (initial(word) !== letters[letter]) return -1;
    if (letter === 0) return i;
    letter--;
  }
  return -1;
}

/** The words of a full form cannot span a sentence or a clause: the window stops at these. */
const BOUNDARY = /[.;:!?()[\]«»"\n]/;

/** Every abbreviation the text defines, in the order it defines them. */
export function findAbbreviations(text: string): AbbreviationDefinition[] {
  const found: AbbreviationDefinition[] = [];
  for (const m of text.matchAll(/\(([^()]{2,200})\)/g)) {
    const inside = m[1]!.trim();
    const before = text.slice(Math.max(0, m.index - 300), m.index);
    const window = before.slice(lastBoundary(before) + 1);
    if (SHORT.test(inside)) {
      // « la commission santé, sécurité et conditions de travail (CSSCT) »
      const candidates = words(window).slice(-(inside.length * 2 + 4));
      const first = spelledFrom(inside, candidates);
      if (first >= 0) {
        const long = window.slice(candidates[first]!.start, candidates.at(-1)!.end);
        found.push({ short: inside, long: long.replace(/\s+/g, " ") });
      }
      continue;
    }
    // « le CSE (comité social et économique) »: the parenthesis is the whole full form.
    const previous = words(window).at(-1);
    if (!previous || !SHORT.test(previous.text) || window.slice(previous.end).trim() !== "") continue;
    const candidates = words(inside);
    if (spelledFrom(previous.text, candidates) === 0 && candidates.at(-1)!.end === inside.length)
      found.push({ short: previous.text, long: inside.replace(/\s+/g, " ") });
  }
  return found;
}

function lastBoundary(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (BOUNDARY.test(text[i]!)) return i;
  return -1;
}

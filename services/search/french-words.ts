import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { foldAccents } from "../core/public-ids.ts";
import { foldLigatures } from "./words.ts";

/**
 * The words of French (`an-array-of-french-words`: some 336,000 words, every inflection, MIT),
 * lower case, accents folded (people type « fievre », « creche » for « fièvre », « crèche »): what
 * tells a word no provision uses from a slip. « yeux », « turban », « panier » are French, only not
 * the codes'; « licenciment » is a slip (spelling.ts). Left out: the literary tenses whose only
 * mark is a circumflex (« contât », « fûmes », « vîtes »), which folded would hide slips of
 * everyday words (« contat » for « contrat »). About 20 MB held once read.
 */
let words: Set<string> | undefined;

/** A passé simple or imperfect subjunctive told only by its circumflex: « contât », « fûmes », « vîtes ». */
const LITERARY_TENSE = /(?:[âîû]t|[âîû]mes|[âîû]tes)$/u;

/** The words, read on first call (some 0.4 s): the API process calls it before it listens. */
export function frenchWords(): ReadonlySet<string> {
  if (!words) {
    const file = createRequire(import.meta.url).resolve("an-array-of-french-words");
    const list = JSON.parse(readFileSync(file, "utf8")) as string[];
    words = new Set(list.filter((word) => !LITERARY_TENSE.test(word)).map((word) => foldAccents(word)));
  }
  return words;
}

/** Whether `word` is a French word, case and accents aside, « œ » and « æ » as « oe », « ae » (« sœur »). */
export const isFrenchWord = (word: string): boolean =>
  frenchWords().has(foldLigatures(foldAccents(word).toLowerCase()));

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { foldAccents } from "../core/public-ids.ts";

/**
 * The words of French (`an-array-of-french-words`: some 336,000 words, every inflection, MIT),
 * lower case, accents folded: what tells a word no provision uses from a slip. « veux »,
 * « turban », « panier » are French, only not the codes'; « licenciment » is a slip (spelling.ts).
 * About 30 MB held once read.
 */
let words: Set<string> | undefined;

/** The words, read on first call (some 0.4 s): the API process calls it before it listens. */
export function frenchWords(): ReadonlySet<string> {
  if (!words) {
    const file = createRequire(import.meta.url).resolve("an-array-of-french-words");
    const list = JSON.parse(readFileSync(file, "utf8")) as string[];
    words = new Set(list.map((word) => foldAccents(word).toLowerCase()));
  }
  return words;
}

/** Whether `word` is a French word, case and accents aside. */
export const isFrenchWord = (word: string): boolean => frenchWords().has(foldAccents(word).toLowerCase());

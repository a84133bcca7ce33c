import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { foldLigatures } from "./words.ts";

/**
 * The words of French (`an-array-of-french-words`: some 336,000 words, every inflection, MIT),
 * lower case: what tells a word no provision uses from a slip. « yeux », « turban », « panier »
 * are French, only not the codes'; « licenciment » is a slip (spelling.ts). Accents count: the
 * list holds every inflection, « contât » too, and « contat » typed for « contrat » is a slip.
 * About 20 MB held once read.
 */
let words: Set<string> | undefined;

/** The words, read on first call (some 0.4 s): the API process calls it before it listens. */
export function frenchWords(): ReadonlySet<string> {
  if (!words) {
    const file = createRequire(import.meta.url).resolve("an-array-of-french-words");
    words = new Set(
      (JSON.parse(readFileSync(file, "utf8")) as string[]).map((word) => word.normalize("NFC")),
    );
  }
  return words;
}

/**
 * Whether `word` is a French word as typed, case aside; « œ » and « æ » as the list spells them
 * (« oe », « ae »: « sœur »).
 */
export const isFrenchWord = (word: string): boolean =>
  frenchWords().has(foldLigatures(word.normalize("NFC").toLowerCase()));

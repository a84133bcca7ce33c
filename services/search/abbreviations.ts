import { comparable } from "./query-text.ts";
import type { AbbreviationReading } from "./synonyms.ts";

/**
 * The abbreviations the loaded guides define, as search reads them. Guide ingest reads each
 * guide's definitions (ingest/sources/guides/abbreviations.ts: « la commission santé, sécurité et
 * conditions de travail (CSSCT) »); here one full form is chosen per abbreviation, and whether the
 * codes use the abbreviation as a word decides where it is read (services/search/synonyms.ts).
 * Pure.
 */

/** One abbreviation's reading, chosen from what the guides say. */
export interface Abbreviation {
  short: string;
  long: string;
  /** How many guides define it so. */
  guides: number;
}

/**
 * One full form per abbreviation: the one the most guides give, written as most of them write
 * it. An abbreviation two full forms share the lead for (« CSP »: contrat de sécurisation
 * professionnelle, or catégorie socioprofessionnelle, as many guides each) is ambiguous and left
 * out. `definitions` are (guide, definition) pairs; a guide counts once per full form.
 */
export function chooseAbbreviations(
  definitions: Iterable<{ guide: string; short: string; long: string }>,
): Abbreviation[] {
  const byShort = new Map<string, Map<string, { guides: Set<string>; spellings: Map<string, number> }>>();
  for (const { guide, short, long } of definitions) {
    const forms = byShort.get(short) ?? new Map();
    byShort.set(short, forms);
    const key = comparable(long);
    const form = forms.get(key) ?? { guides: new Set<string>(), spellings: new Map<string, number>() };
    forms.set(key, form);
    form.guides.add(guide);
    form.spellings.set(long, (form.spellings.get(long) ?? 0) + 1);
  }
  const chosen: Abbreviation[] = [];
  for (const [short, forms] of byShort) {
    const ranked = [...forms.values()].sort((a, b) => b.guides.size - a.guides.size);
    const [best, second] = ranked;
    if (!best || (second && second.guides.size === best.guides.size)) continue;
    const long = [...best.spellings].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
    chosen.push({ short, long, guides: best.guides.size });
  }
  return chosen.sort((a, b) => a.short.localeCompare(b.short));
}

/**
 * What search reads of the guides' abbreviations: each chosen full form, and whether the codes
 * use the abbreviation as a word. One no provision's text or headings uses (« CSSCT ») is read as
 * its full form however it is written; a word of the codes (« CET », compte épargne-temps, and
 * « cet »; « SA », société anonyme, and the stop word « sa ») only where written in capitals
 * (services/search/synonyms.ts). `words` says, per abbreviation as written, whether some provision
 * uses it and whether the analyser drops it (services/store/guides.ts).
 */
export function abbreviationReadings(
  definitions: Iterable<{ guide: string; short: string; long: string }>,
  words: ReadonlyMap<string, { used: boolean; stopWord: boolean }>,
): AbbreviationReading[] {
  return chooseAbbreviations(definitions).flatMap(({ short, long }) => {
    const word = words.get(short);
    return word ? [{ short, long, wordOfTheCodes: word.used || word.stopWord }] : [];
  });
}

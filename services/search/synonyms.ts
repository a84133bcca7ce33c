import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { InputError } from "../core/errors.ts";
import { foldAccents } from "../core/public-ids.ts";
import { parseRulesFile } from "../core/rules-file.ts";
import { asSearched, phraseKeys, wordKey } from "./words.ts";

/**
 * Synonyms editors maintain (ingest/rules/synonyms.yaml): groups of words and phrases that name
 * the same thing, full form first ("contrat à durée déterminée", "CDD"). Queries are expanded when
 * they are built, so every engine applies the same file and no re-index is needed. Pure apart
 * from reading the file.
 */

export const BUNDLED_SYNONYMS = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../ingest/rules/synonyms.yaml",
);

const fileSchema = z
  .object({
    version: z.literal(1),
    groups: z.array(z.array(z.string().trim().min(1)).min(2, "a group needs at least two members")),
    acts: z
      .array(
        z
          .array(
            z
              .string()
              .trim()
              .regex(/^\p{L}+$/u, "an act's noun and verb forms are single words"),
          )
          .min(2, "an act needs its noun and at least one form of its verb"),
      )
      .default([]),
    lay: z
      .array(
        // `[word, reading, …]`, or `{ word, means, not_in }` for a word with set phrases.
        z.preprocess(
          (entry) => (Array.isArray(entry) ? { word: entry[0], means: entry.slice(1) } : entry),
          z
            .object({
              word: z.string().trim(),
              means: z
                .array(z.string().trim().min(1))
                .min(1, "a lay word needs the codes' words for what it means"),
              not_in: z.array(z.string().trim().min(1)).default([]),
            })
            .strict()
            .refine(({ word }) => /^\p{L}+$/u.test(word), "a lay word is a single word, written first"),
        ),
      )
      .default([]),
  })
  .strict();

/**
 * An abbreviation the loaded guides define, searched as its full form beside the file's groups
 * (services/corpus/vocabulary.ts). `wordOfTheCodes`: the provisions use it as a word (« cet »,
 * « vie »), or the analyser drops it (« sa »); it is then read as the abbreviation too only where
 * written in capitals (« alimenter son CET »), and stays the word it is everywhere else.
 */
export interface AbbreviationReading {
  short: string;
  long: string;
  wordOfTheCodes: boolean;
}

/**
 * Capitals say a word is an abbreviation in a text that also has lower case, or that is one word
 * (« CET »); in a text written all in capitals (« JE NE SUIS PAS PAYÉ ») they say nothing.
 */
export const capitalsTell = (text: string) =>
  /\p{Ll}/u.test(text) || (text.match(/[\p{L}\p{N}]+/gu) ?? []).length <= 1;

const key = (word: string) => foldAccents(word).toLowerCase().trim().replace(/\s+/g, " ");

/** The words of a text as the engines compare a phrase's: their keys (wordKey), stop words left out. */
function phraseWords(text: string): Array<{ stem: string; start: number; end: number; word: string }> {
  return [...text.matchAll(/[\p{L}\p{N}]+/gu)].flatMap((match) => {
    const stem = wordKey(match[0]);
    return stem === null
      ? []
      : [{ stem, start: match.index, end: match.index + match[0].length, word: match[0] }];
  });
}

/**
 * A lay word (the file's `lay`): the word, the codes' words for what people mostly mean by it, and
 * the set phrases in which the word keeps another sense (« chèques vacances », « vacances
 * scolaires »), where it is not read.
 */
export interface LayWord {
  word: string;
  means: string[];
  notIn: string[];
}

/**
 * Whether the word at `at` in `keys` (a text's word keys, stop words as null, BREAK where
 * punctuation parts two words) stands in the phrase `phrase` (its keys, its first and last words
 * no stop words): some placement of the phrase in which `at` is one of its words, each of its
 * words is the text's there, and each of its stop words' places holds a stop word of the text.
 */
function standsIn(
  keys: ReadonlyArray<string | null>,
  at: number,
  phrase: ReadonlyArray<string | null>,
): boolean {
  for (let start = at - phrase.length + 1; start <= at; start++) {
    if (start < 0 || start + phrase.length > keys.length) continue;
    if (phrase.every((word, j) => keys[start + j] === word)) return true;
  }
  return false;
}

/**
 * What may stand between two words of one stretch of a text: spaces, an apostrophe (« l'employeur »),
 * a hyphen joining them (« chèques-vacances »). Anything else (a comma, a spaced dash) parts them.
 */
const WITHIN_A_STRETCH = /^(?:\s*|['’]\s*|[‐‑-])$/u;

/** Where punctuation parts two words of a text: no set phrase spans it. */
const BREAK = "\u0000";

/** A phrase's keys (phraseKeys) without the stop words it starts or ends with, which no engine requires. */
function trimmedKeys(phrase: string): Array<string | null> {
  const keys = phraseKeys(phrase);
  let first = 0;
  let last = keys.length;
  while (first < last && keys[first] === null) first++;
  while (last > first && keys[last - 1] === null) last--;
  return keys.slice(first, last);
}

/**
 * A group's phrase other than its full form, when its words are not the full form's: the everyday
 * name of what the law calls otherwise (« chômage technique » for « activité partielle »).
 */
interface EverydayName {
  stems: string[];
  full: string;
}

/** Where a text uses an everyday name: its span, its words as written, the full form it means. */
export interface EverydayNameFound {
  start: number;
  end: number;
  words: string[];
  full: string;
}

export class Synonyms {
  /** Group members by the folded form of each single word member. */
  private readonly byWord = new Map<string, string[]>();

  /** The guides' abbreviations by the folded form of each; the file's groups come first. */
  private readonly abbreviations = new Map<string, AbbreviationReading>();

  /** The file's everyday names, the longest first. */
  private readonly everyday: EverydayName[] = [];

  /** The file's acts (noun first, then verb forms) by the key (wordKey) of each verb form. */
  private readonly actsByVerb = new Map<string, string[]>();

  /** Each lay word, by the word (folded, lower case), its set phrases as word keys. */
  private readonly layByWord = new Map<string, { means: string[]; notIn: Array<Array<string | null>> }>();

  private constructor(
    readonly groups: string[][],
    readonly file: string,
    abbreviations: AbbreviationReading[] = [],
    readonly acts: string[][] = [],
    readonly lay: LayWord[] = [],
  ) {
    for (const { word, means, notIn } of lay)
      this.layByWord.set(key(word), { means, notIn: notIn.map(trimmedKeys) });
    for (const act of acts)
      for (const form of act.slice(1)) {
        const stem = wordKey(form);
        if (stem !== null) this.actsByVerb.set(stem, act);
      }
    for (const group of groups)
      for (const member of group) if (!member.includes(" ")) this.byWord.set(key(member), group);
    for (const [full, ...others] of groups) {
      const fullStems = phraseWords(full!)
        .map((w) => w.stem)
        .join(" ");
      for (const other of others) {
        const stems = phraseWords(other).map((w) => w.stem);
        if (stems.length >= 2 && stems.join(" ") !== fullStems) this.everyday.push({ stems, full: full! });
      }
    }
    this.everyday.sort((a, b) => b.stems.length - a.stems.length);
    // The file's words keep their one reading: a group's member or a lay word is no abbreviation.
    for (const abbreviation of abbreviations)
      if (!this.byWord.has(key(abbreviation.short)) && !this.layByWord.has(key(abbreviation.short)))
        this.abbreviations.set(key(abbreviation.short), abbreviation);
  }

  /** These synonyms and the abbreviations the guides define, for words the file has no group for. */
  withAbbreviations(abbreviations: AbbreviationReading[]): Synonyms {
    return new Synonyms(this.groups, this.file, abbreviations, this.acts, this.lay);
  }

  /** How many of the guides' abbreviations may be read (those the file does not already read). */
  get abbreviationCount(): number {
    return this.abbreviations.size;
  }

  /**
   * The word's group, full form first: the file's, else the guides' abbreviation's full form and
   * the abbreviation (a word of the codes only where `capitals` tell it is one, written as defined).
   */
  private groupOf(word: string, capitals: boolean): string[] | undefined {
    const group = this.byWord.get(key(word));
    if (group) return group;
    const abbreviation = this.abbreviations.get(key(word));
    if (!abbreviation) return undefined;
    if (abbreviation.wordOfTheCodes && !(capitals && word === abbreviation.short)) return undefined;
    return [abbreviation.long, abbreviation.short];
  }

  static readonly none = new Synonyms([], "(none)");

  static parse(source: string, file: string): Synonyms {
    const { groups, acts, lay: entries } = parseRulesFile(source, file, fileSchema);
    const lay = entries.map(({ word, means, not_in }) => ({ word, means, notIn: not_in }));
    const seen = new Map<string, number>();
    for (const [i, group] of groups.entries())
      for (const member of group) {
        const earlier = seen.get(key(member));
        if (earlier !== undefined)
          throw new InputError(
            file,
            `groups.${i}`,
            `"${member}" is already in group ${earlier}; a word or phrase belongs to one group`,
          );
        seen.set(key(member), i);
      }
    Synonyms.checkActs(acts, file, seen);
    Synonyms.checkLay(lay, acts, file, seen);
    return new Synonyms(groups, file, [], acts, lay);
  }

  /**
   * An act's noun is a word of its own (no stop word, no group's member) and no other act's verb
   * form; each verb form is a word stemming keeps apart from the noun, of one act only, and in no
   * group: every word has one reading. Errors name the file and the entry (`acts.3`).
   */
  private static checkActs(acts: string[][], file: string, groupOf: Map<string, number>): void {
    const nouns = new Map<string, number>();
    for (const [i, [noun]] of acts.entries()) {
      const stem = wordKey(noun!);
      if (stem === null)
        throw new InputError(file, `acts.${i}`, `"${noun}" is a stop word: no noun to search`);
      if (groupOf.has(key(noun!)))
        throw new InputError(
          file,
          `acts.${i}`,
          `"${noun}" is in group ${groupOf.get(key(noun!))}: a word has one reading`,
        );
      nouns.set(stem, i);
    }
    const verbs = new Map<string, number>();
    for (const [i, [noun, ...forms]] of acts.entries())
      for (const form of forms) {
        const stem = wordKey(form);
        const fail = (why: string) => new InputError(file, `acts.${i}`, `"${form}" ${why}`);
        if (stem === null) throw fail("is a stop word: list verb forms");
        if (stem === wordKey(noun!))
          throw fail(`is the noun "${noun}" as stemming reads it: list verb forms stemming keeps apart`);
        if (nouns.has(stem))
          throw fail(`reads as the noun of act ${nouns.get(stem)}, which is searched as written`);
        const earlier = verbs.get(stem);
        if (earlier !== undefined && earlier !== i)
          throw fail(`reads as a verb form of act ${earlier} already`);
        if (groupOf.has(key(form)))
          throw fail(`is in group ${groupOf.get(key(form))}: a word has one reading`);
        verbs.set(stem, i);
      }
  }

  /**
   * A lay word is a word of its own (no stop word), of no group and no act, listed once, and each
   * of its readings has words (not stop words only) and is not the word itself: every word has one
   * reading. Each of its set phrases holds the word and another, and no group's word (answers would
   * read it as its full form). Errors name the file and the entry (`lay.2`).
   */
  private static checkLay(
    lay: LayWord[],
    acts: string[][],
    file: string,
    groupOf: Map<string, number>,
  ): void {
    const actForms = new Set(acts.flat().map(wordKey));
    const seen = new Map<string, number>();
    for (const [i, { word, means, notIn }] of lay.entries()) {
      const fail = (why: string) => new InputError(file, `lay.${i}`, `"${word}" ${why}`);
      const stem = wordKey(word);
      if (stem === null) throw fail("is a stop word: nothing to read");
      if (groupOf.has(key(word))) throw fail(`is in group ${groupOf.get(key(word))}: a word has one reading`);
      if (actForms.has(stem)) throw fail("is a word of an act: a word has one reading");
      if (seen.has(key(word))) throw fail(`is the lay word of entry ${seen.get(key(word))} already`);
      for (const phrase of means) {
        const words = phraseWords(phrase);
        if (words.length === 0) throw fail(`is read as "${phrase}", stop words only: nothing to search`);
        if (words.every((w) => w.stem === stem))
          throw fail("is read as itself: list the codes' words for what it means");
      }
      for (const phrase of notIn) {
        const words = phraseWords(phrase);
        if (!words.some((w) => w.stem === stem))
          throw fail(`is not in its set phrase "${phrase}": list phrases the word stands in`);
        if (words.length < 2) throw fail(`has "${phrase}" for a set phrase: a set phrase has another word`);
        // Answers read the question with groups' words as their full form (canonical), search as typed.
        const grouped = words.find((w) => groupOf.has(key(w.word)));
        if (grouped)
          throw fail(
            `has "${phrase}" for a set phrase: "${grouped.word}" is in group ${groupOf.get(key(grouped.word))}`,
          );
      }
      seen.set(key(word), i);
    }
  }

  static load(file: string): Synonyms {
    let source: string;
    try {
      source = readFileSync(file, "utf8");
    } catch (error) {
      throw new InputError(file, "(file)", `cannot read the synonyms file: ${(error as Error).message}`);
    }
    return Synonyms.parse(source, file);
  }

  private static bundledCache: Synonyms | undefined;
  /** The repository's file, read once. */
  static bundled(): Synonyms {
    Synonyms.bundledCache ??= Synonyms.load(BUNDLED_SYNONYMS);
    return Synonyms.bundledCache;
  }

  /**
   * Every member of the word's group, the word as written first; just the word when it has none.
   * `capitals`: whether capitals in the text the word comes from tell an abbreviation (capitalsTell).
   */
  alternatives(word: string, capitals = true, layRead?: ReadonlySet<string>): string[] {
    const group = this.groupOf(word, capitals);
    if (group) return [word, ...group.filter((member) => key(member) !== key(word))];
    // The act a verb form names (the file's `acts`), found by stem so that any inflection the
    // stemmer joins to a listed form counts (« démissionné »); the noun itself names none.
    const act = this.actReadings(word);
    if (act) return [word, ...act];
    // A lay word (« alcool ») also searches the codes' words for what it means (« boisson
    // alcoolisée »), as written: « vacances » is the holidays, « vacance » (de poste) a vacancy;
    // unless the text it comes from uses it in a set phrase only (`layRead`, layWordsIn).
    const meant = this.layReadings(word);
    if (meant && (layRead === undefined || layRead.has(key(word)))) return [word, ...meant];
    return [word];
  }

  /**
   * The act a verb form names (the file's `acts`: « démissionné », « démission » and
   * « démissionner »): the noun and the act's other listed forms, found by stem so that any
   * inflection the stemmer joins to a listed form counts; undefined for any other word (the noun
   * itself names none).
   */
  actReadings(word: string): string[] | undefined {
    const stem = wordKey(word);
    const act = stem === null ? undefined : this.actsByVerb.get(stem);
    return act?.filter((form) => wordKey(form) !== stem);
  }

  /**
   * The codes' words a lay word means (the file's `lay`: « alcool », « boisson alcoolisée »), the word
   * as written, accents and case aside; undefined for any other word.
   */
  layReadings(word: string): readonly string[] | undefined {
    return this.layByWord.get(key(word))?.means;
  }

  /**
   * The lay words a text reads (folded, lower case): those it writes at least once as a word of
   * their own (not a part of a hyphenated word, which search keeps whole) outside their set
   * phrases. « chèques vacances » and « vacances scolaires » name other things than paid leave;
   * « les chèques vacances servent-ils pendant les vacances ? » reads the second « vacances ». A
   * set phrase is matched stemmed, over a hyphen too (« chèques-vacances »), a stop word's place
   * holding a stop word, within a stretch of the text that no punctuation parts: « pendant mes
   * vacances, mon poste » holds no « vacances de poste ».
   */
  layWordsIn(text: string): Set<string> {
    const read = new Set<string>();
    if (this.layByWord.size === 0) return read;
    const searched = asSearched(text);
    const keys: Array<string | null> = [];
    const words: Array<{ at: number; word: string; own: boolean }> = [];
    let end = 0;
    for (const match of searched.matchAll(/[\p{L}\p{N}]+/gu)) {
      const between = searched.slice(end, match.index);
      if (end > 0 && !WITHIN_A_STRETCH.test(between)) keys.push(BREAK);
      // A part of a hyphenated word, which search keeps whole (queryWords): a hyphen joins it to
      // the word before or after.
      const after = match.index + match[0].length;
      const joined = (end > 0 && between === "-") || /^-[\p{L}\p{N}]/u.test(searched.slice(after));
      end = after;
      words.push({ at: keys.length, word: match[0], own: !joined });
      keys.push(wordKey(match[0]));
    }
    for (const { at, word, own } of words) {
      const entry = this.layByWord.get(key(word));
      if (entry && own && !entry.notIn.some((phrase) => standsIn(keys, at, phrase))) read.add(key(word));
    }
    return read;
  }

  /**
   * The everyday names a text uses (« fiche de paie », « chômage technique »), each where it
   * stands: a phrase of the file, not its group's full form, whose words (stemmed, stop words
   * aside, as an engine compares a phrase) follow one another in the text. Occurrences do not
   * overlap; the longer name wins.
   */
  everydayNames(text: string): EverydayNameFound[] {
    if (this.everyday.length === 0) return [];
    const words = phraseWords(text);
    const found: EverydayNameFound[] = [];
    for (let i = 0; i < words.length; i++) {
      const name = this.everyday.find(({ stems }) => stems.every((stem, j) => words[i + j]?.stem === stem));
      if (!name) continue;
      const last = words[i + name.stems.length - 1]!;
      found.push({
        start: words[i]!.start,
        end: last.end,
        words: words.slice(i, i + name.stems.length).map((w) => w.word),
        full: name.full,
      });
      i += name.stems.length - 1;
    }
    return found;
  }

  /**
   * A text with each everyday name replaced by its group's full form (« fiche de paie » is
   * « bulletin de paie »), then each single word that has synonyms by its group's full form.
   */
  canonical(text: string): string {
    let named = text;
    for (const name of this.everydayNames(text).reverse())
      named = named.slice(0, name.start) + name.full + named.slice(name.end);
    const capitals = capitalsTell(named);
    return named.replace(/[\p{L}\p{N}]+/gu, (word) => {
      const group = this.groupOf(word, capitals);
      return group ? group[0]! : word;
    });
  }
}

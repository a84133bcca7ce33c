import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { InputError } from "../core/errors.ts";
import { foldAccents } from "../core/public-ids.ts";
import { parseRulesFile } from "../core/rules-file.ts";

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
  })
  .strict();

const key = (word: string) => foldAccents(word).toLowerCase().trim().replace(/\s+/g, " ");

export class Synonyms {
  /** Group members by the folded form of each single word member. */
  private readonly byWord = new Map<string, string[]>();

  private constructor(
    readonly groups: string[][],
    readonly file: string,
  ) {
    for (const group of groups)
      for (const member of group) if (!member.includes(" ")) this.byWord.set(key(member), group);
  }

  static readonly none = new Synonyms([], "(none)");

  static parse(source: string, file: string): Synonyms {
    const { groups } = parseRulesFile(source, file, fileSchema);
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
    return new Synonyms(groups, file);
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

  /** Every member of the word's group, the word as written first; just the word when it has none. */
  alternatives(word: string): string[] {
    const group = this.byWord.get(key(word));
    if (!group) return [word];
    return [word, ...group.filter((member) => key(member) !== key(word))];
  }

  /** A text with each single word that has synonyms replaced by its group's full form. */
  canonical(text: string): string {
    return text.replace(/[\p{L}\p{N}]+/gu, (word) => {
      const group = this.byWord.get(key(word));
      return group ? group[0]! : word;
    });
  }
}

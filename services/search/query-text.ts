import { foldAccents } from "../core/public-ids.ts";

/**
 * What a free-text query asks for, engine-agnostic. People type questions ("Quelle est la durée
 * du mandat ?"): the interrogatives and auxiliaries are not in Postgres's or Lucene's French stop
 * lists, and requiring them finds nothing. Pure; both engines build their queries from it.
 */

/** Question words and auxiliaries that carry no legal meaning, accents folded. */
const QUESTION_WORDS = new Set(
  (
    "quel quelle quels quelles lequel laquelle lesquels lesquelles comment combien pourquoi quand ou qui que quoi " +
    "est-ce est ce sont etre peut peuvent puis-je peut-on doit doivent dois-je doit-on faut faut-il il elle on je " +
    "a-t-il y-a-t-il ont avoir fait faire existe-t-il s'agit-il agit"
  ).split(" "),
);

/** The words of a query that should match, in order, elisions ("l'", "d'") removed. */
export function queryWords(q: string): string[] {
  return q
    .split(/[^\p{L}\p{N}'’-]+/u)
    .map((w) =>
      w
        .replace(/^[-'’]+/, "")
        .replace(/^(?:[ldjmnstc]|qu)['’]/i, "")
        .replace(/['’-]+$/, "")
        // Inversions: "peut-il", "doit-on", "a-t-elle" ask; the verb alone is what may match.
        .replace(/-(?:t-)?(?:il|elle|on|ils|elles|je|nous|vous)$/i, ""),
    )
    .filter((w) => w.length > 0 && !QUESTION_WORDS.has(foldAccents(w).toLowerCase()));
}

/**
 * How many of n meaningful words a provision must hold: all of one or two, two thirds (rounded
 * down) of more. The same rule as Elasticsearch's "2<67%".
 */
export const MINIMUM_SHOULD_MATCH = "2<67%";
export const minimumShouldMatch = (n: number) => (n <= 2 ? n : Math.floor((n * 67) / 100));

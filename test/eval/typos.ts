import { createHash } from "node:crypto";
import { queryWords } from "../../services/search/query-text.ts";
import { isStopWord } from "../../services/search/words.ts";
import { seeded } from "./metrics.ts";
import type { QuerySet } from "./query-sets.ts";

/**
 * A query set as people type it in a hurry: each query with one slip of the keys in one of its
 * words of six letters or more (a letter left out, two swapped, one doubled, or one struck for a
 * neighbour on a French AZERTY keyboard). Which word and which slip follow from a hash of the
 * query, so a set is the same in every run. Queries with no such word are left out: the set
 * measures what slips cost, not the queries again. The slips are one keystroke each, as the
 * spelling rule undoes (services/search/spelling.ts): what this set cannot tell is how often real
 * mistakes are of that kind (most are, in the studies since Damerau's, 1964), nor mistakes of
 * spelling rather than typing (« harcellement »), which are often more than one keystroke.
 */

/** Each key's neighbours on an AZERTY keyboard, accents folded. */
const AZERTY_ROWS = ["azertyuiop", "qsdfghjklm", "wxcvbn"];
function neighbours(letter: string): string[] {
  const out: string[] = [];
  AZERTY_ROWS.forEach((row, r) => {
    const i = row.indexOf(letter);
    if (i === -1) return;
    if (i > 0) out.push(row[i - 1]!);
    if (i < row.length - 1) out.push(row[i + 1]!);
    for (const other of [AZERTY_ROWS[r - 1], AZERTY_ROWS[r + 1]])
      for (const j of [i - 1, i, i + 1]) if (other?.[j]) out.push(other[j]!);
  });
  return out;
}

/** One slip in `word` (never in its first letter, where people seldom slip), drawn with `next`. */
export function slip(word: string, next: () => number): string {
  const letters = [...word];
  const at = 1 + Math.floor(next() * (letters.length - 1));
  const kind = Math.floor(next() * 4);
  if (kind === 0) letters.splice(at, 1);
  else if (kind === 1 && at < letters.length - 1)
    [letters[at], letters[at + 1]] = [letters[at + 1]!, letters[at]!];
  else if (kind === 2) letters.splice(at, 0, letters[at]!);
  else {
    const folded = letters[at]!.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
    const options = neighbours(folded);
    if (options.length === 0) letters.splice(at, 1);
    else letters[at] = options[Math.floor(next() * options.length)]!;
  }
  return letters.join("");
}

/**
 * The query with one slip, or undefined when it has no word of six letters or more. The slip
 * lands on a word search reads (queryWords): a change to the question words regenerates some of
 * the typo'd sets' queries (« Existe-t-il » took slips until row 48).
 */
export function withSlip(query: string): string | undefined {
  const words = queryWords(query).filter(
    (w) => /^\p{L}+$/u.test(w) && [...w].length >= 6 && !isStopWord(w.toLowerCase()),
  );
  if (words.length === 0) return undefined;
  const next = seeded(createHash("sha256").update(query).digest().readUInt32LE(0));
  const word = words[Math.floor(next() * words.length)]!;
  const slipped = slip(word, next);
  let done = false;
  // The first time the word stands whole in the query.
  return query.replace(/[\p{L}\p{N}]+/gu, (w) => {
    if (done || w !== word) return w;
    done = true;
    return slipped;
  });
}

export function withTypos(set: QuerySet): QuerySet {
  const [name, version] = set.name.split("@");
  return {
    ...set,
    name: `${name}-typos@${version}`,
    description: `${set.description}; each query with one slip of the keys in a word of six letters or more (test/eval/typos.ts)`,
    queries: set.queries.flatMap((q) => {
      const query = withSlip(q.query);
      return query ? [{ ...q, query }] : [];
    }),
  };
}

import { PAIR_SLOP } from "./ranking.ts";
import { positionOf, type TsvectorEntry, WEIGHT, weightOf } from "./tsvector.ts";

/**
 * Where each provision's words stand, for the in-memory index's phrases and proximity pairs
 * (memory-index.ts). Positions are packed as tsvector.ts packs them (position × 4 + weight),
 * ascending, so one array serves every field and a field is read by its weight.
 */
export interface PositionTables {
  /** Provision d's lexemes are docLex[docLexStart[d] … docLexStart[d+1]), ascending. */
  docLexStart: Int32Array;
  docLex: Int32Array;
  /** Entry e's positions are positions[docPositionStart[e] … docPositionStart[e+1]). */
  docPositionStart: Int32Array;
  positions: Uint16Array;
}

/** Provision d's positions of a lexeme, or undefined if it does not hold it. */
export function positionsOf(tables: PositionTables, doc: number, lexeme: number): Uint16Array | undefined {
  const { docLexStart, docLex, docPositionStart, positions } = tables;
  let lo = docLexStart[doc]!;
  let hi = docLexStart[doc + 1]! - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const value = docLex[mid]!;
    if (value === lexeme) return positions.subarray(docPositionStart[mid]!, docPositionStart[mid + 1]!);
    if (value < lexeme) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** Has provision d a posting (a position outside the number) for this lexeme? */
export function hasPosting(tables: PositionTables, doc: number, lexeme: number): boolean {
  const found = positionsOf(tables, doc, lexeme);
  return found?.some((packed) => weightOf(packed) !== WEIGHT.A) ?? false;
}

/** A phrase as phraseto_tsquery reads it: each lexeme with its distance from the first (<N>). */
export type Phrase = Array<{ lexeme: number; offset: number }>;

/** The phrase of a query's words (their entries, and each entry's lexeme index). */
export function phraseOf(vector: TsvectorEntry[], indexes: number[]): Phrase {
  const parts = vector.flatMap((entry, i) =>
    entry.positions.map((packed) => ({ lexeme: indexes[i]!, position: positionOf(packed) })),
  );
  parts.sort((a, b) => a.position - b.position);
  const start = parts[0]!.position;
  return parts.map((part) => ({ lexeme: part.lexeme, offset: part.position - start }));
}

/** `search_vector @@ phraseto_tsquery(…)`: does provision d hold the lexemes at the phrase's distances? */
export function holdsPhrase(tables: PositionTables, doc: number, phrase: Phrase): boolean {
  const lists = phrase.map((part) => positionsOf(tables, doc, part.lexeme));
  if (lists.some((list) => !list)) return false;
  return Array.from(lists[0]!).some((packed) => {
    const start = positionOf(packed) - phrase[0]!.offset;
    return phrase.every((part, i) => hasPosition(lists[i]!, start + part.offset));
  });
}

function hasPosition(list: Uint16Array, position: number): boolean {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const value = positionOf(list[mid]!);
    if (value === position) return true;
    if (value < position) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/**
 * How often words x and y stand together in one field (the positions of that weight), as a
 * Lucene phrase "x y" with slop 3 counts it: y's positions are read one less (where the phrase
 * would put y), the two words' occurrences are read in that order (x first at a tie), and each
 * time one word follows the other within PAIR_SLOP, the pair is found once more, counting
 * 1 / (1 + that distance). "x y" counts 1, "x … y" ½, "y x" ⅓. When x and y are one lexeme (two
 * words of a query with one stem), each occurrence pairs with the next, one position after
 * counting as adjacent.
 */
export function sloppyFrequency(
  xs: ArrayLike<number>,
  ys: ArrayLike<number>,
  weight: number,
  same = false,
): number {
  let frequency = 0;
  if (same) {
    let previousAt = -1;
    for (let i = 0; i < xs.length; i += 1) {
      if (weightOf(xs[i]!) !== weight) continue;
      const at = positionOf(xs[i]!);
      const gap = at - previousAt - 1;
      if (previousAt !== -1 && gap <= PAIR_SLOP) frequency += 1 / (1 + gap);
      previousAt = at;
    }
    return frequency;
  }
  let i = 0;
  let j = 0;
  let previous = -1;
  let previousAt = 0;
  for (;;) {
    while (i < xs.length && weightOf(xs[i]!) !== weight) i += 1;
    while (j < ys.length && weightOf(ys[j]!) !== weight) j += 1;
    if (i === xs.length && j === ys.length) return frequency;
    const xAt = i < xs.length ? positionOf(xs[i]!) : Number.POSITIVE_INFINITY;
    const yAt = j < ys.length ? positionOf(ys[j]!) - 1 : Number.POSITIVE_INFINITY;
    const word = xAt <= yAt ? 0 : 1;
    const at = word === 0 ? xAt : yAt;
    if (word === 0) i += 1;
    else j += 1;
    if (previous !== -1 && previous !== word && at - previousAt <= PAIR_SLOP)
      frequency += 1 / (1 + at - previousAt);
    previous = word;
    previousAt = at;
  }
}

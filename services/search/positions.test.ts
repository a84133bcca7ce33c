import { describe, expect, it } from "vitest";
import { hasPosting, holdsPhrase, type PositionTables, phraseOf, sloppyFrequency } from "./positions.ts";
import { parseTsvector, WEIGHT } from "./tsvector.ts";

describe("sloppyFrequency", () => {
  it("counts a pair's occurrences as Lucene's sloppy phrase does", () => {
    const at = (...positions: number[]) => positions.map((p) => p * 4 + WEIGHT.C);
    const frequency = (xs: number[], ys: number[]) => sloppyFrequency(at(...xs), at(...ys), WEIGHT.C);
    expect(frequency([1], [2])).toBe(1); // x y
    expect(frequency([1], [3])).toBe(1 / 2); // x · y
    expect(frequency([1], [5])).toBe(1 / 4); // x · · · y
    expect(frequency([1], [6])).toBe(0); // beyond the slop
    expect(frequency([2], [1])).toBe(1 / 3); // y x
    expect(frequency([3], [1])).toBe(1 / 4); // y · x
    expect(frequency([4], [1])).toBe(0);
    expect(frequency([1, 10], [2, 11])).toBe(2); // twice
    expect(frequency([1, 2], [3])).toBe(1); // x x y: the nearer x only
    expect(frequency([1], [2, 3])).toBe(1); // x y y: once
    // One lexeme twice (two words of the query with one stem): each occurrence and the next.
    const same = (...positions: number[]) =>
      sloppyFrequency(at(...positions), at(...positions), WEIGHT.C, true);
    expect(same(1, 2)).toBe(1);
    expect(same(1, 5)).toBe(1 / 4);
    expect(same(1, 6)).toBe(0);
    expect(same(1, 2, 3)).toBe(2);
    expect(same(1)).toBe(0);
    // Another field's positions do not count, nor a pair split across fields.
    expect(sloppyFrequency([1 * 4 + WEIGHT.B], at(2), WEIGHT.C)).toBe(0);
    expect(sloppyFrequency([1 * 4 + WEIGHT.B], [2 * 4 + WEIGHT.B], WEIGHT.B)).toBe(1);
  });
});

/**
 * One table of provisions, each a list of [lexeme, positions, weight]: the text's (C) unless
 * another field's weight is given, for the entry or for one position ([position, weight]).
 */
function tables(...docs: Array<Array<[number, Array<number | [number, number]>, number?]>>): PositionTables {
  const docLexStart = [0];
  const docLex: number[] = [];
  const docPositionStart = [0];
  const positions: number[] = [];
  for (const doc of docs) {
    for (const [lexeme, at, weight = WEIGHT.C] of [...doc].sort((a, b) => a[0] - b[0])) {
      docLex.push(lexeme);
      positions.push(...at.map((p) => (typeof p === "number" ? p * 4 + weight : p[0] * 4 + p[1])));
      docPositionStart.push(positions.length);
    }
    docLexStart.push(docLex.length);
  }
  return {
    docLexStart: Int32Array.from(docLexStart),
    docLex: Int32Array.from(docLex),
    docPositionStart: Int32Array.from(docPositionStart),
    positions: Uint16Array.from(positions),
  };
}

describe("hasPosting", () => {
  it("finds a lexeme held outside the number, not one held in the number (weight A) alone", () => {
    const t = tables(
      [
        [0, [1], WEIGHT.A],
        [1, [3]],
      ], // « 3 » only in the article's number; « travail » in its text
      [
        [
          0,
          [
            [1, WEIGHT.A],
            [2, WEIGHT.B],
          ],
        ],
      ], // « 3 » in the number and in a heading
    );
    expect([hasPosting(t, 0, 0), hasPosting(t, 0, 1), hasPosting(t, 0, 2)]).toEqual([false, true, false]);
    expect(hasPosting(t, 1, 0)).toBe(true);
  });
});

describe("holdsPhrase", () => {
  // « contrat de travail »: 'contrat' (lexeme 0) then 'travail' (1) two positions on.
  const phrase = phraseOf(parseTsvector("'contrat':1 'travail':3"), [0, 1]);

  it("reads the phrase's words at their distances from the first", () => {
    expect(phrase).toEqual([
      { lexeme: 0, offset: 0 },
      { lexeme: 1, offset: 2 },
    ]);
  });

  it("finds the words at those distances, wherever else they stand, and nothing else", () => {
    const t = tables(
      [
        [0, [3, 20]],
        [1, [5, 9]],
      ], // « … contrat de travail … »
      [
        [0, [3]],
        [1, [6]],
      ], // « contrat à durée travail »: one too far
      [
        [1, [5]],
        [0, [7]],
      ], // the other order
      [[0, [3]]], // no « travail »
    );
    expect([0, 1, 2, 3].map((doc) => holdsPhrase(t, doc, phrase))).toEqual([true, false, false, false]);
  });
  it("reads the phrase in the query's word order, not the lexemes' (« rupture conventionnelle »)", () => {
    // 'convent' is lexeme 0 but the second word; 'ruptur' lexeme 1, the first.
    const rupture = phraseOf(parseTsvector("'convent':2 'ruptur':1"), [0, 1]);
    expect(rupture).toEqual([
      { lexeme: 1, offset: 0 },
      { lexeme: 0, offset: 1 },
    ]);
    const t = tables(
      [
        [1, [4]],
        [0, [5]],
      ], // « rupture conventionnelle »
      [
        [0, [4]],
        [1, [5]],
      ], // « conventionnelle rupture »
    );
    expect([0, 1].map((doc) => holdsPhrase(t, doc, rupture))).toEqual([true, false]);
  });

  it("finds a later occurrence, in long position lists", () => {
    const t = tables([
      [0, [1, 7, 30, 41]],
      [1, [2, 4, 6, 8, 10, 12, 15, 32, 40]],
    ]);
    // « contrat » at 30, « travail » at 32: the third occurrence of the first word.
    expect(holdsPhrase(t, 0, phrase)).toBe(true);
    const none = tables([
      [0, [1, 7, 30, 41]],
      [1, [2, 4, 6, 8, 10, 12, 15, 31, 40]],
    ]);
    expect(holdsPhrase(none, 0, phrase)).toBe(false);
  });
});

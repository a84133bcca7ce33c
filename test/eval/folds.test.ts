import { describe, expect, it } from "vitest";
import { foldsByGuide, foldsBySource } from "./folds.ts";

const queries = [
  ...Array.from({ length: 5 }, (_, i) => ({ query: `a${i}`, guide: "A" })),
  ...Array.from({ length: 3 }, (_, i) => ({ query: `b${i}`, guide: "B" })),
  ...Array.from({ length: 3 }, (_, i) => ({ query: `c${i}`, guide: "C" })),
  ...Array.from({ length: 2 }, (_, i) => ({ query: `d${i}`, guide: "D" })),
  { query: "e0", guide: "E" },
  { query: "f0", guide: "F" },
];

describe("foldsByGuide", () => {
  it("keeps every query of a guide in one fold, and every query in exactly one fold", () => {
    const folds = foldsByGuide(queries, 3, 7);
    expect(folds).toHaveLength(3);
    expect(
      folds
        .flat()
        .map((q) => q.query)
        .sort(),
    ).toEqual(queries.map((q) => q.query).sort());
    for (const guide of "ABCDEF") {
      const holding = folds.filter((fold) => fold.some((q) => q.guide === guide));
      expect(holding).toHaveLength(1);
      expect(holding[0]!.filter((q) => q.guide === guide)).toHaveLength(
        queries.filter((q) => q.guide === guide).length,
      );
    }
  });

  it("is deterministic for a seed, and keeps the queries' order within a fold", () => {
    expect(foldsByGuide(queries, 3, 7)).toEqual(foldsByGuide(queries, 3, 7));
    expect(foldsByGuide([...queries], 4, 42)).toEqual(foldsByGuide(queries, 4, 42));
    for (const fold of foldsByGuide(queries, 3, 7)) {
      const positions = fold.map((q) => queries.indexOf(q));
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
    }
  });

  it("balances the folds: 15 queries in 3 folds of 5", () => {
    for (const seed of [1, 2, 3, 99]) {
      expect(
        foldsByGuide(queries, 3, seed)
          .map((f) => f.length)
          .sort(),
      ).toEqual([5, 5, 5]);
    }
  });

  it("depends on the seed where guides tie in size", () => {
    const even = Array.from({ length: 20 }, (_, i) => ({ query: `q${i}`, guide: `G${i}` }));
    const layouts = new Set(
      [1, 2, 3, 4, 5].map((seed) =>
        JSON.stringify(foldsByGuide(even, 2, seed).map((f) => f.map((q) => q.guide))),
      ),
    );
    expect(layouts.size).toBeGreaterThan(1);
  });

  it("leaves folds empty when there are fewer guides than folds, and refuses k < 1", () => {
    expect(
      foldsByGuide([{ guide: "A" }, { guide: "A" }], 3, 1)
        .map((f) => f.length)
        .sort(),
    ).toEqual([0, 0, 2]);
    expect(() => foldsByGuide(queries, 0, 1)).toThrow(/positive integer/);
  });
});

describe("foldsBySource", () => {
  const mixed = [
    ...queries.map((q) => ({ ...q, guide: `travail:${q.guide}` })),
    ...Array.from({ length: 6 }, (_, i) => ({ query: `v${i}`, guide: `vdd:${i}` })),
  ];

  it("folds each source apart: a fold holds one source's guides, each guide in one fold", () => {
    const { foldOf, count, indexOf } = foldsBySource(mixed, 3, 7);
    expect(count).toBe(6);
    expect(new Set(mixed.map((q) => q.guide))).toEqual(new Set(foldOf.keys()));
    for (const [guide, fold] of foldOf) expect(guide.startsWith(fold < 3 ? "travail:" : "vdd:")).toBe(true);
    expect([0, 1, 2, 3, 4, 5].map(indexOf)).toEqual([0, 1, 2, 0, 1, 2]);
    // Within a source, the folds are foldsByGuide's over that source's queries alone.
    const travail = foldsByGuide(
      mixed.filter((q) => q.guide.startsWith("travail:")),
      3,
      7,
    );
    travail.forEach((fold, i) => {
      for (const q of fold) expect(foldOf.get(q.guide)).toBe(i);
    });
    expect(new Set([...foldOf].filter(([g]) => g.startsWith("vdd:")).map(([, f]) => f))).toEqual(
      new Set([3, 4, 5]),
    );
  });
});

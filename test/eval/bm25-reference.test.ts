import { describe, expect, it } from "vitest";
import { analyze, build, idf } from "./bm25-reference.ts";

describe("the reference's analysis", () => {
  it("lowercases, removes elisions (both apostrophes) and stop words, stems, then folds accents", () => {
    expect(
      analyze("L’employeur qu'il jusqu'au Congés payés, d'une durée de 12 mois ; lorsqu'un salarié est ÉLU"),
    ).toEqual(["employeur", "cong", "pai", "dur", "12", "mois", "salari", "elu"]);
  });

  it("splits on anything not a letter or digit", () => {
    expect(analyze("R. 1237-1-1")).toEqual(["r", "1237", "1", "1"]);
    expect(analyze("contrat/travail")).toEqual(["contrat", "travail"]);
  });
});

// Four provisions, 3 + 2 + 4 + 1 terms: N = 4, average length 2.5.
const index = build([
  { id: "A", sectionPath: [], text: "contrat contrat travail" },
  { id: "B", sectionPath: ["Travail"], text: "durée" },
  { id: "C", sectionPath: [], text: "licenciement économique salarié protégé" },
  { id: "D", sectionPath: [], text: "congé" },
]);

describe("BM25 (k1 = 1.2, b = 0.75)", () => {
  it("weighs a term by ln(1 + (N − df + 0.5) / (df + 0.5))", () => {
    expect(idf(4, 1)).toBeCloseTo(Math.log(1 + 3.5 / 1.5), 12);
    expect(idf(4, 2)).toBeCloseTo(Math.LN2, 12);
    // Even a term in every provision weighs something.
    expect(idf(4, 4)).toBeGreaterThan(0);
  });

  it("scores term frequency against length: tf · 2.2 / (tf + 1.2 · (0.25 + 0.75 · |d| / 2.5))", () => {
    // "contrat": df 1, idf ln(10/3) = 1.2039728; A has it twice in 3 terms: norm 1.2 · 1.15 = 1.38.
    const contrat = index.scores("contrat");
    expect([...contrat.keys()]).toEqual(["A"]);
    expect(contrat.get("A")).toBeCloseTo((1.2039728043 * 2 * 2.2) / (2 + 1.38), 9); // 1.5673019
    // "travail": df 2, idf ln 2; once in A (3 terms, norm 1.38) and once in B's heading (2 terms, norm 1.02).
    const travail = index.scores("travail");
    expect(travail.get("A")).toBeCloseTo((Math.LN2 * 2.2) / 2.38, 9); // 0.6407243
    expect(travail.get("B")).toBeCloseTo((Math.LN2 * 2.2) / 2.02, 9); // 0.7549128
    // The shorter provision ranks first.
    expect(index.search("travail", 10)).toEqual(["B", "A"]);
  });

  it("sums over the query's distinct terms, stop words left out, any term matching (OR)", () => {
    const scores = index.scores("Le contrat de travail, le travail");
    expect(scores.get("A")).toBeCloseTo(1.5673018755 + 0.6407242846, 9);
    expect(scores.get("B")).toBeCloseTo(0.7549127709, 9);
    expect(scores.has("C")).toBe(false);
    expect(index.search("Le contrat de travail, le travail", 10)).toEqual(["A", "B"]);
    expect(index.search("contrats de travail", 1)).toEqual(["A"]);
  });

  it("returns nothing for a query of stop words or unknown terms, and breaks ties by id", () => {
    expect(index.search("de la", 10)).toEqual([]);
    expect(index.search("inconnu", 10)).toEqual([]);
    const twins = build([
      { id: "y", sectionPath: [], text: "congé" },
      { id: "x", sectionPath: [], text: "congés" },
    ]);
    expect(twins.search("congé", 10)).toEqual(["x", "y"]);
  });
});

import { describe, expect, it } from "vitest";
import { minimumShouldMatch, queryWords } from "./query-text.ts";

describe("queryWords", () => {
  it("drops question words and elisions, keeps the rest as written", () => {
    expect(queryWords("Quelle est la durée du mandat ?")).toEqual(["la", "durée", "du", "mandat"]);
    expect(queryWords("Comment l'employeur peut-il rompre le contrat d'apprentissage ?")).toEqual([
      "employeur",
      "rompre",
      "le",
      "contrat",
      "apprentissage",
    ]);
    expect(queryWords("L1237-1-1")).toEqual(["L1237-1-1"]);
    expect(queryWords("-exclu")).toEqual(["exclu"]);
  });
});

describe("minimumShouldMatch", () => {
  it("requires every word of one or two, half (rounded down) of more, like Elasticsearch's 2<50%", () => {
    expect([1, 2, 3, 4, 5, 6, 9].map(minimumShouldMatch)).toEqual([1, 2, 1, 2, 2, 3, 4]);
  });
});

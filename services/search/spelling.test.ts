import { describe, expect, it } from "vitest";
import {
  correctable,
  correctSpelling,
  MAX_CORRECTIONS,
  masculineOf,
  mostUsed,
  oneKeystrokeAway,
  rewrite,
} from "./spelling.ts";
import { Synonyms } from "./synonyms.ts";

/**
 * A word counter over a fixed vocabulary, folded as the corpus's analyser folds (case and
 * accents); it records what it was asked, so the tests see how many statements a search costs.
 * The real counter (Postgres's analysis and term statistics) is tested in test/integration/api.test.ts.
 */
function counter(vocabulary: Record<string, number>) {
  const fold = (w: string) => w.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  const known = new Map(Object.entries(vocabulary).map(([w, n]) => [fold(w), n]));
  const calls: string[][] = [];
  const count = async (words: string[]) => {
    calls.push(words);
    return new Map(words.map((w) => [w, known.get(fold(w)) ?? 0]));
  };
  return { count, calls };
}

describe("oneKeystrokeAway", () => {
  it("undoes each slip: a letter left out, two swapped, one too many, one struck for another", () => {
    const words = oneKeystrokeAway("esai");
    expect(words).toContain("essai"); // left out
    expect(words).toContain("easi"); // swapped
    expect(words).toContain("esa"); // too many
    expect(words).toContain("asai"); // struck for another
    expect(words).toContain("ésai"); // accented letters too
    expect(words).not.toContain("esai");
    expect(new Set(words).size).toBe(words.length);
  });

  it("lists letters left out first, letters struck for others last", () => {
    const words = oneKeystrokeAway("demision");
    expect(words.indexOf("demission")).toBeLessThan(words.indexOf("demisson"));
    expect(words.indexOf("demisio")).toBeLessThan(words.indexOf("demisian"));
  });
});

describe("mostUsed", () => {
  it("takes the most used candidate, the first of equals, none when nothing is used", () => {
    expect(
      mostUsed(
        ["a", "b", "c"],
        new Map([
          ["b", 3],
          ["c", 5],
        ]),
      ),
    ).toBe("c");
    expect(
      mostUsed(
        ["a", "b", "c"],
        new Map([
          ["b", 5],
          ["c", 5],
        ]),
      ),
    ).toBe("b");
    expect(mostUsed(["a", "b"], new Map())).toBeUndefined();
  });
});

describe("correctable", () => {
  it("takes words of four letters or more, letters only, no acronym or stop word", () => {
    expect(correctable("esai")).toBe(true);
    expect(correctable("conventionelle")).toBe(true);
    expect(correctable("Licenciment")).toBe(true);
    expect(correctable("CDDI")).toBe(false);
    expect(correctable("SOLTéA")).toBe(false);
    expect(correctable("cdi")).toBe(false);
    expect(correctable("L1237")).toBe(false);
    expect(correctable("sous-traitance")).toBe(false);
    expect(correctable("étant")).toBe(false);
  });
});

describe("rewrite", () => {
  it("replaces whole words only, whatever their case and accents", () => {
    expect(
      rewrite("Rupture CONVENTIONELLE et conventionelles", [
        { typed: "conventionelle", readAs: "conventionnelle" },
      ]),
    ).toBe("Rupture conventionnelle et conventionelles");
    expect(rewrite("période d'esai", [{ typed: "esai", readAs: "essai" }])).toBe("période d'essai");
    // A word typed with decomposed accents (pasted from a Mac) is one word, as search reads it.
    expect(rewrite("je suis harcele\u0301e", [{ typed: "harcelée", readAs: "harcelé" }])).toBe(
      "je suis harcelé",
    );
  });
});

describe("correctSpelling", () => {
  const vocabulary = {
    rupture: 900,
    conventionnelle: 120,
    conventionnel: 40,
    essai: 300,
    esa: 2,
    periode: 2000,
  };

  it("reads a word no provision uses as the most used word a keystroke away", async () => {
    const { count, calls } = counter(vocabulary);
    expect(await correctSpelling("rupture conventionelle", count)).toEqual([
      { typed: "conventionelle", readAs: "conventionnelle" },
    ]);
    // One statement for the query's words, one for the candidates.
    expect(calls).toHaveLength(2);
    expect(calls[0]).toEqual(["rupture", "conventionelle"]);
  });

  it("never reads a French word as another, and reads a feminine in « -ée » no provision uses as its masculine", async () => {
    // French words the codes do not write: one keystroke from words they do, they are no slips.
    const vocabulary = { urban: 5, papier: 50, deux: 9000, harcelé: 12, harcèlement: 80, contrat: 3000 };
    const { count, calls } = counter(vocabulary);
    expect(await correctSpelling("port du turban", count)).toEqual([]);
    expect(await correctSpelling("fatigue des yeux", count)).toEqual([]);
    // No candidate counted for them: the only statements counted the query's words.
    expect(calls).toEqual([
      ["port", "turban"],
      ["fatigue", "yeux"],
    ]);
    // Accents aside, as people type (« fievre », « sœur » as « soeur »), but for the literary
    // tenses told only by a circumflex: « contat » is a slip for « contrat », no « contât ».
    expect(await correctSpelling("fievre soeur sœur", count)).toEqual([]);
    expect(await correctSpelling("contat", count)).toEqual([{ typed: "contat", readAs: "contrat" }]);
    // A feminine the codes never write, as its masculine, lower case (accents folded before
    // stemming part the two), typed with its accents or without.
    expect(await correctSpelling("Harcelée au travail", count)).toEqual([
      { typed: "Harcelée", readAs: "harcelé" },
    ]);
    expect(await correctSpelling("harcelee", count)).toEqual([{ typed: "harcelee", readAs: "harcele" }]);
    expect(masculineOf("salariées")).toEqual(["salariés"]);
    expect(masculineOf("turban")).toEqual([]);
    // Only a masculine that is French: « mosquée » has none (« mosqué »).
    const withMosque = counter({ ...vocabulary, mosqué: 3 });
    expect(await correctSpelling("mosquée", withMosque.count)).toEqual([]);
    // A slip is still read: « harcelemnt » is no French word.
    expect(await correctSpelling("harcelemnt", count)).toEqual([
      { typed: "harcelemnt", readAs: "harcelement" },
    ]);
    // French words take none of the MAX_CORRECTIONS places: the slip after them is read.
    expect(
      await correctSpelling("turban panier foulard licenciment", counter({ licenciement: 900 }).count),
    ).toEqual([{ typed: "licenciment", readAs: "licenciement" }]);
  });

  it("never changes a word some provision uses, nor one with synonyms, nor a short one", async () => {
    const { count } = counter(vocabulary);
    expect(await correctSpelling("rupture conventionnelle", count)).toEqual([]);
    const synonyms = Synonyms.parse(
      "version: 1\ngroups:\n  - [contrat à durée déterminée, contratdd]\n",
      "s.yaml",
    );
    expect(await correctSpelling("contratdd", count, { synonyms })).toEqual([]);
    expect(await correctSpelling("esa", count)).toEqual([]);
  });

  it("leaves a word as typed when nothing a keystroke away is used", async () => {
    const { count } = counter(vocabulary);
    expect(await correctSpelling("xqzwv", count)).toEqual([]);
  });

  it("remembers each word's reading: a word searched again costs no statement", async () => {
    const { count, calls } = counter(vocabulary);
    const readings = new Map<string, string | null>();
    await correctSpelling("période d'esai rupture", count, { readings });
    const before = calls.length;
    expect(await correctSpelling("Rupture esai", count, { readings })).toEqual([
      { typed: "esai", readAs: "essai" },
    ]);
    expect(calls.length).toBe(before);
  });

  it(`reads at most ${MAX_CORRECTIONS} words of a query, in one statement for their candidates`, async () => {
    const { count, calls } = counter({ essai: 3, rupture: 3, contrat: 3, salarie: 3 });
    const corrections = await correctSpelling("esai ruptur contrta salarei", count);
    expect(corrections.map((c) => c.typed)).toEqual(["esai", "ruptur", "contrta"]);
    expect(calls).toHaveLength(2);
  });

  it("costs nothing when the query has no word to check", async () => {
    const { count, calls } = counter(vocabulary);
    expect(await correctSpelling("L1237-11 de la", count)).toEqual([]);
    expect(calls).toHaveLength(0);
  });
});

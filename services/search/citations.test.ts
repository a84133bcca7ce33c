import { describe, expect, it } from "vitest";
import { articleNumberKey, documentAliases, parseCitation } from "./citations.ts";

const LOADED = [
  { publicId: "code-du-travail", title: "Code du travail" },
  { publicId: "code-de-la-securite-sociale", title: "Code de la sécurité sociale" },
  { publicId: "code-rural-et-de-la-peche-maritime", title: "Code rural et de la pêche maritime" },
  {
    publicId: "code-des-relations-entre-le-public-et-l-administration",
    title: "Code des relations entre le public et l'administration",
  },
];

const read = (text: string) => {
  const parsed = parseCitation(text, LOADED);
  return [parsed.numberKey, parsed.documents.map((d) => d.publicId)];
};

describe("parseCitation", () => {
  it("reads the ways lawyers write an article of a code", () => {
    expect(read("article L. 1237-1-1 du code du travail")).toEqual(["L1237-1-1", ["code-du-travail"]]);
    expect(read("Art. R4451-39 C. trav.")).toEqual(["R4451-39", ["code-du-travail"]]);
    expect(read("L. 161-1 du code de la sécurité sociale")).toEqual([
      "L161-1",
      ["code-de-la-securite-sociale"],
    ]);
    expect(read("CSS art. L 161-1")).toEqual(["L161-1", ["code-de-la-securite-sociale"]]);
    expect(read("article L. 211-2 du CRPA")).toEqual([
      "L211-2",
      ["code-des-relations-entre-le-public-et-l-administration"],
    ]);
    expect(read("art. L.1 du code rural et de la pêche maritime")).toEqual([
      "L1",
      ["code-rural-et-de-la-peche-maritime"],
    ]);
    expect(read("D. 312-1-3 code rural")).toEqual(["D312-1-3", ["code-rural-et-de-la-peche-maritime"]]);
  });

  it("keeps a number without a document, and says what it could not match", () => {
    expect(read("article L1237-19")).toEqual(["L1237-19", []]);
    const unknown = parseCitation("article 1240 du code civil", LOADED);
    expect(unknown.numberKey).toBe("1240");
    expect(unknown.documents).toEqual([]);
    expect(unknown.unmatchedDocumentText).toBe("code civil");
  });

  it("derives initials and abbreviations from titles", () => {
    expect(documentAliases("Code du travail")).toEqual(
      expect.arrayContaining(["code du travail", "ct", "c trav"]),
    );
    expect(documentAliases("Code rural et de la pêche maritime")).toContain("crpm");
  });
});

describe("articleNumberKey (search queries)", () => {
  it("reads an article number in every usual written form", () => {
    for (const q of [
      "L1237-1-1",
      "l1237-1-1",
      "L 1237-1-1",
      "L. 1237-1-1",
      "article L. 1237-1-1",
      "art. L1237-1-1",
    ])
      expect(articleNumberKey(q), q).toBe("L1237-1-1");
    expect(articleNumberKey("Article R4451-39 du code du travail")).toBe("R4451-39");
    expect(articleNumberKey("article 1")).toBe("1");
    // The first number-like text is not always the article's.
    expect(articleNumberKey("délai de 15 jours article L1234-5")).toBe("L1234-5");
  });

  it("takes a bare number for an article only after 'article', and 'a 16' for no article A16", () => {
    for (const q of ["35 heures", "durée 2023", "le délai de 15 jours", "travail a 16 ans", "CDD"])
      expect(articleNumberKey(q), q).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { documentAliases, parseCitation } from "./citations.ts";

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

import { describe, expect, it } from "vitest";
import {
  agreementMention,
  articleNumberKey,
  codeReader,
  documentAliases,
  parseCitation,
} from "./citations.ts";

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
    expect(articleNumberKey("article 1er")).toBe("1ER");
    expect(articleNumberKey("article 3.4 période d'essai")).toBe("3.4");
    expect(articleNumberKey("art. 1.2.1")).toBe("1.2.1");
    // The first number-like text is not always the article's.
    expect(articleNumberKey("délai de 15 jours article L1234-5")).toBe("L1234-5");
  });

  it("takes a bare number for an article only after 'article', and 'a 16' for no article A16", () => {
    for (const q of ["35 heures", "durée 2023", "le délai de 15 jours", "travail a 16 ans", "CDD"])
      expect(articleNumberKey(q), q).toBeNull();
  });
});

describe("codes named in queries", () => {
  const read = codeReader([
    ...LOADED.map((doc) => ({ ...doc, kind: "code" })),
    { publicId: "code-forestier-nouveau", title: "Code forestier (nouveau)", kind: "code" },
    {
      publicId: "idcc-1486",
      title: "Convention collective nationale… Syntec",
      aliases: ["Syntec"],
      kind: "collective_agreement",
    },
    { publicId: "code-de-la-route-commente", title: "Code de la route commenté", kind: "law" },
  ]);
  const named = (text: string) => {
    const mention = read(text);
    return mention && [mention.publicId, mention.text];
  };

  it("reads a code by its title, in any case and with or without accents, and where it stands", () => {
    expect(named("travail de nuit code du travail")).toEqual(["code-du-travail", "code du travail"]);
    expect(named("Code du Travail : toilettes")).toEqual(["code-du-travail", "Code du Travail"]);
    expect(named("affiliation code de la securite sociale")).toEqual([
      "code-de-la-securite-sociale",
      "code de la securite sociale",
    ]);
    // Positions are the written text's, accents and all.
    expect(read("écrit selon le Code de la sécurité sociale")).toMatchObject({
      start: 15,
      end: 42,
      text: "Code de la sécurité sociale",
    });
    expect(named("coupe de bois code forestier")).toEqual(["code-forestier-nouveau", "code forestier"]);
  });

  it("reads a title joined by « et » by its head, and the whole title when written", () => {
    expect(named("bail rural code rural")).toEqual(["code-rural-et-de-la-peche-maritime", "code rural"]);
    expect(named("code rural et de la pêche maritime, fermage")).toEqual([
      "code-rural-et-de-la-peche-maritime",
      "code rural et de la pêche maritime",
    ]);
  });

  it("reads no code in an abbreviation, the website's name, an act's citation, or a document of another kind", () => {
    for (const text of [
      "CT congés payés",
      "CSS affiliation",
      "code du travail numérique",
      "le code du travail numerique simulateur",
      "ordonnance 2007-329 relative au code du travail",
      "loi n° 2016-1088 code du travail",
      "droit du travail",
      "code de la route commenté",
      "convention collective Syntec",
    ])
      expect(read(text), text).toBeNull();
  });

  it("returns the earliest code a text names", () => {
    expect(named("code rural ou code du travail")?.[0]).toBe("code-rural-et-de-la-peche-maritime");
  });
});

describe("collective agreements in citations and queries (issue 21)", () => {
  const AGREEMENTS = [
    ...LOADED,
    {
      publicId: "idcc-1486",
      title: "Convention collective nationale des bureaux d'études techniques… du 16 juillet 2021",
      shortTitle: "Bureaux d'études techniques, cabinets d'ingénieurs-conseils et sociétés de conseils",
      aliases: ["Syntec"],
    },
    {
      publicId: "idcc-1480",
      title: "Convention collective nationale des journalistes",
      shortTitle: "Journalistes",
    },
    {
      publicId: "idcc-2216",
      title: "Convention collective…",
      shortTitle: "Commerce de détail et de gros à prédominance alimentaire",
    },
    {
      publicId: "idcc-413",
      title: "Convention collective… du 15 mars 1966",
      shortTitle: "Handicapés : établissements",
      aliases: ["CCN 66"],
    },
    { publicId: "idcc-2511", title: "Convention collective nationale du sport", shortTitle: "Sport" },
  ];
  const named = (text: string) => agreementMention(text, AGREEMENTS)?.publicId ?? null;
  const cite = (text: string) => {
    const parsed = parseCitation(text, AGREEMENTS);
    return [parsed.numberKey, parsed.documents.map((d) => d.publicId)];
  };

  it("reads an agreement by IDCC, by « convention collective » and a name, or by a usual name", () => {
    expect(named("IDCC 1486")).toBe("idcc-1486");
    expect(named("idcc n° 1486 période d'essai")).toBe("idcc-1486");
    expect(named("convention collective 2216")).toBe("idcc-2216");
    expect(named("convention collective Syntec")).toBe("idcc-1486");
    expect(named("période d'essai syntec")).toBe("idcc-1486");
    expect(named("la convention collective des journalistes")).toBe("idcc-1480");
    expect(named("CCN 66 congés")).toBe("idcc-413");
    expect(named("convention collective nationale du sport")).toBe("idcc-2511");
  });

  it("reads no agreement in ordinary words, nor an IDCC that is not loaded", () => {
    for (const text of [
      "sport et travail",
      "journalistes pigistes",
      "IDCC 9999",
      "article 1486",
      "35 heures",
    ])
      expect(named(text), text).toBeNull();
  });

  it("resolves an article of an agreement: its number, never the IDCC", () => {
    expect(cite("article 7.2 de la convention collective 2216")).toEqual(["7.2", ["idcc-2216"]]);
    expect(cite("IDCC 1486 article 3.4")).toEqual(["3.4", ["idcc-1486"]]);
    expect(cite("convention collective Syntec, art. 1er")).toEqual(["1ER", ["idcc-1486"]]);
    expect(cite("IDCC 1486")).toEqual([null, ["idcc-1486"]]);
  });
});

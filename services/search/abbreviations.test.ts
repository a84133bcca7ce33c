import { describe, expect, it } from "vitest";
import { abbreviationReadings, chooseAbbreviations } from "./abbreviations.ts";

describe("chooseAbbreviations", () => {
  it("takes the full form the most guides give, written as most write it", () => {
    const chosen = chooseAbbreviations([
      { guide: "a", short: "CSP", long: "contrat de sécurisation professionnelle" },
      { guide: "b", short: "CSP", long: "Contrat de sécurisation professionnelle" },
      { guide: "b", short: "CSP", long: "contrat de sécurisation professionnelle" },
      { guide: "c", short: "CSP", long: "catégorie socioprofessionnelle" },
    ]);
    expect(chosen).toEqual([{ short: "CSP", long: "contrat de sécurisation professionnelle", guides: 2 }]);
  });

  it("counts a guide once per full form, and leaves out an abbreviation two forms share the lead for", () => {
    expect(
      chooseAbbreviations([
        { guide: "a", short: "CE", long: "comité d'entreprise" },
        { guide: "a", short: "CE", long: "comité d'entreprise" },
        { guide: "a", short: "CE", long: "comité d'entreprise" },
        { guide: "b", short: "CE", long: "Conseil d'État" },
      ]),
    ).toEqual([]);
  });
});

describe("abbreviationReadings", () => {
  it("says which abbreviations the codes also use as a word", () => {
    const definitions = [
      { guide: "a", short: "CSSCT", long: "commission santé, sécurité et conditions de travail" },
      { guide: "a", short: "CET", long: "compte épargne-temps" },
      { guide: "a", short: "SA", long: "société anonyme" },
      { guide: "a", short: "ZZZ", long: "zone zéro zéro" },
    ];
    const words = new Map([
      ["CSSCT", { used: false, stopWord: false }],
      ["CET", { used: true, stopWord: false }],
      ["SA", { used: false, stopWord: true }],
    ]);
    expect(abbreviationReadings(definitions, words)).toEqual([
      { short: "CET", long: "compte épargne-temps", wordOfTheCodes: true },
      { short: "CSSCT", long: "commission santé, sécurité et conditions de travail", wordOfTheCodes: false },
      { short: "SA", long: "société anonyme", wordOfTheCodes: true },
    ]);
  });
});

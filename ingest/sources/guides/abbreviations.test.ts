import { describe, expect, it } from "vitest";
import { findAbbreviations } from "./abbreviations.ts";

describe("findAbbreviations", () => {
  it("reads a full form before its abbreviation, each word giving a letter, small words none", () => {
    expect(
      findAbbreviations(
        "Dans les entreprises d'au moins 300 salariés, la commission santé, sécurité et conditions de travail (CSSCT) est créée au sein du CSE.",
      ),
    ).toEqual([{ short: "CSSCT", long: "commission santé, sécurité et conditions de travail" }]);
    expect(findAbbreviations("Le dispositif d’activité partielle de longue durée (APLD) permet…")).toEqual([
      { short: "APLD", long: "activité partielle de longue durée" },
    ]);
    // A small word never gives a letter: « et » does not stand for the E of ESAT.
    expect(findAbbreviations("un établissement et service d'aide par le travail (ESAT)")).toEqual([
      { short: "ESAT", long: "établissement et service d'aide par le travail" },
    ]);
  });

  it("splits words at hyphens and apostrophes, and folds accents and case", () => {
    expect(findAbbreviations("Le compte épargne-temps (CET) permet…")).toEqual([
      { short: "CET", long: "compte épargne-temps" },
    ]);
    expect(findAbbreviations("Les Entreprises Adaptées (EA)")).toEqual([
      { short: "EA", long: "Entreprises Adaptées" },
    ]);
  });

  it("reads the full form in parentheses after the abbreviation", () => {
    expect(findAbbreviations("Le CSE (comité social et économique) est consulté.")).toEqual([
      { short: "CSE", long: "comité social et économique" },
    ]);
    // The parenthesis must be the whole full form: a remark that happens to start alike is not.
    expect(findAbbreviations("Le CSE (comité social et économique, dès 11 salariés) est consulté.")).toEqual(
      [],
    );
  });

  it("defines nothing where the words do not spell the abbreviation", () => {
    // A word that gives no letter breaks the spelling: GEIQ is not « certains groupements d'employeurs ».
    expect(findAbbreviations("Exonération spécifique pour certains groupements d’employeurs (GEIQ)")).toEqual(
      [],
    );
    expect(findAbbreviations("Il est versé par l'employeur (article L. 1234-9).")).toEqual([]);
    expect(findAbbreviations("un contrat (CDD) conclu")).toEqual([]);
    // Lower case in parentheses is no abbreviation; one letter is too short.
    expect(findAbbreviations("la rupture conventionnelle (rc)")).toEqual([]);
    expect(findAbbreviations("le titre (T)")).toEqual([]);
  });

  it("does not reach across a sentence or a clause", () => {
    expect(findAbbreviations("Voir la convention. Sécurité et conditions de travail (CSSCT)")).toEqual([]);
    expect(findAbbreviations("la commission. Santé, sécurité et conditions de travail (SSCT)")).toEqual([
      { short: "SSCT", long: "Santé, sécurité et conditions de travail" },
    ]);
  });
});

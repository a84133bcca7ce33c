import { describe, expect, it } from "vitest";
import { InputError } from "../core/errors.ts";
import { queryTerms } from "./query-text.ts";
import { Synonyms } from "./synonyms.ts";

const FILE = `version: 1
groups:
  - [contrat à durée déterminée, CDD]
  - [salaire minimum interprofessionnel de croissance, SMIC, salaire minimum]
`;

describe("Synonyms", () => {
  const synonyms = Synonyms.parse(FILE, "synonyms.yaml");

  it("expands a word into its group, the word as typed first, ignoring case and accents", () => {
    expect(synonyms.alternatives("cdd")).toEqual(["cdd", "contrat à durée déterminée"]);
    expect(synonyms.alternatives("Smic")).toEqual([
      "Smic",
      "salaire minimum interprofessionnel de croissance",
      "salaire minimum",
    ]);
    expect(synonyms.alternatives("licenciement")).toEqual(["licenciement"]);
  });

  it("makes each term of a query a list of alternatives, stop words left out", () => {
    expect(queryTerms("Quelle est la durée maximale d'un CDD ?", synonyms)).toEqual([
      ["durée"],
      ["maximale"],
      ["CDD", "contrat à durée déterminée"],
    ]);
  });

  it("reads abbreviations as the group's full form, for the answer composer", () => {
    expect(synonyms.canonical("Peut-on renouveler un CDD ?")).toBe(
      "Peut-on renouveler un contrat à durée déterminée ?",
    );
  });

  it("names the file and the group when the file is wrong", () => {
    const wrong = (text: string) => () => Synonyms.parse(text, "synonyms.yaml");
    expect(wrong("version: 1\ngroups:\n  - [CDD]\n")).toThrow(
      /synonyms.yaml: groups.0: a group needs at least two/,
    );
    expect(wrong("version: 1\ngroups:\n  - [CDD, contrat]\n  - [cdd, autre]\n")).toThrow(
      /groups.1: "cdd" is already in group 0/,
    );
    expect(wrong("version: 2\ngroups: []\n")).toThrow(InputError);
    expect(wrong("groups: [\n")).toThrow(/malformed YAML/);
  });

  it("reads the guides' abbreviations where the file has no group, a word of the codes only in capitals", () => {
    const withGuides = synonyms.withAbbreviations([
      { short: "CSSCT", long: "commission santé, sécurité et conditions de travail", wordOfTheCodes: false },
      { short: "CET", long: "compte épargne-temps", wordOfTheCodes: true },
      { short: "SA", long: "société anonyme", wordOfTheCodes: true },
      // The file names CDD: its group stands.
      { short: "CDD", long: "contrat de travail à durée déterminée", wordOfTheCodes: false },
    ]);
    expect(withGuides.abbreviationCount).toBe(3);
    expect(withGuides.alternatives("cssct")).toEqual([
      "cssct",
      "commission santé, sécurité et conditions de travail",
    ]);
    expect(withGuides.alternatives("CDD")).toEqual(["CDD", "contrat à durée déterminée"]);
    // A word of the codes stays the word it is, and is the abbreviation too where written as one.
    expect(withGuides.alternatives("CET")).toEqual(["CET", "compte épargne-temps"]);
    expect(withGuides.alternatives("cet")).toEqual(["cet"]);
    expect(withGuides.alternatives("CET", false)).toEqual(["CET"]);
    expect(queryTerms("Alimenter son CET", withGuides)).toEqual([
      ["Alimenter"],
      ["CET", "compte épargne-temps"],
    ]);
    expect(queryTerms("alimenter cet compte", withGuides)).toEqual([["alimenter"], ["cet"], ["compte"]]);
    // A stop word in capitals is searched as the abbreviation; a query all in capitals tells nothing.
    expect(queryTerms("capital d'une SA", withGuides)).toEqual([["capital"], ["société anonyme"]]);
    expect(queryTerms("CAPITAL D'UNE SA", withGuides)).toEqual([["CAPITAL"]]);
    // A query of one word in capitals is the abbreviation.
    expect(queryTerms("CET", withGuides)).toEqual([["CET", "compte épargne-temps"]]);
    expect(withGuides.canonical("Rôle de la CSSCT et CET")).toBe(
      "Rôle de la commission santé, sécurité et conditions de travail et compte épargne-temps",
    );
    // The file's synonyms themselves are left as they were.
    expect(synonyms.alternatives("CSSCT")).toEqual(["CSSCT"]);
  });

  it("reads an abbreviation the query spells out once, as the query's own words", () => {
    expect(queryTerms("Durée d'un contrat à durée déterminée (CDD)", synonyms)).toEqual([
      ["Durée"],
      ["contrat"],
      ["déterminée"],
    ]);
    expect(queryTerms("Durée d'un CDD", synonyms)).toEqual([
      ["Durée"],
      ["CDD", "contrat à durée déterminée"],
    ]);
  });

  it("reads an everyday name as the full form too, where the query uses it, stemmed and stop words aside", () => {
    const everyday = Synonyms.parse(
      `version: 1
groups:
  - [bulletin de paie, fiche de paie, feuille de paie]
  - [congé de maternité, congé maternité]
`,
      "synonyms.yaml",
    );
    // Each word of the name also searches the full form, so the provision the law writes it in holds both terms.
    expect(queryTerms("Mes fiches de la paie sont fausses", everyday)).toEqual([
      ["fiches", "bulletin de paie"],
      ["paie", "bulletin de paie"],
      ["fausses"],
    ]);
    // The full form itself is searched as written; the words apart are no name.
    expect(queryTerms("bulletin de paie", everyday)).toEqual([["bulletin"], ["paie"]]);
    expect(queryTerms("fiche de poste et paie", everyday)).toEqual([["fiche"], ["poste"], ["paie"]]);
    // A member whose words are the full form's is no everyday name: nothing to read otherwise.
    expect(queryTerms("congé maternité", everyday)).toEqual([["congé"], ["maternité"]]);
    // The answer composer reads the question with the full form.
    expect(everyday.canonical("Que faire sans feuille de paie ?")).toBe("Que faire sans bulletin de paie ?");
    expect(everyday.everydayNames("Fiche de paie et feuille de paie")).toEqual([
      { start: 0, end: 13, words: ["Fiche", "paie"], full: "bulletin de paie" },
      { start: 17, end: 32, words: ["feuille", "paie"], full: "bulletin de paie" },
    ]);
  });

  it("reads a verb as the act the law names by a noun, where stemming keeps them apart (acts)", () => {
    const acts = Synonyms.parse(
      `version: 1
groups:
  - [contrat à durée déterminée, CDD]
acts:
  - [démission, démissionner]
  - [rupture, rompre, rompu]
`,
      "synonyms.yaml",
    );
    // Any form the stemmer joins to a listed one: the verb's forms, then the noun.
    expect(acts.alternatives("démissionner")).toEqual(["démissionner", "démission"]);
    expect(acts.alternatives("Démissionné")).toEqual(["Démissionné", "démission"]);
    expect(acts.alternatives("rompre")).toEqual(["rompre", "rupture", "rompu"]);
    expect(acts.alternatives("rompue")).toEqual(["rompue", "rupture", "rompre"]);
    // The noun is the law's own word: searched as written.
    expect(acts.alternatives("rupture")).toEqual(["rupture"]);
    expect(acts.alternatives("démission")).toEqual(["démission"]);
    // What answers read too (answer/text.ts): the act's other forms, none for the noun or another word.
    expect(acts.actReadings("Démissionné")).toEqual(["démission"]);
    expect(acts.actReadings("rompu")).toEqual(["rupture", "rompre"]);
    expect(acts.actReadings("rupture")).toBeUndefined();
    expect(acts.actReadings("salarié")).toBeUndefined();
    expect(queryTerms("Peut-on rompre un CDD ?", acts)).toEqual([
      ["rompre", "rupture", "rompu"],
      ["CDD", "contrat à durée déterminée"],
    ]);
  });

  it("names the file and the entry when an act is wrong", () => {
    const wrong = (acts: string) => () =>
      Synonyms.parse(`version: 1\ngroups:\n  - [CDD, contrat court]\nacts:\n${acts}`, "synonyms.yaml");
    expect(wrong("  - [rupture]\n")).toThrow(/synonyms.yaml: acts.0: an act needs its noun/);
    expect(wrong("  - [rupture, rompre le contrat]\n")).toThrow(
      /acts.0.1: an act's noun and verb forms are single words/,
    );
    // « ruptures » is the noun as stemming reads it: nothing to join.
    expect(wrong("  - [rupture, ruptures]\n")).toThrow(/acts.0: "ruptures" is the noun "rupture"/);
    expect(wrong("  - [rupture, rompre]\n  - [cassure, rompre]\n")).toThrow(
      /acts.1: "rompre" reads as a verb form of act 0/,
    );
    expect(wrong("  - [abréviation, CDD]\n")).toThrow(/acts.0: "CDD" is in group 0/);
    // The noun is searched as written: no other act may read it as a verb.
    expect(wrong("  - [rupture, rompre]\n  - [cassure, ruptures]\n")).toThrow(
      /acts.1: "ruptures" reads as the noun of act 0/,
    );
    expect(wrong("  - [été, rompre]\n")).toThrow(/acts.0: "été" is a stop word/);
    expect(wrong("  - [rupture, avait]\n")).toThrow(/acts.0: "avait" is a stop word/);
    expect(wrong("  - [CDD, rompre]\n")).toThrow(/acts.0: "CDD" is in group 0/);
  });

  it("reads a lay word as the codes' words too, one way, and never rewrites it for answers (lay)", () => {
    const lay = Synonyms.parse(
      `version: 1
groups:
  - [contrat à durée déterminée, CDD]
lay:
  - [alcool, boisson alcoolisée]
  - [vacances, congés payés]
`,
      "synonyms.yaml",
    );
    expect(lay.alternatives("Alcool")).toEqual(["Alcool", "boisson alcoolisée"]);
    // As written: « vacance » (de poste) is a vacancy, not the holidays.
    expect(lay.alternatives("vacances")).toEqual(["vacances", "congés payés"]);
    expect(lay.alternatives("vacance")).toEqual(["vacance"]);
    // One way: the codes' words are searched as written.
    expect(queryTerms("boisson alcoolisée", lay)).toEqual([["boisson"], ["alcoolisée"]]);
    expect(queryTerms("Le taux d'alcool autorisé", lay)).toEqual([
      ["taux"],
      ["alcool", "boisson alcoolisée"],
      ["autorisé"],
    ]);
    // A lay word is more than its reading: a query writing both keeps it (unlike an abbreviation
    // the query spells out).
    expect(queryTerms("congés payés pendant les vacances scolaires", lay)).toEqual([
      ["congés"],
      ["payés"],
      ["pendant"],
      ["vacances", "congés payés"],
      ["scolaires"],
    ]);
    // The guides' abbreviations leave the file's lay words as they are.
    const withGuides = lay.withAbbreviations([
      { short: "ALCOOL", long: "association de lutte contre l'alcoolisme", wordOfTheCodes: false },
    ]);
    expect(withGuides.abbreviationCount).toBe(0);
    expect(withGuides.alternatives("ALCOOL")).toEqual(["ALCOOL", "boisson alcoolisée"]);
    // Answers read the question as asked: « taux d'alcool » stays what it is.
    expect(lay.canonical("Le taux d'alcool en CDD")).toBe("Le taux d'alcool en contrat à durée déterminée");
  });

  it("leaves a lay word as written in the set phrases of another sense its entry lists (not_in)", () => {
    const lay = Synonyms.parse(
      `version: 1
groups: []
lay:
  - word: vacances
    means: [congés payés]
    not_in: [chèque vacances, les vacances scolaires, vacances de poste]
`,
      "synonyms.yaml",
    );
    const read = (q: string) => [...lay.layWordsIn(q)];
    expect(read("À combien de jours de vacances ai-je droit ?")).toEqual(["vacances"]);
    // Stemmed, over a hyphen too, a stop word's place holding a stop word.
    expect(read("Qui a droit aux chèques vacances ?")).toEqual([]);
    expect(read("Des éco-chèques vacances ?")).toEqual([]);
    // A part of a hyphenated word is no word of its own: search keeps « chèque-vacances » whole.
    expect(read("Le chèque-vacances, qu'est-ce que c'est ?")).toEqual([]);
    expect(read("travailler pendant les VACANCES SCOLAIRES")).toEqual([]);
    expect(read("publication des vacances de postes")).toEqual([]);
    expect(read("vacances du poste")).toEqual([]);
    expect(read("poste pendant les vacances")).toEqual(["vacances"]);
    // Not across punctuation (a spaced dash too); a stop word's place holds a stop word only.
    expect(read("Licencié pendant mes vacances, mon poste est-il protégé ?")).toEqual(["vacances"]);
    expect(read("travail pendant les vacances - scolaires ou non")).toEqual(["vacances"]);
    expect(read("vacances sans poste")).toEqual(["vacances"]);
    expect(read("vacances vacances poste")).toEqual(["vacances"]);
    // « prime-vacances » is one word to search: the other « vacances » alone decides.
    expect(read("prime-vacances pendant les vacances scolaires")).toEqual([]);
    expect(read("prime-vacances pendant les vacances")).toEqual(["vacances"]);
    expect(read("VACANCES SCOLAIRES : travail des jeunes")).toEqual([]);
    // Read where the text writes the word outside its set phrases at least once.
    expect(read("les chèques vacances servent-ils pendant les vacances ?")).toEqual(["vacances"]);
    expect(queryTerms("chèques vacances et CSE", lay)).toEqual([["chèques"], ["vacances"], ["CSE"]]);
    expect(queryTerms("arrêt maladie pendant les vacances", lay)).toEqual([
      ["arrêt"],
      ["maladie"],
      ["pendant"],
      ["vacances", "congés payés"],
    ]);
    // Out of context (spelling, a word's own readings), the word still has its reading.
    expect(lay.layReadings("vacances")).toEqual(["congés payés"]);
  });

  it("names the file and the entry when a lay word is wrong", () => {
    const wrong = (lay: string) => () =>
      Synonyms.parse(
        `version: 1\ngroups:\n  - [CDD, contrat court]\nacts:\n  - [rupture, rompre]\nlay:\n${lay}`,
        "synonyms.yaml",
      );
    expect(wrong("  - [alcool]\n")).toThrow(/synonyms.yaml: lay.0.means: a lay word needs the codes' words/);
    expect(wrong("  - [taux d'alcool, alcoolémie]\n")).toThrow(/lay.0: a lay word is a single word/);
    expect(wrong("  - [alcool, boisson]\n  - [Alcool, ivresse]\n")).toThrow(
      /lay.1: "Alcool" is the lay word of entry 0/,
    );
    expect(wrong("  - [cdd, contrat]\n")).toThrow(/lay.0: "cdd" is in group 0/);
    expect(wrong("  - [rompre, rupture]\n")).toThrow(/lay.0: "rompre" is a word of an act/);
    expect(wrong("  - [vacances, la vacance]\n")).toThrow(/lay.0: "vacances" is read as itself/);
    expect(wrong("  - [sont, existent]\n")).toThrow(/lay.0: "sont" is a stop word/);
    expect(wrong("  - [alcool, de la]\n")).toThrow(/lay.0: "alcool" is read as "de la", stop words only/);
    expect(wrong("  - { word: vacances, means: [congés payés], not_in: [chèque déjeuner] }\n")).toThrow(
      /lay.0: "vacances" is not in its set phrase "chèque déjeuner"/,
    );
    expect(wrong("  - { word: vacances, means: [congés payés], not_in: [les vacances] }\n")).toThrow(
      /lay.0: "vacances" has "les vacances" for a set phrase: a set phrase has another word/,
    );
    expect(wrong("  - { word: vacances, means: [] }\n")).toThrow(
      /lay.0.means: a lay word needs the codes' words/,
    );
    expect(wrong("  - { word: vacances, means: [congés payés], except: [x] }\n")).toThrow(
      /lay.0: Unrecognized key: "except"/,
    );
    expect(wrong("  - { word: vacances, means: [congés payés], not_in: [CDD vacances] }\n")).toThrow(
      /lay.0: "vacances" has "CDD vacances" for a set phrase: "CDD" is in group 0/,
    );
  });

  it("loads the repository's file", () => {
    const bundled = Synonyms.bundled();
    expect(bundled.groups.length).toBeGreaterThan(20);
    expect(bundled.alternatives("CSE")).toContain("comité social et économique");
    // A phrase with a comma stays whole; a word that is also a verb is not an abbreviation here.
    expect(bundled.alternatives("CHSCT")).toContain(
      "comité d'hygiène, de sécurité et des conditions de travail",
    );
    expect(bundled.alternatives("prépare")).toEqual(["prépare"]);
    // Acts: every entry's verb forms read as its noun, stemming keeping them apart.
    expect(bundled.acts.length).toBeGreaterThan(20);
    expect(bundled.alternatives("démissionner")).toContain("démission");
    expect(bundled.alternatives("rupture")).toEqual(["rupture"]);
    // Search and /answer read the file with the guides' abbreviations: the acts stay.
    expect(bundled.withAbbreviations([]).alternatives("rompt")).toEqual([
      "rompt",
      "rupture",
      "rompre",
      "rompu",
    ]);
    // Everyday names, read as the codes' words.
    expect(bundled.canonical("Le chômage technique est-il payé ?")).toBe(
      "Le activité partielle est-il payé ?",
    );
    expect(queryTerms("ticket resto", bundled)).toEqual([
      ["ticket", "titre-restaurant"],
      ["resto", "titre-restaurant"],
    ]);
    // No verb of a « mise … » act is listed: stop words are skipped in names, so « me mettre à la
    // retraite » (leaving of one's own accord) would read as the employer's « mise à la retraite ».
    expect(queryTerms("Je veux me mettre à la retraite", bundled)).toEqual([["mettre"], ["retraite"]]);
    for (const group of bundled.groups)
      for (const member of group) expect(member, `${group[0]}: "${member}"`).toMatch(/^\p{L}/u);
  });
});

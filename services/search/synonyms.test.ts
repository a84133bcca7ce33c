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

  it("loads the repository's file", () => {
    const bundled = Synonyms.bundled();
    expect(bundled.groups.length).toBeGreaterThan(20);
    expect(bundled.alternatives("CSE")).toContain("comité social et économique");
    // A phrase with a comma stays whole; a word that is also a verb is not an abbreviation here.
    expect(bundled.alternatives("CHSCT")).toContain(
      "comité d'hygiène, de sécurité et des conditions de travail",
    );
    expect(bundled.alternatives("prépare")).toEqual(["prépare"]);
    for (const group of bundled.groups)
      for (const member of group) expect(member, `${group[0]}: "${member}"`).toMatch(/^\p{L}/u);
  });
});

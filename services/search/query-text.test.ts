import { describe, expect, it } from "vitest";
import { MAX_QUERY_TERMS, minimumShouldMatch, queryTerms, queryWords } from "./query-text.ts";
import { Synonyms } from "./synonyms.ts";

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
    expect(queryWords("maintenue jusqu’à l'âge, lorsqu'il part, puisqu'elle quoiqu'on")).toEqual([
      "maintenue",
      "à",
      "âge",
      "part",
    ]);
    expect(queryWords("Que dit le code du travail sur le travail de nuit ?")).toEqual([
      "le",
      "code",
      "du",
      "travail",
      "sur",
      "le",
      "travail",
      "de",
      "nuit",
    ]);
    expect(queryWords("Que veut dire « faute grave » ? que signifie astreinte")).toEqual([
      "faute",
      "grave",
      "astreinte",
    ]);
    // The verbs a person asks with, in any person: no provision writes « veux » or « dois ».
    expect(queryWords("je veux démissionner, à qui dois-je écrire ? Puis-je refuser ?")).toEqual([
      "démissionner",
      "à",
      "écrire",
      "refuser",
    ]);
    expect(queryWords("Un salarié pourrait-il refuser ?")).toEqual(["Un", "salarié", "refuser"]);
    expect(queryWords("Pouvez-vous m'expliquer, peux-tu le dire ?")).toEqual(["expliquer", "le"]);
    // « existe-t-il » asks whether something is; « existe » alone may be what is asked about.
    expect(queryWords("Existe-t-il un délai de prescription ? La sanction existe-t-elle ?")).toEqual([
      "un",
      "délai",
      "de",
      "prescription",
      "La",
      "sanction",
    ]);
    expect(queryWords("le délit existe")).toEqual(["le", "délit", "existe"]);
    expect(queryWords("Existait-il un plafond ? existe-il encore, existera-t-il ?")).toEqual([
      "un",
      "plafond",
      "encore",
    ]);
    expect(queryWords("L1237-1-1")).toEqual(["L1237-1-1"]);
    expect(queryWords("-exclu")).toEqual(["exclu"]);
  });

  it("reads a decomposed accent, a soft hyphen or a zero-width space as the store reads the texts", () => {
    expect(queryWords("re\u0301siliation du bail")).toEqual(["résiliation", "du", "bail"]);
    expect(queryWords("responsa\u00adbilités plafond\u200b annuel")).toEqual([
      "responsabilités",
      "plafond",
      "annuel",
    ]);
  });
});

describe("minimumShouldMatch", () => {
  it("requires the one word, one of two, half (rounded down) of more, like Elasticsearch's 1<50%", () => {
    expect([1, 2, 3, 4, 5, 6, 9].map((n) => minimumShouldMatch(n))).toEqual([1, 1, 1, 2, 2, 3, 4]);
  });

  it("requires both of two when one is the article number the query names", () => {
    expect([1, 2, 3, 4].map((n) => minimumShouldMatch(n, true))).toEqual([1, 2, 1, 2]);
  });
});

describe("queryTerms", () => {
  it("counts a repeated word once, accents and case aside, and keeps at most MAX_QUERY_TERMS", () => {
    expect(queryTerms("Salarié salarie SALARIÉ contrat salarié", Synonyms.none)).toEqual([
      ["Salarié"],
      ["contrat"],
    ]);
    const long = Array.from({ length: 40 }, (_, i) => `mot${i}`).join(" ");
    const terms = queryTerms(long, Synonyms.none);
    expect(terms).toHaveLength(MAX_QUERY_TERMS);
    expect(terms[0]).toEqual(["mot0"]);
    expect(queryTerms(`${"travail ".repeat(60)}`, Synonyms.none)).toEqual([["travail"]]);
  });

  it("reads a hyphenated word of stop words only as a stop word, as the index engines' tokenizer splits it", () => {
    expect(queryTerms("le salarié lui-même, elle-même", Synonyms.none)).toEqual([["salarié"]]);
    expect(queryTerms("chèque-vacances", Synonyms.none)).toEqual([["chèque-vacances"]]);
  });
});

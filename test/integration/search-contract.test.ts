import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestGuides } from "../../ingest/guides.ts";
import type { Principal } from "../../services/access/keys.ts";
import { parseDomainRules } from "../../services/core/classify.ts";
import { parseConfig } from "../../services/core/config.ts";
import { searchVocabulary } from "../../services/corpus/vocabulary.ts";
import { type SearchEngine, type SearchQuery, versionNotLoadedOn } from "../../services/search/engine.ts";
import { RANKING } from "../../services/search/ranking.ts";
import { searchProvisions } from "../../services/search/service.ts";
import { Synonyms } from "../../services/search/synonyms.ts";
import { TitleClassifier } from "../../services/search/title-classifier.ts";
import { seedSmallCorpus } from "../helpers/api.ts";
import { describeEngine, ENGINE_KINDS, openEngine } from "../helpers/engines.ts";
import { GUIDE_FIXTURES } from "../helpers/guides.ts";
import { ingestInline } from "../helpers/inline-acts.ts";
import { searchQuery } from "../helpers/search-query.ts";
import { openTestStore, type TestStore } from "../helpers/stores.ts";

/**
 * One contract for every search engine: the same corpus, the same queries, the same answers to
 * what the API promises (filters exact, in-force by date, article numbers first, snippets that
 * show the match, pagination that adds up).
 */
const query = searchQuery;

/** An act with articles repealed, in force, and not yet in force on 2026-06-01. */
const datedAct = {
  source: { name: "canonical", documentId: "DATED", version: null },
  publicId: "loi-datee",
  kind: "law" as const,
  title: "Loi datée sur la fiscalité",
  jurisdiction: "FR",
  status: "in_force" as const,
  effectiveFrom: "2020-01-01",
  effectiveTo: null,
  sections: [],
  provisions: [
    ...[
      // In force and first, so that it opens the act (RANKING.opening) and the three below are alike:
      // a rule, not a statement of scope (« Le présent titre s'applique… » would pass the opening on).
      ["0", "Les impositions locales sont dues par les propriétaires.", "in_force", "2020-01-01", null],
      ["1", "La redevance fiscale ancienne est abrogée.", "repealed", "2020-01-01", "2022-01-01"],
      ["2", "La redevance fiscale actuelle est due chaque année.", "in_force", "2022-01-01", null],
      [
        "3",
        "La redevance fiscale future sera due à compter de 2030.",
        "not_yet_in_force",
        "2030-01-01",
        null,
      ],
    ].map(([number, text, status, from, to]) => ({
      sourceId: `DATED-${number}`,
      versionId: `DATED-${number}-v1`,
      number: number as string,
      text: text as string,
      status: status as "in_force",
      effectiveFrom: from as string,
      effectiveTo: to as string | null,
      sectionId: null,
    })),
    // Amended on 2020-01-01 and 2024-01-01, the other versions listed without their text
    // (migration 022): in force on 2017-06-01 and 2026-06-01, in wordings we do not hold.
    {
      sourceId: "DATED-4",
      versionId: "DATED-4-v1",
      number: "4",
      text: "La taxe de balayage est due par les riverains.",
      status: "in_force" as const,
      effectiveFrom: "2020-01-01",
      effectiveTo: "2024-01-01",
      sectionId: null,
      versions: [
        {
          versionId: "DATED-4-v0",
          status: "superseded" as const,
          effectiveFrom: "2015-01-01",
          effectiveTo: "2020-01-01",
        },
        {
          versionId: "DATED-4-v1",
          status: "superseded" as const,
          effectiveFrom: "2020-01-01",
          effectiveTo: "2024-01-01",
          text: "La taxe de balayage est due par les riverains.",
        },
        {
          versionId: "DATED-4-v2",
          status: "in_force" as const,
          effectiveFrom: "2024-01-01",
          effectiveTo: null,
        },
      ],
    },
  ],
};

/**
 * Seven provisions of the same shape hold two of the three words of "ordinaire commun
 * exceptionnel": six the two common ones, the seventh one common word and the rare one.
 */
const rarityAct = {
  ...datedAct,
  source: { name: "canonical", documentId: "RARITY", version: null },
  publicId: "loi-rarete",
  title: "Loi sur les régimes",
  provisions: [
    ...Array.from({ length: 6 }, (_, i) => `Le régime ordinaire et commun numéro ${i + 1} s'applique.`),
    "Le régime exceptionnel et commun numéro 7 s'applique.",
  ].map((text, i) => ({
    sourceId: `RARITY-${i + 1}`,
    versionId: `RARITY-${i + 1}-v1`,
    number: String(i + 1),
    text,
    status: "in_force" as const,
    effectiveFrom: "2020-01-01",
    effectiveTo: null,
    sectionId: null,
  })),
};

/** Provisions of one act from their texts, numbered 1, 2, … with rarityAct's dates and status. */
const numbered = (prefix: string) => (text: string, i: number) => ({
  ...rarityAct.provisions[0]!,
  sourceId: `${prefix}-${i + 1}`,
  versionId: `${prefix}-${i + 1}-v1`,
  number: String(i + 1),
  text,
});

/** Two provisions with "durée" and "mandat": together in the longer one, apart in the shorter. */
const proximityAct = {
  ...rarityAct,
  source: { name: "canonical", documentId: "PROXIMITY", version: null },
  publicId: "loi-proximite",
  title: "Loi sur les mandats",
  provisions: [
    "La durée du mandat des représentants élus du personnel au comité est fixée à quatre ans par accord.",
    "La durée de préavis est de trois mois ; le mandat prend fin.",
  ].map(numbered("PROXIMITY")),
};

/**
 * Priors: L10, L11 and D14 say the same thing; two other provisions cite L11. The cited one
 * first, then the other law's article, then the decree's.
 */
const authorityAct = {
  ...rarityAct,
  source: { name: "canonical", documentId: "AUTHORITY", version: null },
  publicId: "loi-autorite",
  title: "Loi sur les indemnités",
  provisions: [
    ["L10", "L'indemnité spéciale de transport est versée chaque mois."],
    ["L11", "L'indemnité spéciale de transport est versée chaque mois."],
    ["R12", "Les conditions de l'article L. 11 s'appliquent aux apprentis."],
    ["R13", "Le montant prévu à l'article L. 11 est révisé chaque année."],
    ["D14", "L'indemnité spéciale de transport est versée chaque mois."],
  ].map(([number, text]) => ({
    ...rarityAct.provisions[0]!,
    sourceId: `AUTHORITY-${number}`,
    versionId: `AUTHORITY-${number}-v1`,
    number: number as string,
    text: text as string,
  })),
};

/**
 * The article opening its division (RANKING.opening, migration 020): L21 and L20 say the same
 * thing; the repealed L19 stands before them, so L21, the first in force, opens the act's top level
 * and comes first, though L20 sorts before it. Outside any division, so that the prior alone sets
 * them apart: an article opening a division also holds its name twice in its headings (migration
 * 029, test/integration/opened-divisions.test.ts).
 */
const openingAct = {
  ...rarityAct,
  source: { name: "canonical", documentId: "OPENING", version: null },
  publicId: "loi-ouverture",
  title: "Loi sur les missions",
  sections: [],
  provisions: [
    ["L19", "Les frais de déplacement lointain sont remboursés au forfait.", "repealed"],
    ["L21", "Les frais de déplacement lointain sont remboursés sur justificatif.", "in_force"],
    ["L20", "Les frais de déplacement lointain sont remboursés sur justificatif.", "in_force"],
  ].map(([number, text, status]) => ({
    ...rarityAct.provisions[0]!,
    sourceId: `OPENING-${number}`,
    versionId: `OPENING-${number}-v1`,
    number: number as string,
    text: text as string,
    status: status as "in_force",
    effectiveTo: status === "repealed" ? "2021-01-01" : null,
    sectionId: null,
  })),
};

/**
 * Snippets: a provision whose headings alone hold "indemnité de fin de carrière", and one whose
 * long text says "durée" alone long before "contrat à durée déterminée" (a synonym of CDD).
 */
const snippetAct = {
  ...rarityAct,
  source: { name: "canonical", documentId: "SNIPPETS", version: null },
  publicId: "loi-extraits",
  title: "Loi sur les extraits",
  sections: [{ id: "S1", parentId: null, title: "Chapitre unique : Indemnité de fin de carrière" }],
  provisions: [
    {
      ...rarityAct.provisions[0]!,
      sourceId: "SNIPPETS-1",
      versionId: "SNIPPETS-1-v1",
      number: "1",
      text: "Le montant est fixé par décret selon l'ancienneté acquise dans l'entreprise.",
      sectionId: "S1",
    },
    {
      ...rarityAct.provisions[0]!,
      sourceId: "SNIPPETS-2",
      versionId: "SNIPPETS-2-v1",
      number: "2",
      text:
        "La durée du travail effectif est celle pendant laquelle le salarié est à la disposition de l'employeur. " +
        "Les heures accomplies au-delà sont des heures supplémentaires, majorées selon un taux fixé par accord. " +
        "Le recours au contrat à durée déterminée est limité aux cas énumérés par la loi, pour une tâche précise " +
        "et temporaire, et ne peut avoir ni pour objet ni pour effet de pourvoir durablement un emploi lié à " +
        "l'activité normale et permanente de l'entreprise, quel que soit son motif.",
    },
  ],
};

/**
 * The reach of a text (RANKING.agreement): a law and a collective agreement saying the same thing,
 * the law binding everyone. The agreement's article ranks after the law's unless the search is
 * within the agreement, where it keeps its whole score.
 */
const reachLaw = {
  ...rarityAct,
  source: { name: "canonical", documentId: "REACH-LAW", version: null },
  publicId: "loi-portee",
  title: "Loi sur les primes",
  provisions: [
    {
      ...rarityAct.provisions[0]!,
      sourceId: "REACH-LAW-1",
      versionId: "REACH-LAW-1-v1",
      number: "1",
      text: "La prime de panier nocturne est versée pour chaque nuit travaillée.",
    },
  ],
};
const reachAgreement = {
  ...reachLaw,
  source: { name: "canonical", documentId: "REACH-IDCC", version: null },
  publicId: "idcc-9999",
  kind: "collective_agreement" as const,
  title: "Convention collective nationale des veilleurs de nuit",
  provisions: [{ ...reachLaw.provisions[0]!, sourceId: "REACH-IDCC-1", versionId: "REACH-IDCC-1-v1" }],
};

/**
 * Everyday names (the synonyms file's « Everyday names » groups): the law says « bulletin de paie », people
 * « fiche de paie »; another provision holds « fiche » without the name.
 */
const payAct = {
  ...rarityAct,
  source: { name: "canonical", documentId: "PAY", version: null },
  publicId: "loi-paie",
  title: "Loi sur la rémunération",
  provisions: [
    "Lors du paiement du salaire, l'employeur remet au salarié un bulletin de paie.",
    "La fiche de poste décrit les missions confiées au salarié.",
  ].map(numbered("PAY")),
};

/**
 * Numbers: the law writes them in words (« trente-cinq heures »), people in digits (« 35h »); an
 * article number holds digits too.
 */
const hoursAct = {
  ...rarityAct,
  source: { name: "canonical", documentId: "HOURS", version: null },
  publicId: "loi-heures",
  title: "Loi sur la durée du travail",
  provisions: [
    "La durée légale de travail effectif est fixée à trente-cinq heures par semaine.",
    "Le salarié de moins de dix-huit ans bénéficie d'un repos quotidien.",
    "Les heures accomplies au-delà de la durée prévue à l'article L. 3121-35 sont majorées.",
  ].map(numbered("HOURS")),
};

/**
 * Acts (the synonyms file's `acts`): people write the verb, the law the noun of its act or the
 * verb's participle, which French stemming keeps apart (« démissionner », « démission »;
 * « rompre », « rupture », « rompu »); and lay words (its `lay`): « alcool » for the codes'
 * « boisson alcoolisée », « vacances » for « congés payés » but in « chèques-vacances ».
 */
const actsAct = {
  ...rarityAct,
  source: { name: "canonical", documentId: "ACTS", version: null },
  publicId: "loi-actes",
  title: "Loi sur la fin du contrat",
  provisions: [
    "En cas de démission, le salarié respecte un préavis.",
    "Le contrat peut être rompu par l'une ou l'autre des parties.",
    "Le contrat est conclu par écrit.",
    "La rupture est notifiée par lettre recommandée.",
    "Aucune boisson alcoolisée autre que le vin, la bière, le cidre et le poiré n'est autorisée sur le lieu de travail.",
    "Le taux d'alcool est mesuré par éthylotest.",
    "Le salarié prend ses congés payés entre le 1er mai et le 31 octobre.",
    "Les chèques-vacances sont acquis par le salarié.",
  ].map(numbered("ACTS")),
};

describe.each(ENGINE_KINDS)("search contract: %s", (kind) => {
  let store: TestStore;
  let engine: SearchEngine;
  let close: () => Promise<void>;

  beforeAll(async () => {
    console.log(`search contract on ${describeEngine(kind)}`);
    store = await openTestStore("pglite", `contract_${kind}`);
    const config = parseConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "lc-contract-")) });
    await seedSmallCorpus(store, config);
    await ingestInline(
      store.db,
      [
        datedAct,
        rarityAct,
        proximityAct,
        authorityAct,
        snippetAct,
        reachLaw,
        reachAgreement,
        payAct,
        hoursAct,
        openingAct,
        actsAct,
      ],
      "version: 1\nrules:\n  - name: fiscal\n    match: { document: [loi-datee] }\n    domains: [tax]\n" +
        "  - name: civil\n    match: { document: [loi-rarete, loi-proximite, loi-autorite, loi-extraits] }\n    domains: [civil]\n",
    );
    await ingestGuides(store.db, config, { paths: GUIDE_FIXTURES });
    ({ engine, close } = await openEngine(kind, store.db));
  });
  afterAll(async () => {
    await close?.();
    await store?.dispose();
  });

  it("finds the provision about a topic and shows why it matched", async () => {
    const result = await engine.search(query("période d'essai"));
    expect(result.hits[0]?.publicId).toBe("code-du-travail/L1221-19");
    expect(result.hits[0]?.snippet).toMatch(/<mark>[Pp]ériode<\/mark>/);
    expect(result.hits[0]?.document).toEqual({ publicId: "code-du-travail", title: "Code du travail" });
    expect(result.hits[0]?.sectionPath.length).toBeGreaterThan(2);
  });

  it("snippets show why: marked words in the passage, ellipses, headings when only they matched", async () => {
    const inText = await engine.search(query("CDD", { document: "loi-extraits" }));
    expect(inText.hits.map((h) => h.publicId)).toEqual(["loi-extraits/2"]);
    const snippet = inText.hits[0]!.snippet;
    // The synonym phrase marked where it stands whole; neither its stop word nor "durée" alone.
    expect(snippet).toContain("<mark>contrat</mark> à <mark>durée</mark> <mark>déterminée</mark>");
    expect(snippet).not.toMatch(/<mark>à<\/mark>|La <mark>durée<\/mark>/);
    expect(snippet).toMatch(/^… .* …$/);

    const inHeadings = await engine.search(query("indemnité fin de carrière", { document: "loi-extraits" }));
    expect(inHeadings.hits.map((h) => h.publicId)).toEqual(["loi-extraits/1"]);
    expect(inHeadings.hits[0]!.snippet).toBe(
      "Chapitre unique : <mark>Indemnité</mark> de <mark>fin</mark> de <mark>carrière</mark> — " +
        "Le montant est fixé par décret selon l'ancienneté acquise dans l'entreprise.",
    );
  });

  it("answers an article number first, however it is written", async () => {
    for (const q of [
      "L1237-1-1",
      "l1237-1-1",
      "L 1237-1-1",
      "L. 1237-1-1",
      "article L. 1237-1-1",
      "art. L1237-1-1",
      "Article L1237-1-1 du code du travail",
    ])
      expect((await engine.search(query(q))).hits[0]?.publicId, q).toBe("code-du-travail/L1237-1-1");
  });

  it("answers an article number and one word with that article alone, holding every term", async () => {
    // « abandon » is in L1237-1-1; the query asks for L1237-19: both terms are required, as the
    // article named counts as holding them.
    const named = await engine.search(query("abandon L1237-19"));
    expect(named.hits.map((h) => h.publicId)).toEqual(["code-du-travail/L1237-19"]);
    expect(named).toMatchObject({ total: 1, holdsEveryTerm: true });
  });

  it("expands abbreviations with the synonyms file, phrases matched word after word", async () => {
    // No provision says "CDI"; L1221-19 says "contrat de travail à durée indéterminée".
    const cdi = await engine.search(query("CDI"));
    expect(cdi.hits.map((h) => h.publicId)).toContain("code-du-travail/L1221-19");
    // "déterminée" is not "indéterminée": the phrase must match as written.
    expect((await engine.search(query("CDD"))).hits.map((h) => h.publicId)).not.toContain(
      "code-du-travail/L1221-19",
    );
    // The group counts as one word: the provision holding "CDI" (its full form) and "essai" leads.
    expect((await engine.search(query("CDI essai"))).hits[0]?.publicId).toBe("code-du-travail/L1221-19");
  });

  it("reads a verb as the act the law names (« démissionner »: « démission »), the noun as written", async () => {
    const inActs = (q: string) => engine.search(query(q, { document: "loi-actes" }));
    // No provision says « démissionner »: the noun of its act is what the law writes.
    expect((await inActs("démissionner")).hits.map((h) => h.publicId)).toEqual(["loi-actes/1"]);
    expect((await inActs("J'ai démissionné")).hits.map((h) => h.publicId)).toEqual(["loi-actes/1"]);
    // « rompre » finds the participle and the noun; the provision holding « rompu » and « contrat »
    // holds both terms and leads.
    const rompre = await inActs("rompre le contrat");
    expect(rompre.hits[0]?.publicId).toBe("loi-actes/2");
    expect(rompre.holdsEveryTerm).toBe(true);
    expect(rompre.hits.map((h) => h.publicId)).toContain("loi-actes/4");
    expect(rompre.hits[0]?.snippet).toContain("<mark>rompu</mark>");
    // The noun is the law's own word: searched as written, not as the verb.
    expect((await inActs("rupture")).hits.map((h) => h.publicId)).toEqual(["loi-actes/4"]);
  });

  it("reads a lay word as the codes' words too (« alcool »: « boisson alcoolisée »), one way", async () => {
    const inActs = (q: string) => engine.search(query(q, { document: "loi-actes" }));
    const alcool = await inActs("alcool");
    expect(alcool.hits.map((h) => h.publicId).sort()).toEqual(["loi-actes/5", "loi-actes/6"]);
    expect(alcool.hits.find((h) => h.publicId === "loi-actes/5")?.snippet).toContain(
      "<mark>boisson</mark> <mark>alcoolisée</mark>",
    );
    // The codes' words are searched as written: « alcool » alone is not « boisson alcoolisée ».
    const boisson = await inActs("boisson alcoolisée");
    expect(boisson.hits.map((h) => h.publicId)).toEqual(["loi-actes/5"]);
  });

  it("leaves a lay word as written in a set phrase of another sense (« chèques vacances »)", async () => {
    const inActs = (q: string) => engine.search(query(q, { document: "loi-actes" }));
    // « vacances » alone is paid leave too (and the word in « chèques-vacances », as written).
    const holidays = await inActs("combien de vacances");
    expect(holidays.hits.map((h) => h.publicId).sort()).toEqual(["loi-actes/7", "loi-actes/8"]);
    expect(holidays.hits.find((h) => h.publicId === "loi-actes/7")?.snippet).toContain(
      "<mark>congés</mark> <mark>payés</mark>",
    );
    // Holiday vouchers are no paid leave: the provision on paid leave does not match.
    const vouchers = await inActs("chèques vacances");
    expect(vouchers.hits.map((h) => h.publicId)).toEqual(["loi-actes/8"]);
  });

  it("reads an everyday name as the law's words too, and a query of the law's words as written", async () => {
    // No provision says « fiche de paie »: only the full form holds both words, and leads the one
    // holding « fiche » alone.
    const everyday = await engine.search(query("fiche de paie", { document: "loi-paie" }));
    expect(everyday.hits[0]?.publicId).toBe("loi-paie/1");
    expect(everyday.holdsEveryTerm).toBe(true);
    expect(everyday.hits[0]?.snippet).toContain("<mark>bulletin</mark> de <mark>paie</mark>");
    // « paie » then « fiche » is no everyday name: nothing holds both words.
    expect((await engine.search(query("paie fiche", { document: "loi-paie" }))).holdsEveryTerm).toBe(false);
    expect((await engine.search(query("bulletin de paie", { document: "loi-paie" }))).hits[0]?.publicId).toBe(
      "loi-paie/1",
    );
  });

  it("searches a number typed in digits as the law writes it too, in words", async () => {
    const inHours = async (q: string) => await engine.search(query(q, { document: "loi-heures" }));
    // « 35h » is « trente-cinq heures »; the provision citing article L. 3121-35 holds « heures »
    // and « 35 » apart, not the phrase, and the words of the number nowhere.
    const hours = await inHours("35h");
    expect(hours.hits.map((h) => h.publicId)).toEqual(["loi-heures/1"]);
    expect(hours.hits[0]?.snippet).toContain("<mark>trente</mark>-<mark>cinq</mark> <mark>heures</mark>");
    const minors = await inHours("18 ans");
    expect(minors.hits[0]?.publicId).toBe("loi-heures/2");
    expect(minors.holdsEveryTerm).toBe(true);
  });

  it("searches an abbreviation the guides define as its full form, given the store's vocabulary", async () => {
    // A fixture guide says « … ni une rupture conventionnelle collective (RCC) »; L1237-19 says
    // « rupture conventionnelle collective »; no provision and no line of the synonyms file says « RCC ».
    expect((await engine.search(query("RCC"))).total).toBe(0);
    const synonyms = await searchVocabulary(store.db, Synonyms.bundled());
    const result = await engine.search({ ...query("RCC"), synonyms });
    expect(result.hits[0]?.publicId).toBe("code-du-travail/L1237-19");
    expect(result.hits[0]?.snippet).toContain(
      "<mark>rupture</mark> <mark>conventionnelle</mark> <mark>collective</mark>",
    );
  });

  it("finds a provision by the words of a guide citing it, in its own field", async () => {
    // No provision says "boulot" or "patron"; guides citing L1237-1-1 and L1221-19 do.
    expect((await engine.search(query("boulot disparu"))).hits.map((h) => h.publicId)).toEqual([
      "code-du-travail/L1237-1-1",
    ]);
    expect((await engine.search(query("patron remercier"))).hits[0]?.publicId).toBe(
      "code-du-travail/L1221-19",
    );
  });

  it("ranks a provision holding a query's rare word above those holding its common ones", async () => {
    const result = await engine.search(query("ordinaire commun exceptionnel", { document: "loi-rarete" }));
    expect(result.total).toBe(7);
    expect(result.hits[0]?.publicId).toBe("loi-rarete/7");
  });

  it("ranks, among equal matches, the provision others cite, then a law's article before a decree's", async () => {
    const result = await engine.search(query("indemnité spéciale transport", { document: "loi-autorite" }));
    expect(result.hits.map((h) => h.publicId)).toEqual([
      "loi-autorite/L11",
      "loi-autorite/L10",
      "loi-autorite/D14",
    ]);
  });

  it("ranks, among equal matches, the article opening its division first", async () => {
    const result = await engine.search(
      query("frais déplacement lointain justificatif", { document: "loi-ouverture" }),
    );
    expect(result.hits.map((h) => h.publicId)).toEqual(["loi-ouverture/L21", "loi-ouverture/L20"]);
    const [opening, after] = result.hits;
    // The priors add up: both are a law's articles, the first also opens its division.
    const law = 1 + RANKING.legislative;
    expect(opening!.score).toBeCloseTo((after!.score * (law + RANKING.opening)) / law, 3);
  });

  it("ranks, among equal matches, the law that binds everyone before a collective agreement", async () => {
    const result = await engine.search(query("prime panier nocturne"));
    // (Other provisions of the seeded corpus hold « prime » and follow.)
    expect(result.hits.map((h) => h.publicId).slice(0, 2)).toEqual(["loi-portee/1", "idcc-9999/1"]);
    const [law, agreement] = result.hits;
    expect(agreement!.score).toBeCloseTo(law!.score * RANKING.agreement, 3);
    // Within the agreement, its article keeps its whole score.
    const within = await engine.search(query("prime panier nocturne", { document: "idcc-9999" }));
    expect(within.hits.map((h) => h.publicId)).toEqual(["idcc-9999/1"]);
    expect(within.hits[0]!.score).toBeCloseTo(law!.score, 3);
  });

  it("ranks words found together above the same words apart", async () => {
    const result = await engine.search(query("durée mandat", { document: "loi-proximite" }));
    expect(result.hits.map((h) => h.publicId)).toEqual(["loi-proximite/1", "loi-proximite/2"]);
  });

  it("returns nothing for a query of stop words and question words only", async () => {
    for (const q of ["de la", "quelle"])
      expect(await engine.search(query(q)), q).toMatchObject({ hits: [], total: 0 });
  });

  it("returns nothing, validly, for what is not loaded", async () => {
    const result = await engine.search(query("zzzyxw"));
    expect(result).toMatchObject({ hits: [], total: 0 });
  });

  it("finds, for two words, the provisions holding either, and says whether any holds both", async () => {
    // « redevance » is in loi-datee/2 (in force), « impositions » in loi-datee/0; none holds both.
    const apart = await engine.search(query("redevance impositions"));
    expect(apart.hits.map((h) => h.publicId).sort()).toEqual(["loi-datee/0", "loi-datee/2"]);
    expect(apart).toMatchObject({ total: 2, holdsEveryTerm: false });
    const together = await engine.search(query("redevance actuelle"));
    expect(together.hits[0]?.publicId).toBe("loi-datee/2");
    expect(together.holdsEveryTerm).toBe(true);
    // A word no provision holds: the other's provisions, none holding both.
    expect(await engine.search(query("redevance zzzyxw"))).toMatchObject({ total: 1, holdsEveryTerm: false });
  });

  it("reads « jusqu' », « lorsqu' » as elisions and « lui-même » as stop words, as Lucene does: no word to hold", async () => {
    // Two words then, either suffices. Were « jusqu » and « lorsqu » words, two of four would be
    // required: Postgres, where no provision holds them, found nothing; the index engines, whose
    // analyser drops them (a clause matching everything), found every provision.
    const result = await engine.search(query("redevance impositions jusqu'à lorsqu'il lui-même"));
    expect(result.hits.map((h) => h.publicId).sort()).toEqual(["loi-datee/0", "loi-datee/2"]);
    expect(result).toMatchObject({ total: 2, holdsEveryTerm: false });
  });

  it("with match any, finds the provisions holding one word of many when none holds enough", async () => {
    // What search falls back to when nothing holds enough words (partial_match, services/corpus/search.ts).
    const q = "redevance zzzyxw qqqxwv wwwzyx";
    expect(await engine.search(query(q))).toMatchObject({ hits: [], total: 0 });
    const any = await engine.search(query(q, { match: "any" }));
    expect(any.hits.map((h) => h.publicId)).toEqual(["loi-datee/2"]);
    expect(any.total).toBe(1);
    expect(any.hits[0]?.snippet).toMatch(/<mark>redevance<\/mark>/);
    expect(await engine.search(query("zzzyxw qqqxwv", { match: "any" }))).toMatchObject({
      hits: [],
      total: 0,
    });
  });

  it("filters domains exactly", async () => {
    const labour = await engine.search(query("article", { domains: ["labour"] }));
    expect(labour.filterMode).toBe("exact");
    expect(labour.hits.length).toBeGreaterThan(0);
    for (const hit of labour.hits) expect(hit.domains).toContain("labour");
    expect((await engine.search(query("redevance", { domains: ["labour"] }))).hits).toEqual([]);
    expect(
      (await engine.search(query("redevance", { domains: ["tax", "traffic"] }))).hits.map((h) => h.publicId),
    ).toEqual(["loi-datee/2"]);
  });

  it("classifies unclassified documents by title after retrieval (best_effort), never outside the filter", async () => {
    const titles = new TitleClassifier(store.db, () =>
      parseDomainRules(
        "version: 1\nrules:\n  - name: t\n    match: { title: 'relative au travail' }\n    domains: [labour]\n",
        "t.yaml",
      ),
    );
    const who: Principal = {
      keyId: 0,
      lookupId: "test",
      projectId: 0,
      projectName: "t",
      plan: "pro",
      scopes: ["search:read"],
      domains: null,
    };
    const request = { q: "travail", limit: 50, offset: 0, inForce: true, asOf: "2026-06-01" };

    const labour = await searchProvisions(engine, who, { ...request, domains: ["labour"] }, titles);
    expect(labour.filterMode).toBe("best_effort");
    const fromTitle = labour.hits.filter((h) => h.classifiedBy === "document_title");
    expect(fromTitle.length).toBeGreaterThan(0);
    for (const hit of fromTitle) expect(hit.document.publicId).toBe("loi-2016-1088");
    for (const hit of labour.hits) expect(hit.domains).toContain("labour");
    expect(labour.hits.some((h) => h.classifiedBy === undefined)).toBe(true);

    const criminal = await searchProvisions(engine, who, { ...request, domains: ["criminal"] }, titles);
    expect(criminal.filterMode).toBe("exact");
    const withoutTitles = await searchProvisions(engine, who, { ...request, domains: ["labour"] });
    expect(withoutTitles.filterMode).toBe("exact");
    expect(withoutTitles.hits.some((h) => h.document.publicId === "loi-2016-1088")).toBe(false);
  });

  it("filters by document", async () => {
    const result = await engine.search(query("travail", { document: "loi-2016-1088" }));
    expect(result.hits.length).toBeGreaterThan(0);
    for (const hit of result.hits) expect(hit.document.publicId).toBe("loi-2016-1088");
  });

  it("keeps to what is in force on the day asked, unless told otherwise", async () => {
    const ids = async (more: Partial<SearchQuery>) =>
      (await engine.search(query("redevance", more))).hits.map((h) => h.publicId).sort();
    expect(await ids({})).toEqual(["loi-datee/2"]);
    expect(await ids({ asOf: "2031-01-01" })).toEqual(["loi-datee/2", "loi-datee/3"]);
    expect(await ids({ inForce: false })).toEqual(["loi-datee/1", "loi-datee/2", "loi-datee/3"]);
  });

  it("finds a provision in force in a version whose text the source lacks, and says so", async () => {
    const found = async (asOf: string) =>
      (await engine.search(query("taxe de balayage", { asOf }))).hits.find(
        (h) => h.publicId === "loi-datee/4",
      );
    // The text we hold is in force from 2020-01-01 to 2024-01-01; an earlier version from
    // 2015-01-01 and a later one, open-ended, are listed without their text.
    const today = await found("2026-06-01");
    expect(today).toMatchObject({ effectiveTo: "2024-01-01", inForceFrom: "2015-01-01", inForceTo: null });
    expect(versionNotLoadedOn(today!, "2026-06-01")).toBe(true);
    const then = await found("2022-06-01");
    expect(then && versionNotLoadedOn(then, "2022-06-01")).toBe(false);
    const before = await found("2017-06-01");
    expect(before && versionNotLoadedOn(before, "2017-06-01")).toBe(true);
    expect(await found("2014-06-01")).toBeUndefined();
  });

  it("finds a repealed provision on a day it was in force", async () => {
    const ids = async (asOf: string) =>
      (await engine.search(query("redevance", { asOf }))).hits.map((h) => h.publicId).sort();
    // « 1 » was in force from 2020 until its repeal on 2022-01-01, « 2 » since.
    expect(await ids("2021-06-01")).toEqual(["loi-datee/1"]);
    expect(await ids("2022-06-01")).toEqual(["loi-datee/2"]);
  });

  it("asked for every provision, ranks what is in force on the day first", async () => {
    // The repealed text is the shortest match, so it leads on words alone.
    const first = async (asOf: string) =>
      (await engine.search(query("redevance fiscale", { inForce: false, asOf }))).hits.map((h) => h.publicId);
    expect((await first("2026-06-01"))[0]).toBe("loi-datee/2");
    expect((await first("2021-06-01"))[0]).toBe("loi-datee/1");
    expect((await first("2031-01-01")).slice(0, 2).sort()).toEqual(["loi-datee/2", "loi-datee/3"]);
  });

  it("paginates consistently", async () => {
    const all = await engine.search(query("salarié", { limit: 4 }));
    expect(all.total).toBeGreaterThanOrEqual(3);
    const second = await engine.search(query("salarié", { limit: 1, offset: 1 }));
    expect(second.total).toBe(all.total);
    expect(second.hits[0]?.publicId).toBe(all.hits[1]?.publicId);
    expect((await engine.search(query("salarié", { offset: 500 }))).total).toBe(all.total);
  });
});

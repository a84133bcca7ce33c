import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CanonicalDocumentInput } from "../../ingest/model.ts";
import { ingest } from "../../ingest/pipeline/ingest.ts";
import { parseDomainRules } from "../../services/core/classify.ts";
import type { SearchEngine } from "../../services/search/engine.ts";
import { RANKING } from "../../services/search/ranking.ts";
import type { Database } from "../../services/store/database.ts";
import { provisionsByPublicId } from "../../services/store/index-source.ts";
import { migrate } from "../../services/store/migrate.ts";
import { readSearchGeneration } from "../../services/store/search-snapshot.ts";
import { searchStatisticsDrift } from "../../services/store/search-statistics.ts";
import { describeEngine, ENGINE_KINDS, openEngine } from "../helpers/engines.ts";
import { searchQuery as query } from "../helpers/search-query.ts";
import { openTestStore, STORE_KINDS, type TestStore } from "../helpers/stores.ts";

/**
 * The names of the divisions an article opens, read a second time in its headings (migration
 * 029): « Chapitre Ier : Rupture conventionnelle » counts twice for the chapter's first article in
 * force, the one stating its rule, and once for the articles after it. An article opens every
 * division of its path it comes first in; not a part (« Partie législative »), and an article
 * within a division of special rules opens none, not even the title above it. Written again after every ingest run with the other
 * priors; on every engine the opener then outranks the next article by more than the opening
 * prior alone, and a hit still shows its path alone.
 */
type Article = [number: string, section: string, status?: "in_force" | "repealed"];

const SAME_TEXT = "Les parties conviennent des conditions de la fin du contrat qui les lie.";

const act = (articles: Article[]): CanonicalDocumentInput => ({
  source: { name: "canonical", documentId: "DIVISIONS", version: null },
  publicId: "code-des-divisions",
  kind: "code",
  title: "Code des divisions",
  jurisdiction: "FR",
  status: "in_force",
  effectiveFrom: "2020-01-01",
  effectiveTo: null,
  sections: [
    { id: "P", parentId: null, title: "Partie législative" },
    { id: "T1", parentId: "P", title: "Titre Ier : Rupture du contrat" },
    { id: "C1", parentId: "T1", title: "Chapitre Ier : Rupture conventionnelle" },
    { id: "C2", parentId: "T1", title: "Chapitre II : Dérogations" },
    { id: "C2S1", parentId: "C2", title: "Section 1 : Salariés protégés" },
    { id: "C3", parentId: "T1", title: "Chapitre III : Homologation" },
    // A title whose first chapter holds special rules: its first article opens nothing.
    { id: "T2", parentId: "P", title: "Titre II : Congés" },
    { id: "T2C1", parentId: "T2", title: "Chapitre Ier : Dispositions particulières aux marins" },
    { id: "T2C2", parentId: "T2", title: "Chapitre II : Congé annuel" },
  ],
  provisions: articles.map(([number, sectionId, status = "in_force"]) => ({
    sourceId: `DIVISIONS-${number}`,
    versionId: `DIVISIONS-${number}-v1`,
    number,
    text: number === "L4" ? "La demande est adressée à l'autorité administrative." : SAME_TEXT,
    // An article's own title ends its path: it is no division the article opens.
    heading: number === "L4" ? "Demande d'homologation" : null,
    status,
    effectiveFrom: "2020-01-01",
    effectiveTo: status === "repealed" ? "2022-01-01" : null,
    sectionId,
  })),
});

const FIRST_RUN: Article[] = [
  ["L1", "C1"],
  ["L2", "C1"],
  ["L3", "C2S1"],
  ["L4", "C3"],
  ["L5", "T2C1"],
  ["L6", "T2C2"],
];

/** The next run: L1 repealed, so L2 opens the title and its chapter. */
const NEXT_RUN: Article[] = [["L1", "C1", "repealed"], ...FIRST_RUN.slice(1)];

/** Then L0 inserted first, under the title itself: L2 still opens its chapter, no longer the title. */
const THIRD_RUN: Article[] = [["L0", "T1"], ...NEXT_RUN];

/** As `corpus ingest` loads a source with an index engine: changed provisions queued for indexing. */
const load = (db: Database, articles: Article[]) =>
  ingest(db, {
    source: "canonical",
    sourceVersion: "inline",
    parameters: {},
    documentsTotal: 1,
    documents: [{ file: "inline", document: act(articles) }],
    rules: parseDomainRules("version: 1\nrules: []\n", "inline.yaml"),
    searchOutbox: true,
  });

const opened = async (db: Database) => {
  const { rows } = await db.query<{ number: string; opened_divisions: string[] }>(
    "SELECT number, opened_divisions FROM provisions WHERE cardinality(opened_divisions) > 0 ORDER BY number",
  );
  return Object.fromEntries(rows.map((r) => [r.number, r.opened_divisions]));
};

/** How often the headings field holds a lexeme, per article. */
const headingsTf = async (db: Database, lexeme: string) => {
  const { rows } = await db.query<{ number: string; tf: number }>(
    `SELECT p.number, s.tf_headings AS tf FROM search_postings s JOIN provisions p ON p.id = s.provision_id
     WHERE s.lexeme = $1 ORDER BY p.number`,
    [lexeme],
  );
  return Object.fromEntries(rows.map((r) => [r.number, r.tf]));
};

const noDrift = { missingPostings: 0, extraPostings: 0, wrongFrequencies: 0, wrongTotals: false };

describe.each(STORE_KINDS)("the names of the divisions an article opens on %s", (kind) => {
  let store: TestStore;

  beforeAll(async () => {
    store = await openTestStore(kind, `opened_divisions_${kind}`);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it("reads them in the opener's headings: each division it opens, not a part nor special rules", async () => {
    await load(store.db, FIRST_RUN);
    expect(await opened(store.db)).toEqual({
      L1: ["Rupture du contrat", "Rupture conventionnelle"],
      L4: ["Homologation"],
      L6: ["Congé annuel"],
    });
    // « conventionnelle » twice in L1's headings, once in L2's; the part's words once in each.
    expect(await headingsTf(store.db, "conventionnel")).toEqual({ L1: 2, L2: 1 });
    expect(await headingsTf(store.db, "legisl")).toEqual({ L1: 1, L2: 1, L3: 1, L4: 1, L5: 1, L6: 1 });
    expect(await searchStatisticsDrift(store.db)).toMatchObject(noDrift);
    // The index document holds them beside its path, which stays the path alone.
    const [l1] = await provisionsByPublicId(store.db, ["code-des-divisions/L1"]);
    expect(JSON.parse(l1!.json)).toMatchObject({
      section_path: [
        "Partie législative",
        "Titre Ier : Rupture du contrat",
        "Chapitre Ier : Rupture conventionnelle",
      ],
      opened_divisions: ["Rupture du contrat", "Rupture conventionnelle"],
    });
  });

  it("follows the next run: the article after a repealed opener opens in its place, and is queued", async () => {
    const generation = await readSearchGeneration(store.db);
    await store.db.query("UPDATE search_outbox SET indexed_at = now() WHERE indexed_at IS NULL");
    const [before] = await provisionsByPublicId(store.db, ["code-des-divisions/L2"]);
    await load(store.db, NEXT_RUN);
    expect(await opened(store.db)).toEqual({
      L2: ["Rupture du contrat", "Rupture conventionnelle"],
      L4: ["Homologation"],
      L6: ["Congé annuel"],
    });
    expect((await headingsTf(store.db, "conventionnel")).L2).toBe(2);
    expect(await searchStatisticsDrift(store.db)).toMatchObject(noDrift);
    expect(await readSearchGeneration(store.db)).not.toBe(generation);
    // L2's text did not change: it is queued for the index engines because its names did.
    const { rows } = await store.db.query<{ public_id: string }>(
      "SELECT DISTINCT public_id FROM search_outbox WHERE indexed_at IS NULL ORDER BY public_id",
    );
    expect(rows.map((r) => r.public_id)).toContain("code-des-divisions/L2");
    const [after] = await provisionsByPublicId(store.db, ["code-des-divisions/L2"]);
    expect(JSON.parse(after!.json).content_hash).not.toBe(JSON.parse(before!.json).content_hash);
  });

  it("queues an article whose names alone changed", async () => {
    await store.db.query("UPDATE search_outbox SET indexed_at = now() WHERE indexed_at IS NULL");
    const [before] = await provisionsByPublicId(store.db, ["code-des-divisions/L2"]);
    await load(store.db, THIRD_RUN);
    expect(await opened(store.db)).toMatchObject({
      L0: ["Rupture du contrat"],
      L2: ["Rupture conventionnelle"],
    });
    const [after] = await provisionsByPublicId(store.db, ["code-des-divisions/L2"]);
    // Its text, its citations and its opening its chapter are the same: only its names moved.
    const { content_hash: hashBefore, opened_divisions: _a, ...restBefore } = JSON.parse(before!.json);
    const { content_hash: hashAfter, opened_divisions: _b, ...restAfter } = JSON.parse(after!.json);
    expect(restAfter).toEqual(restBefore);
    expect(restAfter.opens_section).toBe(true);
    expect(hashAfter).not.toBe(hashBefore);
    const { rows } = await store.db.query<{ public_id: string }>(
      "SELECT DISTINCT public_id FROM search_outbox WHERE indexed_at IS NULL ORDER BY public_id",
    );
    expect(rows.map((r) => r.public_id)).toEqual(["code-des-divisions/L0", "code-des-divisions/L2"]);
    expect(await searchStatisticsDrift(store.db)).toMatchObject(noDrift);
  });

  it("changes nothing when the same snapshot is loaded again", async () => {
    const generation = await readSearchGeneration(store.db);
    await load(store.db, THIRD_RUN);
    expect(await readSearchGeneration(store.db)).toBe(generation);
  });

  it("reads a division's name from its heading: not its label, nor a part's or a label alone", async () => {
    const name = async (heading: string) =>
      (await store.db.query<{ name: string }>("SELECT corpus_division_name($1) AS name", [heading])).rows[0]!
        .name;
    const names: Array<[string, string]> = [
      ["Section 3 : Rupture conventionnelle.", "Rupture conventionnelle."],
      [
        "Chapitre III - Droit d'alerte en matière de santé publique",
        "Droit d'alerte en matière de santé publique",
      ],
      ["Section 1 Cumul de prestations", "Cumul de prestations"],
      ["Titre emploi simplifié agricole", "Titre emploi simplifié agricole"],
      ["Section syndicale", "Section syndicale"],
      ["Titre-mobilité", "Titre-mobilité"],
      ["Dispositions générales", "Dispositions générales"],
      ["Partie législative", ""],
      ["Première partie : Les relations individuelles de travail", ""],
      ["Chapitre unique.", ""],
      ["Chapitre Ier", ""],
      ["Section 13", ""],
      ["Paragraphe 2 bis", ""],
      ["Titre préliminaire", ""],
      ["TITRE PRÉLIMINAIRE", ""],
      ["Titre Récapitulatif des obligations", "Titre Récapitulatif des obligations"],
      ["Chapitre II. Modalités", "Modalités"],
      ["Contreparties obligatoires", "Contreparties obligatoires"],
      ["Annexes", ""],
      ["Section 1 :", ""],
    ];
    for (const [heading, expected] of names) expect(await name(heading), heading).toBe(expected);
  });
});

describe.each(STORE_KINDS)("a %s store written before migration 029", (kind) => {
  let store: TestStore;

  beforeAll(async () => {
    store = await openTestStore(kind, `opened_divisions_upgrade_${kind}`, "028");
    await load(store.db, FIRST_RUN);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it("writes the openers' names and their postings, and moves the search generation", async () => {
    expect(await headingsTf(store.db, "conventionnel")).toEqual({ L1: 1, L2: 1 });
    const generation = await readSearchGeneration(store.db);
    expect((await migrate(store.db, "029")).map((file) => path.basename(file))).toEqual([
      "029.do.opened-divisions.sql",
    ]);
    expect(await opened(store.db)).toEqual({
      L1: ["Rupture du contrat", "Rupture conventionnelle"],
      L4: ["Homologation"],
      L6: ["Congé annuel"],
    });
    expect(await headingsTf(store.db, "conventionnel")).toEqual({ L1: 2, L2: 1 });
    expect(await searchStatisticsDrift(store.db)).toMatchObject(noDrift);
    expect(await readSearchGeneration(store.db)).not.toBe(generation);
  });
});

describe.each(ENGINE_KINDS)("an opener's division names on %s", (kind) => {
  let store: TestStore;
  let engine: SearchEngine;
  let close: () => Promise<void>;

  beforeAll(async () => {
    console.log(`an opener's division names on ${describeEngine(kind)}`);
    store = await openTestStore("pglite", `opened_divisions_${kind}`);
    await load(store.db, FIRST_RUN);
    ({ engine, close } = await openEngine(kind, store.db));
  });
  afterAll(async () => {
    await close?.();
    await store?.dispose();
  });

  it("ranks the opener above the next article by more than the opening prior, and shows the path alone", async () => {
    // L1 and L2 hold the same text and path: without the names read again, L1's score would be
    // L2's times (1 + legislative + opening) / (1 + legislative), 1.09 on every engine (the
    // priors add up); with them, well above 1 + the opening prior.
    const { hits } = await engine.search(query("conventionnelle"));
    expect(hits.map((h) => h.number)).toEqual(["L1", "L2"]);
    expect(hits[0]!.score / hits[1]!.score).toBeGreaterThan((1 + RANKING.opening) * 1.05);
    expect(hits[0]!.sectionPath).toEqual([
      "Partie législative",
      "Titre Ier : Rupture du contrat",
      "Chapitre Ier : Rupture conventionnelle",
    ]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingest } from "../../ingest/pipeline/ingest.ts";
import { parseDomainRules } from "../../services/core/classify.ts";
import { provisionsByPublicId } from "../../services/store/index-source.ts";
import { readIndexedProvisions, readSearchGeneration } from "../../services/store/search-snapshot.ts";
import { openTestStore, STORE_KINDS, type TestStore } from "../helpers/stores.ts";

/**
 * The article opening its division (migration 020, refreshSearchAuthority): the first in force,
 * in the document's order, of the provisions sharing its section, recomputed after every ingest
 * run, since an article inserted or repealed changes which one opens its division. What the
 * in-memory model, Postgres's SQL and the index documents read.
 */
type Article = [number: string, section: string | null, status?: "in_force" | "repealed"];

const act = (articles: Article[]) => ({
  source: { name: "canonical", documentId: "OPENERS", version: null },
  publicId: "loi-ouvertures",
  kind: "law" as const,
  title: "Loi sur les ouvertures",
  jurisdiction: "FR",
  status: "in_force" as const,
  effectiveFrom: "2020-01-01",
  effectiveTo: null,
  sections: [
    { id: "S1", parentId: null, title: "Chapitre Ier : Principe" },
    { id: "S2", parentId: null, title: "Chapitre II : Modalités" },
  ],
  provisions: articles.map(([number, sectionId, status = "in_force"]) => ({
    sourceId: `OPENERS-${number}`,
    versionId: `OPENERS-${number}-v1`,
    number,
    text: `L'article ${number} dispose de la règle numéro ${number}.`,
    status,
    effectiveFrom: "2020-01-01",
    effectiveTo: status === "repealed" ? "2022-01-01" : null,
    sectionId,
  })),
});

describe.each(STORE_KINDS)("articles opening their division on %s", (kind) => {
  let store: TestStore;
  const load = (articles: Article[]) =>
    ingest(store.db, {
      source: "canonical",
      sourceVersion: "inline",
      parameters: {},
      documentsTotal: 1,
      documents: [{ file: "inline", document: act(articles) }],
      rules: parseDomainRules("version: 1\nrules: []\n", "inline.yaml"),
    });
  /** The openers, as the in-memory model reads them. */
  const openers = async () => {
    const open: string[] = [];
    for await (const batch of readIndexedProvisions(store.db))
      for (const p of batch) if (p.opensSection) open.push(p.publicId.replace("loi-ouvertures/", ""));
    return open.sort();
  };

  beforeAll(async () => {
    store = await openTestStore(kind, `openers_${kind}`);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it("marks the first article in force of each section, and of the document's top level", async () => {
    await load([
      ["1", null],
      ["2", null],
      ["3", "S1"],
      ["4", "S1"],
      ["5", "S2", "repealed"],
      ["6", "S2"],
      ["7", "S2"],
    ]);
    expect(await openers()).toEqual(["1", "3", "6"]);
    // The index documents carry it for OpenSearch and Elasticsearch.
    const [opening, after] = await provisionsByPublicId(store.db, ["loi-ouvertures/3", "loi-ouvertures/4"]);
    expect(JSON.parse(opening!.json)).toMatchObject({ opens_section: true });
    expect(JSON.parse(after!.json)).toMatchObject({ opens_section: false });
  });

  it("follows the next run: an article inserted first opens its section, one repealed no longer does", async () => {
    const generation = await readSearchGeneration(store.db);
    const before = await provisionsByPublicId(store.db, ["loi-ouvertures/3"]);
    await load([
      ["1", null],
      ["2", null],
      ["2-1", "S1"],
      ["3", "S1"],
      ["4", "S1"],
      ["5", "S2", "repealed"],
      ["6", "S2", "repealed"],
      ["7", "S2"],
    ]);
    expect(await openers()).toEqual(["1", "2-1", "7"]);
    // What search reads moved: the in-memory copy is rebuilt, the index document is stale.
    expect(await readSearchGeneration(store.db)).not.toBe(generation);
    const after = await provisionsByPublicId(store.db, ["loi-ouvertures/3"]);
    expect(JSON.parse(after[0]!.json).content_hash).not.toBe(JSON.parse(before[0]!.json).content_hash);
  });

  it("changes nothing when the same snapshot is loaded again", async () => {
    const generation = await readSearchGeneration(store.db);
    await load([
      ["1", null],
      ["2", null],
      ["2-1", "S1"],
      ["3", "S1"],
      ["4", "S1"],
      ["5", "S2", "repealed"],
      ["6", "S2", "repealed"],
      ["7", "S2"],
    ]);
    expect(await openers()).toEqual(["1", "2-1", "7"]);
    expect(await readSearchGeneration(store.db)).toBe(generation);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SearchEngine } from "../../services/search/engine.ts";
import { describeEngine, ENGINE_KINDS, openEngine } from "../helpers/engines.ts";
import { ingestInline } from "../helpers/inline-acts.ts";
import { searchQuery as query } from "../helpers/search-query.ts";
import { openTestStore, type TestStore } from "../helpers/stores.ts";

/**
 * A hyphenated word reads the same on every engine: its parts, each somewhere in the provision
 * (the index engines' tokenizer splits at the hyphen and the word's clause requires every part;
 * Postgres searches the parts as an alternative, withHyphensApart). A slug typed as a query
 * (« rupture-contrat-apprentissage », as a site's address gives it) found nothing on Postgres,
 * which required the parts side by side, and the provision holding the three words on the others.
 */
const TEXTS: Array<[string, string]> = [
  ["L1", "La rupture anticipée du contrat d'apprentissage intervient par accord écrit des deux parties."],
  ["L2", "Le chèque-vacances est nominatif."],
  ["L3", "Le chèque remis au salarié pendant ses vacances est encaissé à son retour."],
  ["L4", "Le contrat de travail est exécuté de bonne foi."],
  ["L5", "La rupture du contrat de travail est notifiée par écrit."],
];

const act = {
  source: { name: "canonical", documentId: "HYPHENS", version: null },
  publicId: "code-des-traits-d-union",
  kind: "law" as const,
  title: "Code des traits d'union",
  jurisdiction: "FR",
  status: "in_force" as const,
  effectiveFrom: "2020-01-01",
  effectiveTo: null,
  sections: [],
  provisions: TEXTS.map(([number, text]) => ({
    sourceId: `HYPHENS-${number}`,
    versionId: `HYPHENS-${number}-v1`,
    number,
    text,
    status: "in_force" as const,
    effectiveFrom: "2020-01-01",
    effectiveTo: null,
    sectionId: null,
  })),
};

describe.each(ENGINE_KINDS)("hyphenated words: %s", (kind) => {
  let store: TestStore;
  let engine: SearchEngine;
  let close: () => Promise<void>;
  const numbers = async (q: string) =>
    (await engine.search(query(q, { limit: 10 }))).hits.map((hit) => hit.number).sort();

  beforeAll(async () => {
    console.log(`hyphenated words on ${describeEngine(kind)}`);
    store = await openTestStore("pglite", `hyphens_${kind}`);
    await ingestInline(store.db, [act]);
    ({ engine, close } = await openEngine(kind, store.db));
  });
  afterAll(async () => {
    await close?.();
    await store?.dispose();
  });

  it("finds a slug's words wherever the provision holds them, and marks them", async () => {
    expect(await numbers("rupture-contrat-apprentissage")).toEqual(["L1"]);
    const [hit] = (await engine.search(query("rupture-contrat-apprentissage", { limit: 1 }))).hits;
    expect(hit!.snippet).toContain("<mark>rupture</mark> anticipée du <mark>contrat</mark>");
  });

  it("finds a compound written with its hyphen or its words apart", async () => {
    expect(await numbers("chèque-vacances")).toEqual(["L2", "L3"]);
  });

  it("still requires every part", async () => {
    expect(await numbers("rupture-contrat")).toEqual(["L1", "L5"]);
    expect(await numbers("contrat-vacances")).toEqual([]);
  });
});

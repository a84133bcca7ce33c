import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../services/core/config.ts";
import { PostgresSearchEngine } from "../../services/search/postgres-engine.ts";
import type { Database } from "../../services/store/database.ts";
import { seedSmallCorpus } from "../helpers/api.ts";
import { ingestInline } from "../helpers/inline-acts.ts";
import { searchQuery } from "../helpers/search-query.ts";
import { openTestStore, type TestStore } from "../helpers/stores.ts";

/**
 * The in-memory copy never serves a corpus older than the store's: a search right after a change
 * (its words already analysed, so the store is asked nothing before ranking) finds what the change
 * brought, then the copy is rebuilt and finds it too, also when the rebuild ends while a search
 * ranked by the older copy is reading its page. On the embedded store, as `npm start` runs.
 */
const query = (q: string) => searchQuery(q);

const act = (text: string) => ({
  source: { name: "canonical", documentId: "FRESH", version: null },
  publicId: "loi-fraiche",
  kind: "law" as const,
  title: "Loi fraîche",
  jurisdiction: "FR",
  status: "in_force" as const,
  effectiveFrom: "2020-01-01",
  effectiveTo: null,
  sections: [],
  provisions: [
    {
      sourceId: "FRESH-1",
      versionId: `FRESH-1-${text.length}`,
      number: "1",
      text,
      status: "in_force" as const,
      effectiveFrom: "2020-01-01",
      effectiveTo: null,
      sectionId: null,
    },
  ],
});

describe("ranking in memory follows the corpus", () => {
  let store: TestStore;
  let engine: PostgresSearchEngine;
  const load = (text: string) => ingestInline(store.db, [act(text)]);

  beforeAll(async () => {
    store = await openTestStore("pglite", "memory_search");
    await seedSmallCorpus(store, parseConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "lc-memory-")) }));
    engine = new PostgresSearchEngine(store.db, undefined, { memory: true });
    await engine.ready();
  });
  afterAll(async () => {
    await engine?.close();
    await store?.dispose();
  });

  it("finds a provision loaded after the copy was built, at once and after the rebuild", async () => {
    // Analysed once: the next search of these words asks the store nothing before ranking.
    expect((await engine.search(query("ornithorynque palmé"))).total).toBe(0);
    await load("L'ornithorynque palmé est protégé par la présente loi.");
    const right = await engine.search(query("ornithorynque palmé"));
    expect(right.hits.map((h) => h.publicId)).toEqual(["loi-fraiche/1"]);
    expect(engine.describe()).toMatch(/ranked in memory/);
    await engine.ready();
    const rebuilt = await engine.search(query("ornithorynque palmé"));
    expect(rebuilt).toEqual(right);
  });

  it("forgets a provision's old words as soon as its text changes", async () => {
    await engine.ready();
    expect((await engine.search(query("ornithorynque"))).total).toBe(1);
    await load("Le castor d'Europe est protégé par la présente loi.");
    expect((await engine.search(query("ornithorynque"))).total).toBe(0);
    expect((await engine.search(query("castor"))).hits.map((h) => h.publicId)).toEqual(["loi-fraiche/1"]);
  });

  it("never serves a page ranked by a copy that a rebuild replaced meanwhile", async () => {
    // The race the CI hit once: a search ranked by the copy at generation A reads its page's rows
    // from the store after a rebuild, at B, has finished; the page is still A's. Here the store
    // holds the page's statement until the rebuild is over, so the race happens every time.
    let holdPage: (() => Promise<void>) | undefined;
    const held: Database = Object.create(store.db, {
      query: {
        value: async (sql: string, params?: unknown[], options?: object) => {
          if (holdPage && sql.includes("FROM search_generation") && !sql.includes("AS value")) {
            const hold = holdPage;
            holdPage = undefined;
            await hold();
          }
          return store.db.query(sql, params, options);
        },
      },
    });
    const racing = new PostgresSearchEngine(held, undefined, { memory: true });
    try {
      await load("Le blaireau d'Europe est protégé par la présente loi.");
      await racing.ready();
      expect((await racing.search(query("blaireau"))).hits.map((h) => h.publicId)).toEqual(["loi-fraiche/1"]);
      await load("La loutre d'Europe est protégée par la présente loi.");
      // The copy still ranks « blaireau » first; the rebuild finishes before the page is read.
      holdPage = () => racing.ready();
      expect((await racing.search(query("blaireau"))).total).toBe(0);
      expect(holdPage).toBeUndefined();
      expect((await racing.search(query("loutre"))).hits.map((h) => h.publicId)).toEqual(["loi-fraiche/1"]);
    } finally {
      await racing.close();
    }
  });
});

import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig, repoRoot } from "../../services/core/config.ts";
import { seedEmptyStore } from "../../services/runtime/first-start.ts";
import { PostgresSearchEngine } from "../../services/search/postgres-engine.ts";
import { corpusStats } from "../../services/store/stats.ts";
import { GUIDE_FIXTURES } from "../helpers/guides.ts";
import { openTestStore, type TestStore } from "../helpers/stores.ts";

/**
 * The service's first start on an empty store (INGEST_ON_FIRST_START): the LEGI codes, then the
 * Ministry of Labour's guides as search's document expansion, nothing fetched. Here the LEGI
 * excerpt and the guides' fixture stand for the bundled packages.
 */
describe("first start on an empty embedded store", () => {
  let store: TestStore;
  const config = parseConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "lc-first-start-")) });
  const legiDir = mkdtempSync(path.join(tmpdir(), "lc-first-start-legi-"));
  const options = { legi: { path: legiDir }, guidesPath: GUIDE_FIXTURES["fiches-travail"] };

  beforeAll(async () => {
    store = await openTestStore("pglite", "first_start");
    copyFileSync(
      path.join(repoRoot, "test/fixtures/legi/code-du-travail-excerpt.json"),
      path.join(legiDir, "LEGITEXT000006072050.json"),
    );
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it("loads the codes and the Ministry of Labour's guides, which search then reads", async () => {
    const seeded = await seedEmptyStore(store.db, config, options);
    expect(seeded?.legi.documents.total).toBe(1);
    expect(seeded?.guides.sources).toEqual([
      expect.objectContaining({ source: "fiches-travail", version: "0.0.1-fixture", stored: 2 }),
    ]);
    const stats = await corpusStats(store.db);
    expect(stats.guides.map((g) => `${g.source}@${g.version}`)).toEqual(["fiches-travail@0.0.1-fixture"]);
    // Found by the guide's lay words only ("boulot disparu" is in no article).
    const found = await new PostgresSearchEngine(store.db).search({
      q: "boulot disparu",
      limit: 3,
      offset: 0,
      domains: null,
      document: null,
      inForce: true,
      asOf: "2026-06-01",
    });
    expect(found.hits[0]?.publicId).toBe("code-du-travail/L1237-1-1");
  });

  it("leaves a store that holds documents as it is", async () => {
    const before = await corpusStats(store.db);
    expect(await seedEmptyStore(store.db, config, options)).toBeNull();
    expect(await corpusStats(store.db)).toEqual(before);
  });
});

import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestCanonicalFile } from "../../ingest/load.ts";
import { parseConfig, repoRoot } from "../../services/core/config.ts";
import { rebuildSearchStatistics, searchStatisticsDrift } from "../../services/store/search-statistics.ts";
import { seedSmallCorpus } from "../helpers/api.ts";
import { openTestStore, STORE_KINDS, type TestStore } from "../helpers/stores.ts";

const NONE = {
  missingPostings: 0,
  extraPostings: 0,
  wrongFrequencies: 0,
  wrongTotals: false,
  wrongReferences: 0,
};

/**
 * Postgres search reads term statistics that triggers keep in step with the provisions (migration
 * 009). Whatever the ingest does to provisions — add, change a text, drop one from the source,
 * delete a document — they must equal a recount.
 */
describe.each(STORE_KINDS)("search statistics on %s", (kind) => {
  let store: TestStore;
  const config = parseConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "lc-stats-")) });

  beforeAll(async () => {
    store = await openTestStore(kind, `search_stats_${kind}`);
    await seedSmallCorpus(store, config);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it("match a recount after the first ingest", async () => {
    const { rows } = await store.db.query<{ provisions: number }>("SELECT provisions FROM search_totals");
    expect(rows[0]!.provisions).toBeGreaterThan(10);
    expect(await searchStatisticsDrift(store.db)).toEqual(NONE);
  });

  it("follow a text changed, a provision dropped from the source and one added", async () => {
    const file = path.join(repoRoot, "test/fixtures/canonical/loi-exemple.json");
    type Node = { article?: string; text?: string; body?: Node[] };
    const canonical = JSON.parse(readFileSync(file, "utf8")) as { documents: Node[] };
    const chapter = canonical.documents[0]!.body![0]!.body![0]!;
    const article = chapter.body![0]!;
    article.text = `${article.text} Le harcèlement zygomatique est puni (article L. 1152-1).`;
    chapter.body!.push({ ...article, article: "200", text: "Un article ajouté sur la durée." });
    // Article 8 leaves the source.
    canonical.documents[0]!.body![0]!.body![1]!.body = [];
    const edited = path.join(mkdtempSync(path.join(tmpdir(), "lc-stats-doc-")), "loi-exemple.json");
    writeFileSync(edited, JSON.stringify(canonical));
    const summary = await ingestCanonicalFile(store.db, config, edited);
    expect(summary.provisions).toMatchObject({ added: 1, changed: 1, absent: 1 });
    const { rows } = await store.db.query(
      "SELECT df, df_text, df_headings, df_guides FROM search_lexemes WHERE lexeme = 'zygomat'",
    );
    expect(rows).toEqual([{ df: 1, df_text: 1, df_headings: 0, df_guides: 0 }]);
    expect(await searchStatisticsDrift(store.db)).toEqual(NONE);
  });

  it("follow a document deleted", async () => {
    await store.db.query("DELETE FROM documents WHERE source_id = 'JORFTEXT000032983213'");
    const { rows } = await store.db.query(
      "SELECT df, df_text, df_headings, df_guides FROM search_lexemes WHERE lexeme = 'zygomat'",
    );
    expect(rows).toEqual([{ df: 0, df_text: 0, df_headings: 0, df_guides: 0 }]);
    expect(await searchStatisticsDrift(store.db)).toEqual(NONE);
  });

  it("are found wrong when one field's frequency is", async () => {
    await store.db.query("UPDATE search_lexemes SET df_headings = df_headings + 1 WHERE lexeme = 'essai'");
    expect(await searchStatisticsDrift(store.db)).toEqual({ ...NONE, wrongFrequencies: 1 });
    await store.db.query("UPDATE search_lexemes SET df_headings = df_headings - 1 WHERE lexeme = 'essai'");
    expect(await searchStatisticsDrift(store.db)).toEqual(NONE);
  });

  it("are found wrong when they are, and rebuilt", async () => {
    await store.db.query("UPDATE search_lexemes SET df = df + 1 WHERE lexeme = 'travail'");
    await store.db.query("DELETE FROM search_postings WHERE lexeme = 'period'");
    await store.db.query(
      "DELETE FROM provision_references WHERE provision_id = (SELECT min(provision_id) FROM provision_references)",
    );
    const drift = await searchStatisticsDrift(store.db);
    expect(drift.wrongFrequencies).toBeGreaterThan(0);
    expect(drift.missingPostings).toBeGreaterThan(0);
    expect(drift.wrongReferences).toBeGreaterThan(0);
    await store.db.transaction((tx) => rebuildSearchStatistics(tx));
    expect(await searchStatisticsDrift(store.db)).toEqual(NONE);
  });
});

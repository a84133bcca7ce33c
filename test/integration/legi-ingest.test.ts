import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveLegiSnapshot } from "../../ingest/sources/legi/snapshot.ts";
import { corpusStats } from "../../services/store/stats.ts";
import { ingestLegiSnapshot, SNAPSHOT_CACHE } from "../helpers/corpus.ts";
import { countRawCode, type RawCodeCounts } from "../helpers/legi-raw.ts";
import { corpusChecksum, openTestStore, STORE_KINDS, type TestStore } from "../helpers/stores.ts";

describe.each(STORE_KINDS)("full LEGI ingest on %s", (kind) => {
  let store: TestStore;
  let raw: RawCodeCounts[];

  beforeAll(async () => {
    store = await openTestStore(kind, "legi_full");
    const snapshot = await resolveLegiSnapshot({ cacheDir: SNAPSHOT_CACHE });
    raw = snapshot.codes.map((code) => countRawCode(path.join(snapshot.dataDir, `${code}.json`)));
  });
  afterAll(async () => store?.dispose());

  it("loads the four codes with the counts of the raw files", async () => {
    const summary = await ingestLegiSnapshot(store.db);
    const expectedProvisions = raw.reduce((n, code) => n + code.uniqueArticles, 0);
    expect(raw).toHaveLength(4);
    expect(expectedProvisions).toBeGreaterThan(28_000);
    expect(summary.documents).toEqual({ total: 4, created: 4, updated: 0, unchanged: 0, stale: 0 });
    expect(summary.provisions.added).toBe(expectedProvisions);
    expect(summary.versions).toBe(raw.reduce((n, code) => n + code.versions, 0));

    const { rows } = await store.db.query<{
      source_id: string;
      provisions: number;
      sections: number;
      links: number;
    }>(
      `SELECT d.source_id,
              (SELECT count(*) FROM provisions p WHERE p.document_id = d.id)::int AS provisions,
              (SELECT count(*) FROM sections s WHERE s.document_id = d.id)::int AS sections,
              (SELECT count(*) FROM provision_links l JOIN provisions p ON p.id = l.provision_id WHERE p.document_id = d.id)::int AS links
       FROM documents d ORDER BY d.source_id`,
    );
    expect(rows).toEqual(
      raw.map((code) => ({
        source_id: code.file.replace(".json", ""),
        provisions: code.uniqueArticles,
        sections: code.sections,
        links: code.links,
      })),
    );
    // A bound, not a timing: 96–145 s on a busy CI machine, under 60 s on a quiet one.
  }, 600_000);

  it("leaves the planner fresh statistics: a search must not wait for autovacuum (issue 18, item 12)", async () => {
    // last_analyze is set by an explicit ANALYZE only (autovacuum's is last_autoanalyze).
    const { rows } = await store.db.query<{ relname: string; analyzed: boolean }>(
      `SELECT relname, last_analyze IS NOT NULL AS analyzed FROM pg_stat_user_tables
       WHERE relname IN ('provisions', 'search_postings', 'search_lexemes') ORDER BY relname`,
    );
    expect(rows).toEqual([
      { relname: "provisions", analyzed: true },
      { relname: "search_lexemes", analyzed: true },
      { relname: "search_postings", analyzed: true },
    ]);
  });

  it("stores LEGI's placeholder dates (2222-02-22: not yet known; 2999-01-01: no end) as no date", async () => {
    const snapshot = await resolveLegiSnapshot({ cacheDir: SNAPSHOT_CACHE });
    const placeholders = snapshot.codes
      .map((code) => readFileSync(path.join(snapshot.dataDir, `${code}.json`), "utf8"))
      .reduce((n, text) => n + (text.match(/7956835200000/g)?.length ?? 0), 0);
    expect(placeholders).toBeGreaterThan(0);
    const { rows } = await store.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM provisions WHERE effective_to >= DATE '2222-02-22' OR effective_from >= DATE '2222-02-22')
            + (SELECT count(*) FROM provision_versions WHERE effective_to >= DATE '2222-02-22' OR repealed_on >= DATE '2222-02-22')
            + (SELECT count(*) FROM change_log WHERE effective_on >= DATE '2222-02-22') AS n`,
    );
    expect(Number(rows[0]!.n)).toBe(0);
    // A scheduled repeal whose day is not known: in force, with no end.
    const { rows: deferred } = await store.db.query<{ status: string; effective_to: string | null }>(
      "SELECT status, effective_to::text FROM provisions WHERE public_id = 'code-du-travail/L742-2'",
    );
    expect(deferred).toEqual([{ status: "in_force", effective_to: null }]);
  });

  it("gives every provision a readable public id and keeps source ids", async () => {
    const { rows } = await store.db.query<{
      public_id: string;
      source_id: string;
      version_id: string;
      text: string;
    }>(
      "SELECT public_id, source_id, version_id, text FROM provisions WHERE public_id = 'code-du-travail/L1237-1-1'",
    );
    expect(rows[0]?.text).toMatch(/abandonné volontairement son poste/);
    const repeated = await store.db.query<{ public_id: string }>(
      "SELECT public_id FROM provisions WHERE public_id = 'code-du-travail/Annexe-I' OR public_id LIKE 'code-du-travail/Annexe-I~%' ORDER BY position",
    );
    expect(repeated.rows.map((r) => r.public_id)).toEqual([
      "code-du-travail/Annexe-I",
      expect.stringMatching(/^code-du-travail\/Annexe-I~\d+$/),
    ]);
    const unclassified = await store.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM provisions WHERE cardinality(domains) = 0",
    );
    expect(unclassified.rows[0]?.n).toBe(0);
  });

  it("reports what is loaded", async () => {
    const stats = await corpusStats(store.db);
    expect(stats.documents).toBe(4);
    expect(stats.provisions).toBe(raw.reduce((n, code) => n + code.uniqueArticles, 0));
    expect(stats.perDomain.labour).toBeGreaterThan(18_000);
    expect(stats.lastIngest?.sourceVersion).toMatch(/^@socialgouv\/legi-data@\d+\.\d+\.\d+$/);
  });

  it("changes nothing when the same snapshot is ingested again", async () => {
    const before = await corpusChecksum(store.db);
    const again = await ingestLegiSnapshot(store.db);
    expect(again.documents.unchanged).toBe(4);
    expect(again.provisions).toMatchObject({ added: 0, changed: 0, absent: 0 });
    expect(await corpusChecksum(store.db)).toEqual(before);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../services/store/migrate.ts";
import { ingestInline, lawOf } from "../helpers/inline-acts.ts";
import { openTestStore, STORE_KINDS, type TestStore } from "../helpers/stores.ts";

/**
 * The planner's statistics after an ingest run (migration 033, refreshPlannerStatistics): refreshed
 * when the runs since the last refreshing run wrote more than 50 provisions plus a tenth of the
 * store (autovacuum's rule), kept otherwise, so an editor's act of a few articles does not pay an
 * ANALYZE of the whole store. What the runs wrote is summed from their summaries, on PGlite as on
 * Postgres, where the row counters of pg_stat_user_tables could not be read the same way.
 */
const law = (key: string, count: number, wording = "dispose") =>
  lawOf(
    key,
    `loi-${key.toLowerCase()}`,
    `Loi ${key}`,
    Array.from({ length: count }, (_, i) => [
      String(i + 1),
      `L'article ${i + 1} ${wording} de la règle ${key}.`,
    ]),
  );

describe.each(STORE_KINDS)("the planner's statistics after ingest runs on %s", (kind) => {
  let store: TestStore;
  /** A run submitted before the others (admin endpoint, `corpus runs submit`), run last. */
  let queued: number;
  beforeAll(async () => {
    store = await openTestStore(kind, `planner_statistics_${kind}`);
    const { rows } = await store.db.query<{ id: number }>(
      "INSERT INTO ingest_runs (source, status) VALUES ('canonical', 'queued') RETURNING id",
    );
    queued = rows[0]!.id;
  });
  afterAll(() => store?.dispose());

  /** The provisions' row count as ANALYZE last recorded it (-1: never). */
  const analyzedRows = async () =>
    (
      await store.db.query<{ n: number }>(
        "SELECT reltuples::int AS n FROM pg_class WHERE oid = 'provisions'::regclass",
      )
    ).rows[0]!.n;
  const run = async (key: string, count: number, wording?: string, runId?: number) => {
    const document = law(key, count, wording);
    const summary = await ingestInline(store.db, [document], undefined, runId);
    const { rows } = await store.db.query<{ analyzed: boolean }>(
      "SELECT analyzed_at IS NOT NULL AS analyzed FROM ingest_runs WHERE id = $1",
      [summary.runId],
    );
    expect(rows[0]!.analyzed).toBe(summary.statisticsRefreshed);
    return summary.statisticsRefreshed;
  };

  it("refreshes them after the first load, and records which run did", async () => {
    expect(await run("A", 200)).toBe(true);
    expect(await analyzedRows()).toBe(200);
  });

  it("keeps them after a run writing a few provisions, and sums the runs until they pass the threshold", async () => {
    // 200 provisions analysed: due past 50 + 20 written since.
    expect(await run("B", 5)).toBe(false);
    expect(await run("C", 60)).toBe(false); // 65 written since the refresh
    expect(await analyzedRows()).toBe(200);
    expect(await run("D", 10)).toBe(true); // 75
    expect(await analyzedRows()).toBe(275);
  });

  it("counts what a run wrote, not what it found unchanged", async () => {
    expect(await run("A", 200)).toBe(false);
    // Every text of A rewritten: 200 changed, over 50 + 27.5.
    expect(await run("A", 200, "prévoit")).toBe(true);
    expect(await analyzedRows()).toBe(275);
  });

  it("counts a run submitted before the last refresh and run after it", async () => {
    // 275 analysed: due past 77.5. The queued run's id is older than every refreshing run's.
    expect(await run("F", 60, undefined, queued)).toBe(false);
    expect(await run("G", 20)).toBe(true); // 80
    expect(await analyzedRows()).toBe(355);
  });
});

describe.each(STORE_KINDS)("migration 033 on %s", (kind) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore(kind, `planner_statistics_upgrade_${kind}`, "032");
  });
  afterAll(() => store?.dispose());

  it("counts the runs finished before it as refreshed, and a run still queued as not yet", async () => {
    const finished = (await ingestInline(store.db, [law("H", 3)])).runId;
    const { rows } = await store.db.query<{ id: number }>(
      "INSERT INTO ingest_runs (source, status) VALUES ('canonical', 'queued') RETURNING id",
    );
    await migrate(store.db);
    const { rows: runs } = await store.db.query<{ id: number; analyzed: boolean }>(
      "SELECT id, analyzed_at IS NOT NULL AS analyzed FROM ingest_runs ORDER BY id",
    );
    expect(runs).toEqual([
      { id: finished, analyzed: true },
      { id: rows[0]!.id, analyzed: false },
    ]);
  });
});

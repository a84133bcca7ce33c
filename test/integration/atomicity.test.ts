import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveLegiSnapshot } from "../../ingest/sources/legi/snapshot.ts";
import type { Database } from "../../services/store/database.ts";
import { startCli } from "../helpers/cli.ts";
import { ingestLegiSnapshot, SNAPSHOT_CACHE } from "../helpers/corpus.ts";
import { countRawCode } from "../helpers/legi-raw.ts";
import { openTestStore, type TestStore } from "../helpers/stores.ts";

/**
 * Kill -9 of the CLI in the middle of replacing an older LEGI snapshot (2.229.0) with the current
 * one: afterwards every document must be exactly the old one or exactly the new one, never a mix.
 * The expected states are computed from the raw snapshot files, not by the code under test.
 */
const OLD_VERSION = "2.229.0";
const RUNS = Number(process.env.ATOMICITY_RUNS ?? 3);

type VersionMap = Map<string, string>; // stable article id → current version id

async function storedState(db: Database): Promise<Map<string, VersionMap>> {
  const { rows } = await db.query<{ document: string; source_id: string; version_id: string }>(
    `SELECT d.source_id AS document, p.source_id, p.version_id FROM provisions p
     JOIN documents d ON d.id = p.document_id WHERE p.present_in_source`,
  );
  const state = new Map<string, VersionMap>();
  for (const row of rows) {
    if (!state.has(row.document)) state.set(row.document, new Map());
    state.get(row.document)!.set(row.source_id, row.version_id);
  }
  return state;
}

const sameMap = (a: VersionMap | undefined, b: VersionMap) =>
  a !== undefined && a.size === b.size && [...b].every(([k, v]) => a.get(k) === v);

describe("a killed ingest leaves every document fully old or fully new (server Postgres)", () => {
  let store: TestStore;
  const expected = { old: new Map<string, VersionMap>(), new: new Map<string, VersionMap>() };

  beforeAll(async () => {
    store = await openTestStore("postgres", "atomicity");
    for (const [which, version] of [
      ["old", OLD_VERSION],
      ["new", undefined],
    ] as const) {
      const snapshot = await resolveLegiSnapshot({ version, cacheDir: SNAPSHOT_CACHE });
      for (const code of snapshot.codes) {
        expected[which].set(code, countRawCode(path.join(snapshot.dataDir, `${code}.json`)).currentVersions);
      }
    }
  });
  afterAll(async () => store?.dispose());

  // Each run loads, kills and reloads the four codes: 600 s is a wait bound, not a speed check.
  it.each(Array.from({ length: RUNS }, (_, i) => i + 1))(
    "run %i: SIGKILL at a random point",
    async (run) => {
      await store.db.exec(
        "TRUNCATE documents, provisions, sections, provision_versions, provision_links, ingest_runs CASCADE",
      );
      await ingestLegiSnapshot(store.db, OLD_VERSION);

      const { child, done } = startCli(["ingest", "legi"], {
        DATABASE_URL: store.url!,
        DATA_DIR: SNAPSHOT_CACHE,
      });
      // Wait until the new run is writing, then kill it somewhere in the next few seconds.
      for (let i = 0; i < 200; i++) {
        const { rows } = await store.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM ingest_runs WHERE status = 'running'",
        );
        if (rows[0]!.n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const delay = 300 + Math.floor(Math.random() * 6000);
      await new Promise((resolve) => setTimeout(resolve, delay));
      child.kill("SIGKILL");
      const result = await done;

      const state = await storedState(store.db);
      const verdicts = [...expected.new.keys()].map((code) => {
        const stored = state.get(code);
        if (sameMap(stored, expected.new.get(code)!)) return "new";
        if (sameMap(stored, expected.old.get(code)!)) return "old";
        return "MIXED";
      });
      console.log(
        `run ${run}: killed after ${delay} ms (${result.signal ?? `exit ${result.code}`}); documents: ${verdicts.join(", ")}`,
      );
      expect(verdicts).not.toContain("MIXED");

      // Running the ingest again completes the work and marks the killed run as abandoned.
      const finished = await startCli(["ingest", "legi"], {
        DATABASE_URL: store.url!,
        DATA_DIR: SNAPSHOT_CACHE,
      }).done;
      expect(finished.code).toBe(0);
      const final = await storedState(store.db);
      for (const [code, versions] of expected.new) expect(sameMap(final.get(code), versions)).toBe(true);
      const { rows } = await store.db.query<{ status: string }>("SELECT status FROM ingest_runs ORDER BY id");
      expect(rows.map((r) => r.status)).not.toContain("running");
    },
    600_000,
  );
});

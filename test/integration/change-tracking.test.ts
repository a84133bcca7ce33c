import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Worker } from "bullmq";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ingestLegi } from "../../ingest/load.ts";
import type { IngestSummary } from "../../ingest/pipeline/ingest.ts";
import { resolveLegiSnapshot } from "../../ingest/sources/legi/snapshot.ts";
import { type Config, parseConfig } from "../../services/core/config.ts";
import {
  changeSink,
  dispatchChanges,
  startChangeWriter,
  withChangesDelivered,
} from "../../services/jobs/change-log-job.ts";
import { queueSettings } from "../../services/jobs/queues.ts";
import { writeChangeBatch } from "../../services/store/change-log.ts";
import { CHANGE_OUTBOX } from "../../services/store/change-outbox.ts";
import type { Database } from "../../services/store/database.ts";
import { pendingCount, redispatchStale, takeUndispatched } from "../../services/store/outbox.ts";
import { SNAPSHOT_CACHE } from "../helpers/corpus.ts";
import {
  expectedFirstIngest,
  expectedReingest,
  type KindCounts,
  rawArticles,
} from "../helpers/legi-changes.ts";
import { corpusChecksum, openTestStore, type TestStore } from "../helpers/stores.ts";

/**
 * Change tracking on two real snapshots of the same law: @socialgouv/legi-data 2.229.0
 * (February 2023) and the installed version. The counts of added, amended and repealed
 * provisions are compared, per code, with counts test/helpers/legi-changes.ts computes from the
 * raw files alone.
 */

const OLD = "2.229.0";
const CODES = [
  "LEGITEXT000006072050",
  "LEGITEXT000006073189",
  "LEGITEXT000022197698",
  "LEGITEXT000031366350",
];

async function snapshots() {
  const older = await resolveLegiSnapshot({ version: OLD, cacheDir: SNAPSHOT_CACHE });
  const newer = await resolveLegiSnapshot({ cacheDir: SNAPSHOT_CACHE });
  const file = (dataDir: string, code: string) => path.join(dataDir, `${code}.json`);
  return {
    older: { dir: path.dirname(older.dataDir), file: (code: string) => file(older.dataDir, code) },
    newer: { dir: path.dirname(newer.dataDir), file: (code: string) => file(newer.dataDir, code) },
  };
}

/** Entries the change log holds for one run, per code (LEGITEXT…) and kind. */
async function loggedByCode(db: Database, runId: number): Promise<Record<string, KindCounts>> {
  const { rows } = await db.query<{ code: string; kind: keyof KindCounts; n: number }>(
    `SELECT d.source_id AS code, c.kind, count(*)::int AS n FROM change_log c JOIN documents d ON d.id = c.document_id
     WHERE c.run_id = $1 GROUP BY 1, 2`,
    [runId],
  );
  const counts: Record<string, KindCounts> = {};
  for (const row of rows) {
    counts[row.code] ??= { added: 0, amended: 0, repealed: 0 };
    counts[row.code]![row.kind] = row.n;
  }
  return counts;
}

async function logSize(db: Database): Promise<number> {
  const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM change_log");
  return rows[0]!.n;
}

async function until(condition: () => Promise<boolean>, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the change log writer");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function testConfig(overrides: Record<string, string> = {}): Config {
  return parseConfig({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "lc-changes-")),
    LOG_LEVEL: "silent",
    ...overrides,
  });
}

describe("change tracking on Postgres, events through BullMQ on Redis", () => {
  let store: TestStore;
  let config: Config;
  let writer: Worker;
  let files: Awaited<ReturnType<typeof snapshots>>;
  const runs: IngestSummary[] = [];

  const load = async (which: "older" | "newer") => {
    const summary = await withChangesDelivered(store.db, config, () =>
      ingestLegi(store.db, config, { path: files[which].dir }),
    );
    // The writer is another consumer of the queue: the log is complete when the outbox is empty.
    await until(async () => (await pendingCount(store.db, CHANGE_OUTBOX)) === 0);
    runs.push(summary);
    return summary;
  };

  beforeAll(async () => {
    files = await snapshots();
    store = await openTestStore("postgres", "change_tracking");
    config = testConfig({
      DATABASE_URL: store.url!,
      REDIS_URL: inject("redisUrl"),
      REDIS_PREFIX: `lc-changes-${randomBytes(4).toString("hex")}`,
    });
    writer = startChangeWriter(store.db, queueSettings(config)!, pino({ level: "silent" }));
  });
  afterAll(async () => {
    await writer?.close();
    await store?.dispose();
  });

  it("records the whole version history of the older snapshot, as the raw files give it", async () => {
    const summary = await load("older");
    expect(summary.documents.created).toBe(4);
    const logged = await loggedByCode(store.db, summary.runId);
    for (const code of CODES) expect(logged[code], code).toEqual(expectedFirstIngest(files.older.file(code)));
  });

  it("records every addition, amendment and repeal of the newer snapshot exactly once", async () => {
    const before = await logSize(store.db);
    const summary = await load("newer");
    expect(summary.documents.updated).toBe(4);
    const logged = await loggedByCode(store.db, summary.runId);
    let total = 0;
    for (const code of CODES) {
      const expected = expectedReingest(files.older.file(code), files.newer.file(code));
      expect(logged[code], code).toEqual(expected);
      // Real change between February 2023 and the current snapshot, in every code.
      expect(expected.added + expected.amended + expected.repealed, code).toBeGreaterThan(10);
      total += expected.added + expected.amended + expected.repealed;
    }
    expect(await logSize(store.db)).toBe(before + total);
  });

  it("keeps the text of the version each snapshot had as current", async () => {
    const older = rawArticles(files.older.file(CODES[0]!));
    const newer = rawArticles(files.newer.file(CODES[0]!));
    const amended = [...newer.values()].filter((a) => older.has(a.cid) && older.get(a.cid)!.id !== a.id);
    expect(amended.length).toBeGreaterThan(100);
    const { rows } = await store.db.query<{ version_id: string; text: string | null }>(
      `SELECT v.version_id, v.text FROM provision_versions v JOIN provisions p ON p.id = v.provision_id
       WHERE v.version_id = ANY($1)`,
      [amended.flatMap((a) => [a.id, older.get(a.cid)!.id])],
    );
    const texts = new Map(rows.map((r) => [r.version_id, r.text]));
    for (const a of amended) {
      const raw = (older.get(a.cid) as unknown as { texte: string }).texte;
      expect(texts.get(older.get(a.cid)!.id), a.cid).toBe(raw);
      expect(texts.get(a.id), a.cid).toBe((a as unknown as { texte: string }).texte);
    }
  });

  it("records nothing when the newer snapshot is loaded again", async () => {
    const before = await logSize(store.db);
    const summary = await load("newer");
    expect(summary.documents).toMatchObject({ unchanged: 4, updated: 0 });
    expect(summary.changes).toBe(0);
    expect(await logSize(store.db)).toBe(before);
  });

  it("neither rolls back nor records anything when the older snapshot is loaded again", async () => {
    const corpus = await corpusChecksum(store.db);
    const before = await logSize(store.db);
    const summary = await load("older");
    expect(summary.documents).toMatchObject({ stale: 4, updated: 0 });
    expect(summary.changes).toBe(0);
    expect(await logSize(store.db)).toBe(before);
    expect(await corpusChecksum(store.db)).toEqual(corpus);
  });

  it("reports a vanished provision with the window it was repealed in", async () => {
    const { rows } = await store.db.query<Record<string, unknown>>(
      `SELECT to_char(effective_after, 'YYYY-MM-DD') AS after, to_char(effective_by, 'YYYY-MM-DD') AS by,
              to_char(listed_on, 'YYYY-MM-DD') AS listed, effective_on, origin, version_after
       FROM change_log WHERE origin = 'snapshot_comparison' AND kind = 'repealed' LIMIT 1`,
    );
    expect(rows[0]).toMatchObject({ effective_on: null, origin: "snapshot_comparison", version_after: null });
    expect(rows[0]!.after).toMatch(/^2023-/);
    expect(rows[0]!.by).toMatch(/^202[4-9]-/);
    expect(rows[0]!.listed).toBe(rows[0]!.by);
  });
});

describe("the change-log writer under retries and lost jobs (embedded PGlite, in-process)", () => {
  let store: TestStore;
  let files: Awaited<ReturnType<typeof snapshots>>;
  const crpa = "LEGITEXT000031366350";

  beforeAll(async () => {
    files = await snapshots();
    store = await openTestStore("pglite", "change_writer");
  });
  afterAll(async () => store?.dispose());

  it("loses nothing when a job is lost, and doubles nothing when one runs twice", async () => {
    const config = testConfig();
    const { ingest } = await import("../../ingest/pipeline/ingest.ts");
    const { readLegiCodes } = await import("../../ingest/sources/legi/snapshot.ts");
    const { shippedRules } = await import("../helpers/corpus.ts");
    const snapshot = await resolveLegiSnapshot({ path: files.older.dir, cacheDir: config.DATA_DIR });
    // Ingest without delivering: the events wait in the outbox.
    const summary = await ingest(store.db, {
      source: "legi",
      sourceVersion: snapshot.label,
      parameters: {},
      documentsTotal: 1,
      documents: readLegiCodes(snapshot, [crpa]),
      rules: shippedRules(),
    });
    const expected = expectedFirstIngest(files.older.file(crpa));
    const expectedTotal = expected.added + expected.amended + expected.repealed;
    expect(summary.changes).toBe(expectedTotal);

    // A job taken from the outbox and lost with its queue: nothing reaches the log…
    const lost = await takeUndispatched(store.db, CHANGE_OUTBOX, 100);
    expect(lost?.items.length).toBe(100);
    // …the rest is delivered, and one batch is delivered twice (a retry after a timeout).
    const delivered: Parameters<typeof writeChangeBatch>[1][] = [];
    await dispatchChanges(store.db, async (batch) => {
      delivered.push(batch);
      await writeChangeBatch(store.db, batch);
    });
    expect(await writeChangeBatch(store.db, delivered[0]!)).toBe(0);
    expect(await pendingCount(store.db, CHANGE_OUTBOX)).toBe(100);

    // The dispatcher's maintenance hands the lost range over again.
    expect(await redispatchStale(store.db, CHANGE_OUTBOX, 0)).toBe(100);
    await dispatchChanges(store.db, changeSink(store.db));
    expect(await pendingCount(store.db, CHANGE_OUTBOX)).toBe(0);
    const logged = await loggedByCode(store.db, summary.runId);
    expect(logged[crpa]).toEqual(expected);
    expect(await logSize(store.db)).toBe(expectedTotal);
  });
});

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../services/store/database.ts";
import { EmbeddedStoreStopped } from "../../services/store/embedded-database.ts";
import { openTestStore, type TestStore } from "../helpers/stores.ts";

/**
 * Embedded PGlite runs in a worker thread (services/store/embedded-database.ts). Through it the
 * store must behave as in-thread PGlite did: real transactions that nothing else interleaves
 * into, Postgres error fields, notifications, the same value parsers, and a clean close; a worker
 * that dies must fail the calls waiting on it rather than leave them hanging.
 */
describe("embedded store in a worker thread", () => {
  let store: TestStore;
  let db: Database;

  beforeAll(async () => {
    store = await openTestStore("pglite", "embedded_worker");
    db = store.db;
    await db.exec(`
      CREATE TABLE worker_items (id int PRIMARY KEY, label text NOT NULL);
      CREATE TABLE worker_log (entry text NOT NULL);`);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it("reads values as in-thread PGlite did: dates as text, counts as numbers, unaccent", async () => {
    const { rows } = await db.query(
      "SELECT '2024-02-29'::date AS day, 9007199254740::int8 AS big, 2.5::numeric AS ratio, unaccent('Sécurité') AS folded, $1::jsonb AS doc",
      [{ a: [1, "é"] }],
    );
    expect(rows).toEqual([
      { day: "2024-02-29", big: 9007199254740, ratio: 2.5, folded: "Securite", doc: { a: [1, "é"] } },
    ]);
  });

  it("keeps Postgres's error fields, in and out of transactions", async () => {
    await db.query("INSERT INTO worker_items VALUES (1, 'one')");
    const outside = await db.query("INSERT INTO worker_items VALUES (1, 'again')").catch((error) => error);
    expect(outside).toBeInstanceOf(Error);
    expect(outside).toMatchObject({
      code: "23505",
      constraint: "worker_items_pkey",
      detail: "Key (id)=(1) already exists.",
      severity: "ERROR",
      table: "worker_items",
    });
    expect(outside.message).toBe('duplicate key value violates unique constraint "worker_items_pkey"');

    const inside = await db
      .transaction(async (tx) => tx.query("INSERT INTO worker_items VALUES (2, NULL)"))
      .catch((error) => error);
    expect(inside).toMatchObject({ code: "23502", column: "label" });
    expect((await db.query("SELECT id FROM worker_items WHERE id = 2")).rows).toEqual([]);
  });

  it("runs a transaction's statements inside it and nobody else's, and rolls it back on a throw", async () => {
    const events: string[] = [];
    let outsideWrite: Promise<unknown> | undefined;
    const failed = await db
      .transaction(async (tx) => {
        await tx.query("INSERT INTO worker_items VALUES (10, 'in the transaction')");
        // Sent while the transaction is open: it must wait for the transaction, not join it.
        outsideWrite = db
          .query("INSERT INTO worker_log VALUES ('outside')")
          .then(() => events.push("outside write done"));
        const seen = await tx.query<{ n: number }>("SELECT count(*)::int AS n FROM worker_log");
        events.push(`transaction saw ${seen.rows[0]!.n} log entries`);
        throw new Error("changed my mind");
      })
      .catch((error: Error) => error.message);
    await outsideWrite;
    expect(failed).toBe("changed my mind");
    expect(events).toEqual(["transaction saw 0 log entries", "outside write done"]);
    // Rolled back: the transaction's row is gone; the outside write was not part of it and stays.
    expect((await db.query("SELECT id FROM worker_items WHERE id = 10")).rows).toEqual([]);
    expect((await db.query("SELECT entry FROM worker_log")).rows).toEqual([{ entry: "outside" }]);
  });

  it("commits what the callback wrote and returns its value; a finished transaction takes no more statements", async () => {
    let kept: Parameters<Parameters<Database["transaction"]>[0]>[0] | undefined;
    const value = await db.transaction(async (tx) => {
      kept = tx;
      await tx.query("INSERT INTO worker_items VALUES (20, 'committed')");
      return "done";
    });
    expect(value).toBe("done");
    expect((await db.query("SELECT label FROM worker_items WHERE id = 20")).rows).toEqual([
      { label: "committed" },
    ]);
    await expect(kept!.query("SELECT 1")).rejects.toThrow("Transaction is closed");
  });

  it("forwards notifications to listeners, and stops after unlisten", async () => {
    const received: string[] = [];
    const states: boolean[] = [];
    const unlisten = await db.listen(
      "worker_channel",
      (payload) => received.push(payload),
      (listening) => states.push(listening),
    );
    await db.query("SELECT pg_notify('worker_channel', 'first')");
    await db.transaction(async (tx) => {
      await tx.query("SELECT pg_notify('worker_channel', 'at commit')");
    });
    // A notification is posted before the answer of the statement that delivered it.
    await db.query("SELECT 1");
    expect(received).toEqual(["first", "at commit"]);
    await unlisten();
    await db.query("SELECT pg_notify('worker_channel', 'unheard')");
    await db.query("SELECT 1");
    expect(received).toEqual(["first", "at commit"]);
    expect(states).toEqual([true]);
  });

  it("says how recently it answered and what it has under way", async () => {
    const before = Date.now();
    const running = db.query("SELECT pg_sleep(0.2)");
    expect(db.activity().inFlight).toBe(1);
    await running;
    expect(db.activity().inFlight).toBe(0);
    expect(db.activity().lastAnswerAt).toBeGreaterThanOrEqual(before);
  });
});

describe("embedded store lifecycle", () => {
  it("closes cleanly: the data is on disk for the next open, and calls after close are refused", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "lc-worker-"));
    try {
      const first = await openDatabase({ dataDir: path.join(dir, "pglite") });
      await first.exec("CREATE TABLE kept (v text); INSERT INTO kept VALUES ('written before close')");
      await first.close();
      await first.close();
      await expect(first.query("SELECT 1")).rejects.toThrow("The embedded store is closed");

      const second = await openDatabase({ dataDir: path.join(dir, "pglite") });
      expect((await second.query("SELECT v FROM kept")).rows).toEqual([{ v: "written before close" }]);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("fails the calls waiting on a worker that died, then every later call, without hanging", async () => {
    const stopped: Error[] = [];
    const db = await openDatabase({ onEmbeddedStopped: (error) => stopped.push(error) });
    const sleeping = db.query("SELECT pg_sleep(30)");
    const queued = db.query("SELECT 1");
    // What a crash of the thread looks like from the server's side: it exits without answering.
    await (db as unknown as { worker: Worker }).worker.terminate();
    await expect(sleeping).rejects.toBeInstanceOf(EmbeddedStoreStopped);
    await expect(queued).rejects.toThrow(/^The embedded store \(PGlite worker thread\) stopped: /);
    await expect(db.query("SELECT 1")).rejects.toBeInstanceOf(EmbeddedStoreStopped);
    expect(stopped).toHaveLength(1);
    await db.close();
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../services/store/database.ts";
import { storeReadiness } from "../../services/store/readiness.ts";
import { startTestApi, type TestApi } from "../helpers/api.ts";
import { createTestDatabase } from "../helpers/postgres.ts";

/**
 * "/healthz and /readyz never wait on a search" (issue 17). Asserted by order, not by timing: the
 * health answers must arrive while a long statement still holds the store.
 */
describe("health checks while the embedded store is busy", () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi("pglite", { redis: false, label: "health_under_load" });
  });
  afterAll(async () => {
    await api?.close();
  });

  const get = async (path: string, finished: string[]) => {
    const response = await fetch(`${api.baseUrl}${path}`);
    const body = (await response.json()) as any;
    finished.push(path);
    return { status: response.status, body };
  };

  it("answers /healthz and /readyz before a long statement on the store ends", async () => {
    const finished: string[] = [];
    // The same Database the app's searches go through; PGlite runs one statement at a time.
    const slow = api.ctx.db.query("SELECT pg_sleep(3)").then(() => finished.push("slow statement"));
    const [health, ready] = await Promise.all([get("/healthz", finished), get("/readyz", finished)]);
    expect(finished).not.toContain("slow statement");
    await slow;
    expect(finished.at(-1)).toBe("slow statement");

    expect(health).toEqual({ status: 200, body: { status: "ok" } });
    expect(ready.status).toBe(200);
    expect(ready.body.checks.store).toMatch(/^(ok|busy: \d+ statements queued or running)$/);
  });

  it("reports a store that has not answered lately as busy, without waiting for it", async () => {
    const finished: string[] = [];
    const slow = api.ctx.db.query("SELECT pg_sleep(3)").then(() => finished.push("slow statement"));
    const readiness = await storeReadiness(api.ctx.db, {
      recentAnswerMs: 0,
      probeWaitMs: 200,
      stalledMs: 60_000,
    });
    expect(finished).toEqual([]);
    expect(readiness).toEqual({ state: "busy", detail: "busy: 1 statements queued or running" });
    await slow;
  });
});

describe("readiness on a saturated server pool", () => {
  let db: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const created = await createTestDatabase("saturated_pool");
    drop = created.drop;
    db = await openDatabase({ url: created.url, poolSize: 2 });
    await db.query("SELECT 1");
  });
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  it("says the pool is saturated instead of queueing behind it", async () => {
    const finished: string[] = [];
    const slow = [1, 2, 3].map(() => db.query("SELECT pg_sleep(2)").then(() => finished.push("slow")));
    const readiness = await storeReadiness(db, { recentAnswerMs: 0, probeWaitMs: 200, stalledMs: 60_000 });
    expect(finished).toEqual([]);
    // Two running, one waiting for a connection; the probe queued behind them is not counted.
    expect(readiness).toEqual({
      state: "busy",
      detail: "saturated: 3 statements running or waiting for a connection",
    });
    await Promise.all(slow);
    expect(await storeReadiness(db)).toEqual({ state: "ok", detail: "ok" });
  });
});

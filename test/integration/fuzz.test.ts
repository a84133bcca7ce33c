import { readFileSync } from "node:fs";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, createProject } from "../../services/access/keys.ts";
import { SCOPES } from "../../services/access/scopes.ts";
import { repoRoot } from "../../services/core/config.ts";
import { DOMAINS } from "../../services/core/domains.ts";
import { startTestApi, type TestApi } from "../helpers/api.ts";
import { OpenApiConformance } from "../helpers/openapi-conformance.ts";

/**
 * Property-based fuzzing of the HTTP surface (fast-check): random query strings, path ids,
 * headers and bodies for every endpoint, JSON-RPC for the MCP endpoint, random canonical files
 * for ingest runs. Every response must be below 500, JSON, carry the common headers, and match
 * the OpenAPI document the service serves (tested by Ajv: test/helpers/openapi-conformance.ts).
 * A failure prints the smallest request fast-check could shrink it to.
 */
const conformance = new OpenApiConformance();

/** Text people and robots send: anything, plus values known to upset parsers. */
const junk = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom(
    "",
    " ",
    "-1",
    "0",
    "1e309",
    "9007199254740993",
    "null",
    "true",
    "[]",
    "{}",
    "%00",
    "%",
    "../../etc/passwd",
    "'; DROP TABLE provisions; --",
    "labour,tax",
    "labour,,tax",
    "LABOUR",
    "<script>alert(1)</script>",
    "L1237-1-1",
    "2024-02-30",
    "2024-01-01T00:00:00Z",
    "x".repeat(5000),
  ),
);

const PARAMS: Record<string, string[]> = {
  "/api/v1/search": ["q", "limit", "offset", "domains", "document", "in_force", "as_of", "match"],
  "/api/v1/domains": [],
  "/api/v1/coverage": [],
  "/api/v1/changes": ["since", "until", "kind", "domains", "document", "limit", "cursor"],
  "/api/v1/changes/feed": ["recorded_since", "cursor", "domains", "limit"],
  "/api/v1/admin/ingest-runs": [],
};
const ID_PATHS = [
  "/api/v1/provisions/{id}",
  "/api/v1/provisions/{id}/versions",
  "/api/v1/provisions/{id}/diff",
  "/api/v1/documents/{id}",
  "/api/v1/admin/ingest-runs/{id}",
];
const ID_PARAMS = ["as_of", "from", "to", "limit", "offset", "section", "toc"];
const KNOWN_IDS = ["code-du-travail/L1221-19", "code-du-travail", "loi-exemple", "1", "999999"];

const query = (names: string[]) =>
  fc.dictionary(fc.constantFrom(...names, "unknown", "q[]"), fc.oneof(junk, fc.constantFrom(...DOMAINS)), {
    maxKeys: 4,
  });

interface Request {
  method: string;
  path: string;
  search: Record<string, string>;
  key: "valid" | "none" | "garbage";
  garbageAuth: string;
  body?: string;
  contentType?: string;
}

const printable = fc.stringMatching(/^[\x20-\x7e]{0,60}$/);
const auth = { key: fc.constantFrom("valid", "valid", "valid", "none", "garbage"), garbageAuth: printable };

const getRequests = fc.oneof(
  fc
    .record({
      method: fc.constant("GET"),
      path: fc.constantFrom(...Object.keys(PARAMS)),
      search: fc.constant({}),
      ...auth,
    })
    .chain((r) => query(PARAMS[r.path]!).map((search) => ({ ...r, search }))),
  fc.record({
    method: fc.constant("GET"),
    path: fc
      .tuple(fc.constantFrom(...ID_PATHS), fc.oneof(junk, fc.constantFrom(...KNOWN_IDS)))
      .map(([template, id]) => template.replace("{id}", encodeURIComponent(id) || "x")),
    search: query(ID_PARAMS),
    ...auth,
  }),
);

const answerBody = fc.oneof(
  fc.record(
    {
      question: fc.oneof(junk, fc.constant("Quelle est la durée de la période d'essai ?")),
      max_sources: fc.oneof(fc.integer({ min: -5, max: 50 }), junk),
      as_of: junk,
      domains: fc.oneof(fc.subarray([...DOMAINS]), fc.array(junk, { maxLength: 3 }), junk),
      extra: junk,
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue({ maxDepth: 3 }),
);

const canonical = JSON.parse(readFileSync(`${repoRoot}/test/fixtures/canonical/loi-exemple.json`, "utf8"));
const ingestBody = fc.oneof(
  fc.record(
    {
      source: fc.oneof(fc.constant("canonical"), junk),
      name: junk,
      file: fc.oneof(
        fc.constant(canonical),
        fc.jsonValue({ maxDepth: 3 }),
        fc.constant({ ...canonical, format: "v0" }),
      ),
    },
    { requiredKeys: ["source"] },
  ),
  fc.jsonValue({ maxDepth: 3 }),
);

const postRequests = fc.oneof(
  fc.record({
    method: fc.constant("POST"),
    path: fc.constant("/api/v1/answer"),
    search: fc.constant({}),
    ...auth,
    body: fc.oneof(
      answerBody.map((b) => JSON.stringify(b)),
      junk,
    ),
    contentType: fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded", ""),
  }),
  fc.record({
    method: fc.constant("POST"),
    path: fc.constant("/api/v1/admin/ingest-runs"),
    search: fc.constant({}),
    ...auth,
    body: fc.oneof(
      ingestBody.map((b) => JSON.stringify(b)),
      junk,
    ),
    contentType: fc.constantFrom("application/json", "application/json; charset=latin1", "text/plain"),
  }),
  // A method a path does not take.
  fc.record({
    method: fc.constantFrom("PUT", "DELETE", "PATCH"),
    path: fc.constantFrom(...Object.keys(PARAMS), "/api/v1/answer", "/api/v1/provisions/x"),
    search: fc.constant({}),
    ...auth,
  }),
);

const TOOLS = [
  "search_provisions",
  "get_provision",
  "get_document",
  "list_changes",
  "list_domains",
  "list_agreements",
  "resolve_citation",
  "answer_question",
];
const rpc = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant("2.0"), junk),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null)),
    method: fc.oneof(
      fc.constantFrom(
        "initialize",
        "tools/list",
        "tools/call",
        "resources/list",
        "resources/read",
        "ping",
        "prompts/list",
      ),
      junk,
    ),
    params: fc.oneof(
      fc.record({
        name: fc.oneof(fc.constantFrom(...TOOLS), junk),
        arguments: fc.dictionary(
          fc.constantFrom(
            "q",
            "query",
            "id",
            "citation",
            "since",
            "domains",
            "limit",
            "question",
            "as_of",
            "x",
          ),
          fc.oneof(fc.jsonValue({ maxDepth: 2 }), junk),
          { maxKeys: 4 },
        ),
      }),
      fc.record({
        uri: fc.oneof(fc.constantFrom("corpus://coverage", "corpus://documents/code-du-travail"), junk),
      }),
      fc.jsonValue({ maxDepth: 2 }),
    ),
  },
  { requiredKeys: ["jsonrpc", "method"] },
);

describe("fuzzing the HTTP surface (embedded store)", () => {
  let api: TestApi;
  let key: string;
  const seen = new Map<number, number>();

  beforeAll(async () => {
    // Requests without a key are limited per address; fuzzing is about input, not about 429s.
    api = await startTestApi("pglite", {
      redis: false,
      label: "fuzz",
      limits: { anonymousPerMinute: 100_000 },
    });
    // Every scope, on the plan with the highest limits: fuzzing is about input, not about 429s.
    await createProject(api.store.db, "fuzz-app", "scale");
    key = (await createKey(api.store.db, api.ctx.keyHashSecret, { project: "fuzz-app", scopes: [...SCOPES] }))
      .key;
  });
  afterAll(async () => {
    console.log(`fuzz: responses by status ${JSON.stringify(Object.fromEntries([...seen].sort()))}`);
    await api?.close();
  });

  async function send(r: Request) {
    const headers: Record<string, string> = {};
    if (r.key === "valid") headers.authorization = `Bearer ${key}`;
    if (r.key === "garbage") headers.authorization = r.garbageAuth;
    if (r.contentType) headers["content-type"] = r.contentType;
    const search = new URLSearchParams(r.search).toString();
    const url = `${api.baseUrl}${r.path}${search ? `?${search}` : ""}`;
    const response = await fetch(url, {
      method: r.method,
      headers,
      ...(r.body !== undefined ? { body: r.body } : {}),
    });
    const text = await response.text();
    seen.set(response.status, (seen.get(response.status) ?? 0) + 1);
    return { response, text };
  }

  const conforms = async (r: Request) => {
    const { response, text } = await send(r);
    const where = `${r.method} ${r.path}?${new URLSearchParams(r.search)} → ${response.status}: ${text.slice(0, 300)}`;
    expect(response.status, where).toBeLessThan(500);
    expect(response.headers.get("x-request-id"), where).toBeTruthy();
    expect(response.headers.get("x-ratelimit-limit"), where).toMatch(/^\d+$/);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`not JSON: ${where}`);
    }
    expect(
      conformance.check(r.method, r.path, response.status, response.headers.get("content-type"), body),
    ).toEqual([]);
  };

  it("GET endpoints: any query, path id and authorization header", async () => {
    await fc.assert(fc.asyncProperty(getRequests, conforms), { numRuns: 600 });
  });

  it("POST endpoints and wrong methods: any body and content type", async () => {
    await fc.assert(fc.asyncProperty(postRequests, conforms), { numRuns: 250 });
  });

  it("MCP: any JSON-RPC message gets a JSON-RPC answer, never a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          rpc.map((m) => JSON.stringify(m)),
          fc.array(rpc, { maxLength: 3 }).map((m) => JSON.stringify(m)),
          junk,
        ),
        async (body) => {
          const response = await fetch(`${api.baseUrl}/mcp`, {
            method: "POST",
            headers: {
              authorization: `Bearer ${key}`,
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
            },
            body,
          });
          const text = await response.text();
          seen.set(response.status, (seen.get(response.status) ?? 0) + 1);
          const where = `POST /mcp ${body.slice(0, 200)} → ${response.status}: ${text.slice(0, 300)}`;
          expect(response.status, where).toBeLessThan(500);
          if (response.status === 202) {
            expect(text, where).toBe("");
            return;
          }
          const message = JSON.parse(text) as unknown;
          for (const m of Array.isArray(message) ? message : [message]) {
            expect((m as { jsonrpc?: string }).jsonrpc, where).toBe("2.0");
            expect("result" in (m as object) || "error" in (m as object), where).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, createProject } from "../../services/access/keys.ts";
import { SCOPES, type Scope } from "../../services/access/scopes.ts";
import { createApp } from "../../services/api/app.ts";
import { buildOpenApiDocument } from "../../services/api/openapi.ts";
import { repoRoot } from "../../services/core/config.ts";
import type { Domain } from "../../services/core/domains.ts";
import { TOOLS } from "../../services/mcp/tools/index.ts";
import { startTestApi, type TestApi } from "../helpers/api.ts";
import { ConsoleClient } from "../helpers/console.ts";

/**
 * Who may do what, and what is never kept or shown in clear, on server Postgres and Redis:
 * every operation of the OpenAPI document against a key holding each scope alone, every MCP tool
 * likewise, keys limited to fields of law on every endpoint and tool that reads the corpus, and the
 * database, the logs and every error body searched for keys, passwords and session tokens.
 */
const canonical = readFileSync(`${repoRoot}/test/fixtures/canonical/loi-exemple.json`, "utf8");

/** One request per operation of the OpenAPI document; the test fails when an operation has none. */
const SAMPLES: Record<string, { path: string; body?: string }> = {
  "GET /api/v1/search": { path: "/api/v1/search?q=travail" },
  "GET /api/v1/domains": { path: "/api/v1/domains" },
  "GET /api/v1/provisions/{id}": { path: "/api/v1/provisions/code-du-travail/L1221-19" },
  "GET /api/v1/provisions/{id}/versions": { path: "/api/v1/provisions/code-du-travail/L1221-19/versions" },
  "GET /api/v1/provisions/{id}/diff": { path: "/api/v1/provisions/code-du-travail/L1221-19/diff" },
  "GET /api/v1/changes": { path: "/api/v1/changes?since=2000-01-01" },
  "GET /api/v1/changes/feed": { path: "/api/v1/changes/feed" },
  "GET /api/v1/documents/{id}": { path: "/api/v1/documents/code-du-travail" },
  "POST /api/v1/admin/ingest-runs": {
    path: "/api/v1/admin/ingest-runs",
    body: JSON.stringify({ source: "canonical", name: "loi.json", file: JSON.parse(canonical) }),
  },
  "GET /api/v1/admin/ingest-runs": { path: "/api/v1/admin/ingest-runs" },
  "GET /api/v1/admin/ingest-runs/{id}": { path: "/api/v1/admin/ingest-runs/1" },
  "POST /api/v1/answer": {
    path: "/api/v1/answer",
    body: JSON.stringify({ question: "Quelle est la durée de la période d'essai ?" }),
  },
  "POST /api/v1/mcp": {
    path: "/api/v1/mcp",
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  },
  "GET /api/v1/coverage": { path: "/api/v1/coverage" },
  "GET /healthz": { path: "/healthz" },
  "GET /readyz": { path: "/readyz" },
};
SAMPLES["POST /mcp"] = { ...SAMPLES["POST /api/v1/mcp"]!, path: "/mcp" };

const allOperations = Object.entries(
  buildOpenApiDocument().paths as Record<
    string,
    Record<string, { description?: string; security?: unknown[] }>
  >,
).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, op]) => ({
    name: `${method.toUpperCase()} ${path}`,
    method: method.toUpperCase(),
    scope: /Scope: `([^`]+)`/.exec(op.description ?? "")?.[1] as Scope,
    // `security: []`: no key asked (health checks).
    public: Array.isArray(op.security) && op.security.length === 0,
  })),
);
const operations = allOperations.filter((o) => !o.public);
const publicOperations = allOperations.filter((o) => o.public);

type ToolResult = { isError?: boolean; content: Array<{ text: string }> };

describe("access control and secrets (server Postgres, Redis)", () => {
  let api: TestApi;
  const keys = {} as Record<Scope | "labour" | "tax", string>;
  let unclassified = "";
  const logs: string[] = [];
  const errorBodies: string[] = [];
  let logged: { baseUrl: string; close(): Promise<void> };
  const clients: Client[] = [];

  beforeAll(async () => {
    api = await startTestApi("postgres", { redis: true, label: "security" });
    // The small corpus holds one text per provision: the diff of the current version with itself.
    const { rows } = await api.store.db.query<{ version_id: string }>(
      "SELECT version_id FROM provisions WHERE public_id = 'code-du-travail/L1221-19'",
    );
    const version = rows[0]!.version_id;
    SAMPLES["GET /api/v1/provisions/{id}/diff"]!.path =
      `/api/v1/provisions/code-du-travail/L1221-19/diff?from=${version}&to=${version}`;
    unclassified = (
      await api.store.db.query<{ public_id: string }>(
        "SELECT p.public_id FROM provisions p JOIN documents d ON d.id = p.document_id WHERE cardinality(p.domains) = 0 LIMIT 1",
      )
    ).rows[0]!.public_id;
    await createProject(api.store.db, "security-app", "pro");
    for (const scope of SCOPES)
      keys[scope] = (
        await createKey(api.store.db, api.ctx.keyHashSecret, { project: "security-app", scopes: [scope] })
      ).key;
    for (const domain of ["labour", "tax"] as Domain[])
      keys[domain as "labour" | "tax"] = (
        await createKey(api.store.db, api.ctx.keyHashSecret, {
          project: "security-app",
          scopes: [...SCOPES],
          domains: [domain],
        })
      ).key;
    // A second app on the same context whose logs (debug and up) are kept, to be searched.
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logs.push(chunk.toString());
        done();
      },
    });
    const server = createApp({ ...api.ctx, logger: pino({ level: "debug" }, sink) }).listen(0);
    await new Promise((resolve) => server.once("listening", resolve));
    logged = {
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: () => new Promise((resolve) => server.close(() => resolve())),
    };
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await logged?.close();
    await api?.close();
  });

  const send = async (name: string, key: string | undefined) => {
    const sample = SAMPLES[name]!;
    const response = await fetch(`${logged.baseUrl}${sample.path}`, {
      method: name.split(" ")[0],
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      ...(sample.body ? { body: sample.body } : {}),
    });
    const text = await response.text();
    if (response.status >= 400) errorBodies.push(text);
    return { status: response.status, text };
  };

  it("has a sample request for every operation of the OpenAPI document", () => {
    expect(allOperations.map((o) => o.name).sort()).toEqual(Object.keys(SAMPLES).sort());
    for (const op of operations) expect(SCOPES, op.name).toContain(op.scope);
    expect(publicOperations.map((o) => o.name).sort()).toEqual(["GET /healthz", "GET /readyz"]);
  });

  it.each(publicOperations.map((o) => [o.name] as const))(
    "%s: documented as keyless, answers without a key",
    async (name) => {
      expect((await send(name, undefined)).status).toBe(200);
    },
  );

  it.each(operations.map((o) => [o.name, o] as const))(
    "%s: its scope alone admits; every other scope is 403; no key is 401",
    async (name, op) => {
      expect((await send(name, undefined)).status).toBe(401);
      for (const scope of SCOPES) {
        const { status, text } = await send(name, keys[scope]);
        if (scope === op.scope)
          expect(status, `${name} with ${scope}: ${text.slice(0, 200)}`).toBeLessThan(300);
        else {
          expect(status, `${name} with ${scope}`).toBe(403);
          expect(text).toContain(op.scope);
        }
      }
    },
  );

  it("keeps a key limited to a field of law out of every other, on every endpoint that reads the corpus", async () => {
    const outside: Array<[string, string, string | undefined]> = [
      ["GET", "/api/v1/search?q=travail&domains=labour", undefined],
      ["GET", "/api/v1/changes?since=2000-01-01&domains=labour", undefined],
      ["GET", "/api/v1/changes/feed?domains=labour", undefined],
      ["GET", "/api/v1/provisions/code-du-travail/L1221-19", undefined],
      ["GET", "/api/v1/provisions/code-du-travail/L1221-19/versions", undefined],
      ["GET", "/api/v1/provisions/code-du-travail/L1221-19/diff", undefined],
      ["GET", "/api/v1/documents/code-du-travail", undefined],
      ["GET", "(unclassified)", undefined],
      [
        "POST",
        "/api/v1/answer",
        JSON.stringify({ question: "Quelle est la période d'essai ?", domains: ["labour"] }),
      ],
    ];
    for (const [method, named, body] of outside) {
      // An unclassified provision cannot be shown to be inside the key's field either.
      const path = named === "(unclassified)" ? `/api/v1/provisions/${unclassified}` : named;
      const response = await fetch(`${logged.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${keys.tax}`, "content-type": "application/json" },
        ...(body ? { body } : {}),
      });
      const text = await response.text();
      errorBodies.push(text);
      expect(response.status, `${method} ${path}: ${text.slice(0, 200)}`).toBe(403);
      expect(JSON.parse(text).error.message).toContain("limited to tax");
    }
    // Inside its field, the same reads work; a document lists only the key's provisions, and says so.
    const labour = { headers: { authorization: `Bearer ${keys.labour}` } };
    expect((await fetch(`${logged.baseUrl}/api/v1/provisions/code-du-travail/L1221-19`, labour)).status).toBe(
      200,
    );
    const document = (await (
      await fetch(`${logged.baseUrl}/api/v1/documents/code-du-travail?limit=100`, labour)
    ).json()) as {
      data: { provisions: Array<{ id: string }> };
      filter: { domains: string[]; restricted_by_key: boolean };
      pagination: { total: number };
    };
    expect(document.filter).toEqual({ mode: "exact", domains: ["labour"], restricted_by_key: true });
    const { rows } = await api.store.db.query<{ public_id: string }>(
      `SELECT p.public_id FROM provisions p JOIN documents d ON d.id = p.document_id
       WHERE d.public_id = 'code-du-travail' AND p.present_in_source AND 'labour' = ANY(p.domains)`,
    );
    expect(document.pagination.total).toBe(rows.length);
    const labourIds = new Set(rows.map((r) => r.public_id));
    expect(document.data.provisions.length).toBe(Math.min(100, rows.length));
    for (const p of document.data.provisions) expect(labourIds.has(p.id), p.id).toBe(true);
  });

  const connect = async (key: string) => {
    const client = new Client({ name: "security-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${logged.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    clients.push(client);
    return client;
  };
  const SAMPLE_ARGS: Record<string, Record<string, unknown>> = {
    search_provisions: { query: "travail" },
    get_provision: { id: "code-du-travail/L1221-19" },
    resolve_citation: { citation: "article L1221-19 du code du travail" },
    get_document: { id: "code-du-travail" },
    list_domains: {},
    list_agreements: { query: "syntec" },
    list_changes: { since: "2000-01-01" },
    answer_question: { question: "Quelle est la durée de la période d'essai ?" },
  };

  it("MCP: each tool admits its scope and refuses a key without it", async () => {
    expect(TOOLS.map((t) => t.name).sort()).toEqual(Object.keys(SAMPLE_ARGS).sort());
    for (const tool of TOOLS) {
      // Every MCP call needs corpus:read to connect; the tool's own scope decides the rest.
      const withScope = (
        await createKey(api.store.db, api.ctx.keyHashSecret, {
          project: "security-app",
          scopes: [...new Set<Scope>(["corpus:read", tool.scope])],
        })
      ).key;
      const other = SCOPES.find((s) => s !== tool.scope && s !== "corpus:read")!;
      const without = (
        await createKey(api.store.db, api.ctx.keyHashSecret, {
          project: "security-app",
          scopes: tool.scope === "corpus:read" ? [other] : ["corpus:read"],
        })
      ).key;
      const admitted = (await (
        await connect(withScope)
      ).callTool({ name: tool.name, arguments: SAMPLE_ARGS[tool.name] })) as ToolResult;
      expect(admitted.isError, `${tool.name}: ${admitted.content.map((c) => c.text).join()}`).toBeFalsy();
      if (tool.scope === "corpus:read") {
        // Without corpus:read there is no MCP at all.
        const refused = await fetch(`${logged.baseUrl}/mcp`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${without}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body: SAMPLES["POST /api/v1/mcp"]!.body!,
        });
        expect(refused.status).toBe(403);
      } else {
        const refused = (await (
          await connect(without)
        ).callTool({ name: tool.name, arguments: SAMPLE_ARGS[tool.name] })) as ToolResult;
        expect(refused.isError, tool.name).toBe(true);
        expect(refused.content.map((c) => c.text).join(), tool.name).toContain(tool.scope);
      }
    }
  });

  it("MCP: a key limited to a field of law is refused the others by every tool that reads the corpus", async () => {
    const tax = await connect(keys.tax);
    const outside: Array<[string, Record<string, unknown>]> = [
      ["search_provisions", { query: "travail", domains: ["labour"] }],
      ["get_provision", { id: "code-du-travail/L1221-19" }],
      ["resolve_citation", { citation: "article L1221-19 du code du travail" }],
      ["get_document", { id: "code-du-travail" }],
      ["list_changes", { since: "2000-01-01", domains: ["labour"] }],
      ["answer_question", { question: "Quelle est la période d'essai ?", domains: ["labour"] }],
    ];
    for (const [name, args] of outside) {
      const result = (await tax.callTool({ name, arguments: args })) as ToolResult;
      expect(result.isError, name).toBe(true);
      expect(result.content.map((c) => c.text).join(), name).toMatch(
        /^forbidden: This key is limited to tax/,
      );
    }
    const labour = await connect(keys.labour);
    const inside = (await labour.callTool({
      name: "get_provision",
      arguments: { id: "code-du-travail/L1221-19" },
    })) as ToolResult;
    expect(inside.isError).toBeFalsy();
  });

  it("never keeps or shows a key, a password or a session token in clear", async () => {
    const password = "a passphrase nobody guesses";
    const client = new ConsoleClient(logged.baseUrl);
    await client.signUp("secrets@example.org", password);
    const session = client.cookies.get("lc_session")!;
    await client.post("/console/sign-out", {});
    await client.get("/console/sign-in");
    errorBodies.push(
      (await client.post("/console/sign-in", { email: "secrets@example.org", password: `${password}!` }))
        .text,
    );
    await client.post("/console/sign-in", { email: "secrets@example.org", password });
    await client.get("/console");
    const projectPage = await client.post("/console/projects", { name: "secrets-app" });
    await client.get(projectPage.location!);
    const created = await client.post(`${projectPage.location}/keys`, { scopes: ["search:read"] });
    const consoleKey = /id="new-key" type="text" readonly value="([^"]+)"/.exec(created.text)![1]!;

    // Use every key once, right and wrong, so that each passes through the logs.
    const all = [...Object.values(keys), consoleKey];
    for (const key of all) {
      await fetch(`${logged.baseUrl}/api/v1/search?q=travail`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const wrong = await fetch(`${logged.baseUrl}/api/v1/search?q=travail`, {
        headers: { authorization: `Bearer ${key.slice(0, -1)}${key.endsWith("a") ? "b" : "a"}` },
      });
      errorBodies.push(await wrong.text());
    }

    const secrets = [...all.flatMap((key) => [key, key.split("_")[3]!]), password, `${password}!`, session];
    const tables = await api.store.db.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    );
    let database = "";
    for (const { table_name } of tables.rows) {
      const { rows } = await api.store.db.query<{ row: string }>(
        `SELECT row_to_json(t)::text AS row FROM "${table_name}" t`,
      );
      database += rows.map((r) => r.row).join("\n");
    }
    expect(database).toContain("secrets@example.org");
    expect(logs.join("").length).toBeGreaterThan(1000);
    expect(errorBodies.length).toBeGreaterThan(20);
    for (const secret of secrets) {
      expect(database.includes(secret), "the database holds a secret in clear").toBe(false);
      expect(logs.join("").includes(secret), "the logs hold a secret in clear").toBe(false);
      expect(errorBodies.join("\n").includes(secret), "an error body holds a secret").toBe(false);
    }
  });
});

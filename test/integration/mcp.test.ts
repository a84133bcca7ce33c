import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, expectCommonHeaders, startTestApi, type TestApi } from "../helpers/api.ts";

/**
 * The MCP endpoint end to end, with the official SDK client over Streamable HTTP, on the small
 * real corpus (a Code du travail excerpt and a hand-written act) of the API tests.
 */

type ToolResult = {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: any;
};

describe("MCP over Streamable HTTP (official SDK client)", () => {
  let api: TestApi;
  const clients: Client[] = [];

  const connect = async (key: string | undefined, path = "/mcp") => {
    const client = new Client({ name: "mcp-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${api.baseUrl}${path}`), {
      requestInit: key ? { headers: { authorization: `Bearer ${key}` } } : {},
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  };
  const tool = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;
  const errorText = (result: ToolResult) => {
    expect(result.isError).toBe(true);
    return result.content.map((c) => c.text).join("\n");
  };

  beforeAll(async () => {
    api = await startTestApi("pglite", { redis: false, label: "mcp" });
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await api?.close();
  });

  it("connects at {base_url}/mcp and at /api/v1/mcp, with instructions about coverage", async () => {
    for (const path of ["/mcp", "/api/v1/mcp"]) {
      const client = await connect(api.keys.reader, path);
      expect(client.getServerVersion()?.name).toBe("legal-corpus");
      expect(client.getInstructions()).toMatch(/never means that no such law exists/);
    }
  });

  it("lists every tool with described inputs, an output schema and read-only annotations", async () => {
    const client = await connect(api.keys.reader);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "answer_question",
      "get_document",
      "get_provision",
      "list_agreements",
      "list_changes",
      "list_domains",
      "resolve_citation",
      "search_provisions",
    ]);
    for (const t of tools) {
      expect(t.annotations, t.name).toMatchObject({ readOnlyHint: true, idempotentHint: true });
      expect(t.outputSchema?.type, t.name).toBe("object");
      for (const [field, schema] of Object.entries(t.inputSchema.properties ?? {}))
        expect((schema as { description?: string }).description, `${t.name}.${field}`).toBeTruthy();
    }
  });

  it("searches, reads provisions and documents, lists domains and changes: ids, dates and coverage in every result", async () => {
    const client = await connect(api.keys.all);
    const search = await tool(client, "search_provisions", { query: "période d'essai", limit: 3 });
    expect(search.isError).toBeFalsy();
    const hit = search.structuredContent.data[0];
    expect(hit.id).toMatch(/^code-du-travail\//);
    expect(hit).toHaveProperty("effective_from");
    expect(search.structuredContent.meta.coverage_note).toMatch(/incomplete/);
    expect(JSON.parse(search.content[0]!.text!)).toEqual(search.structuredContent);

    const provision = await tool(client, "get_provision", { id: hit.id });
    expect(provision.structuredContent.data).toMatchObject({ id: hit.id, number: hit.number });
    expect(provision.structuredContent.data.text.length).toBeGreaterThan(20);

    // No table of contents unless asked (a whole code's was 582,083 characters), then to a depth.
    const document = await tool(client, "get_document", { id: "code-du-travail", limit: 2 });
    expect(document.structuredContent.data.provisions).toHaveLength(2);
    expect(document.structuredContent.data.toc).toBeUndefined();
    expect(document.structuredContent.pagination.next_offset).toBe(2);
    const withToc = await tool(client, "get_document", {
      id: "code-du-travail",
      limit: 1,
      include_toc: true,
      toc_depth: 1,
    });
    expect(withToc.structuredContent.data.toc.length).toBeGreaterThan(0);
    expect(withToc.structuredContent.data.toc.every((node: any) => node.sections.length === 0)).toBe(true);
    const deeper = await tool(client, "get_document", {
      id: "code-du-travail",
      limit: 1,
      include_toc: true,
      toc_depth: 3,
    });
    expect(deeper.structuredContent.data.toc.some((node: any) => node.sections.length > 0)).toBe(true);

    const domains = await tool(client, "list_domains");
    expect(domains.structuredContent.data.find((d: any) => d.domain === "labour").provisions).toBeGreaterThan(
      0,
    );

    const changes = await tool(client, "list_changes", { since: "2000-01-01", kinds: ["added"], limit: 5 });
    expect(changes.structuredContent.data).toHaveLength(5);
    expect(changes.structuredContent.data[0]).toMatchObject({ kind: "added" });
    expect(changes.structuredContent.meta.coverage_note).toBeTruthy();

    const empty = await tool(client, "search_provisions", { query: "zzyzx introuvable" });
    expect(empty.structuredContent.data).toEqual([]);
    expect(empty.structuredContent.meta.coverage_note).toMatch(/never that no such law exists/);
    const partial = await tool(client, "search_provisions", { query: "période zzyzx", limit: 3 });
    expect(partial.structuredContent.partial_match).toBe(true);
    expect(partial.structuredContent.data.length).toBeGreaterThan(0);
  });

  it("answers questions for keys whose plan includes answers, from cited provisions only", async () => {
    const client = await connect(api.keys.all);
    const answer = await tool(client, "answer_question", {
      question: "Quelle est la durée maximale de la période d'essai des ouvriers en CDI ?",
    });
    expect(answer.isError).toBeFalsy();
    expect(answer.structuredContent.data.evidence).toBe("sufficient");
    expect(answer.structuredContent.data.answer.sentences[0].citations).toEqual(["code-du-travail/L1221-19"]);
    expect(answer.structuredContent.meta.coverage_note).toBeTruthy();

    const noScope = await connect(api.keys.reader);
    expect(errorText(await tool(noScope, "answer_question", { question: "période d'essai ?" }))).toMatch(
      /answer:write/,
    );
    // The beta plan has no answers: the tool is not even offered.
    const beta = await connect(api.keys.beta);
    expect((await beta.listTools()).tools.map((t) => t.name)).not.toContain("answer_question");
  });

  it("resolves citations as people write them, and says when the document is not loaded", async () => {
    const client = await connect(api.keys.reader);
    for (const citation of [
      "article L. 1237-1-1 du code du travail",
      "art. L1237-1-1 C. trav.",
      "CT L 1237-1-1",
    ]) {
      const result = await tool(client, "resolve_citation", { citation });
      expect(result.structuredContent.data.status, citation).toBe("resolved");
      expect(result.structuredContent.data.provision.id).toBe("code-du-travail/L1237-1-1");
    }
    const civil = await tool(client, "resolve_citation", { citation: "article 1240 du code civil" });
    expect(civil.structuredContent.data.status).toBe("not_found");
    expect(civil.structuredContent.data.note).toMatch(/not loaded yet/);
    const unreadable = await tool(client, "resolve_citation", { citation: "le code du travail" });
    expect(unreadable.structuredContent.data.status).toBe("unreadable");
  });

  it("serves provisions, documents and the coverage as resources", async () => {
    const client = await connect(api.keys.reader);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining(["corpus://coverage", "corpus://documents/code-du-travail"]),
    );
    const provision = await client.readResource({ uri: "corpus://provisions/code-du-travail/L1237-1-1" });
    expect(JSON.parse(String((provision.contents[0] as { text: string }).text)).data.id).toBe(
      "code-du-travail/L1237-1-1",
    );
    const coverage = await client.readResource({ uri: "corpus://coverage" });
    expect(
      JSON.parse(String((coverage.contents[0] as { text: string }).text)).data.documents.length,
    ).toBeGreaterThan(0);
  });

  it("uses the right JSON-RPC codes, announces no list changes, and offers prompts (issue 18, item 21)", async () => {
    const client = await connect(api.keys.reader);
    // Not found and forbidden were both -32603 (internal error).
    await expect(
      client.readResource({ uri: "corpus://provisions/code-du-travail/L9999-99" }),
    ).rejects.toMatchObject({
      code: -32002,
    });
    const limited = await connect(api.keys.labourOnly);
    await expect(limited.readResource({ uri: "corpus://documents/loi-2016-1088" })).rejects.toMatchObject({
      code: -32003,
    });
    // A stateless server: its lists never change under a client.
    const capabilities = client.getServerCapabilities()!;
    expect(capabilities.tools?.listChanged).toBe(false);
    expect(capabilities.resources?.listChanged).toBe(false);
    expect(capabilities.prompts?.listChanged).toBe(false);
    // prompts/list was -32601.
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(["find_the_law", "what_changed"]);
    const prompt = await client.getPrompt({
      name: "what_changed",
      arguments: { document: "code-du-travail", since: "2024-01-01" },
    });
    expect((prompt.messages[0]!.content as { text: string }).text).toContain(
      'list_changes with document "code-du-travail"',
    );
  });

  it("checks each tool's scope and the key's domains, and says what to do next", async () => {
    const readerOnly = await connect(api.keys.reader);
    // `reader` has the three read scopes; a corpus:read-only key is refused search and changes.
    const { createKey } = await import("../../services/access/keys.ts");
    const corpusOnly = (
      await createKey(api.store.db, api.ctx.keyHashSecret, { project: "pro-app", scopes: ["corpus:read"] })
    ).key;
    const narrow = await connect(corpusOnly);
    expect(errorText(await tool(narrow, "search_provisions", { query: "essai" }))).toMatch(
      /search:read scope[\s\S]*ask the user for a key/,
    );
    expect(errorText(await tool(narrow, "list_changes", { since: "2020-01-01" }))).toMatch(/changes:read/);
    expect((await tool(narrow, "get_provision", { id: "code-du-travail/L1237-1-1" })).isError).toBeFalsy();

    const labour = await connect(api.keys.labourOnly);
    expect(errorText(await tool(labour, "search_provisions", { query: "essai", domains: ["tax"] }))).toMatch(
      /^forbidden: This key is limited to labour/,
    );
    expect(errorText(await tool(readerOnly, "get_provision", { id: "code-du-travail/Z999" }))).toMatch(
      /^not_found:[\s\S]*not evidence that it does not exist/,
    );
    const invalid = await readerOnly.callTool({ name: "search_provisions", arguments: { query: "" } });
    expect(invalid.isError).toBe(true);
    // Control characters, refused as on the HTTP API, naming the argument (was an internal error).
    expect(errorText(await tool(readerOnly, "get_provision", { id: "\u0000" }))).toMatch(
      /^invalid_request: id: must not contain a control character \(found U\+0000\)/,
    );
  });

  it("refuses a missing key, a key without corpus:read, GET and bad JSON with JSON-RPC errors and the API's headers", async () => {
    const post = (key: string | undefined, body: string) =>
      call(api, "/mcp", {
        method: "POST",
        ...(key ? { key } : {}),
        body,
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      });
    const initialize = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    const rpc = (body: any, code: number) => {
      expect(body.jsonrpc).toBe("2.0");
      expect(body.error.code).toBe(code);
      expect(body.error.data.request_id).toBeTruthy();
      return body.error.message as string;
    };

    const anonymous = await post(undefined, initialize);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(rpc(anonymous.body, -32001)).toMatch(/Authorization: Bearer <API_KEY>/);
    expectCommonHeaders(anonymous);

    const searchOnly = await post(api.keys.searchOnly, initialize);
    expect(searchOnly.status).toBe(403);
    expect(rpc(searchOnly.body, -32003)).toMatch(/corpus:read/);

    const ok = await post(api.keys.reader, initialize);
    expect(ok.status).toBe(200);
    expectCommonHeaders(ok);
    expect(ok.body.result.serverInfo.name).toBe("legal-corpus");

    // JSON-RPC's parse error (was -32600, issue 18, item 21).
    const malformed = await post(api.keys.reader, "{not json");
    expect(malformed.status).toBe(400);
    rpc(malformed.body, -32700);

    // Nested 10,000 levels deep: refused before anything walks it (issue 18, item 13).
    const deep = await post(
      api.keys.reader,
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_provisions","arguments":{"query":${"[".repeat(10_000)}${"]".repeat(10_000)}}}}`,
    );
    expect(deep.status).toBe(400);
    expect(rpc(deep.body, -32600)).toMatch(/^body: nests deeper than 100 levels/);
    expectCommonHeaders(deep);

    const get = await call(api, "/mcp", { key: api.keys.reader });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    rpc(get.body, -32600);
    // Refusals carry the limit headers too (counted against the client's address).
    for (const method of ["GET", "DELETE"]) {
      const refused = await call(api, "/mcp", { key: api.keys.reader, method });
      expect(refused.status).toBe(405);
      expectCommonHeaders(refused);
    }
  });

  it("counts MCP requests against the project's rate limit", async () => {
    const before = await call(api, "/api/v1/domains", { key: api.keys.beta });
    const remaining = Number(before.headers.get("x-ratelimit-remaining"));
    const client = await connect(api.keys.beta);
    await tool(client, "list_domains");
    const after = await call(api, "/api/v1/domains", { key: api.keys.beta });
    // initialize, initialized, tools/call: three POSTs between the two API calls.
    expect(Number(after.headers.get("x-ratelimit-remaining"))).toBe(remaining - 4);
  });

  it("charges every call of a batch, answers at the REST answer's cost, and refuses batches over 20 (issue 18, item 9)", async () => {
    const batch = (key: string, messages: unknown[]) =>
      call(api, "/mcp", {
        key,
        method: "POST",
        body: JSON.stringify(messages),
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      });
    const search = (id: number) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "search_provisions", arguments: { query: "période d'essai" } },
    });
    const answer = (id: number) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: {
        name: "answer_question",
        arguments: { question: "Quelle est la durée de la période d'essai ?" },
      },
    });
    const remaining = async () =>
      Number(
        (await call(api, "/api/v1/domains", { key: api.keys.all })).headers.get("x-ratelimit-remaining"),
      );

    // Was charged 1 whatever the batch held.
    let before = await remaining();
    // The stateless server takes calls without an initialize (which must come alone).
    const searches = await batch(api.keys.all!, [search(1), search(2), search(3)]);
    expect(searches.status).toBe(200);
    expect(
      searches.body.filter((m: { result?: { isError?: boolean } }) => m.result && !m.result.isError),
    ).toHaveLength(3);
    expect(Number(searches.headers.get("x-ratelimit-remaining"))).toBe(before - 3);

    before = await remaining();
    const answers = await batch(api.keys.all!, [answer(1), answer(2)]);
    expect(answers.status).toBe(200);
    expect(Number(answers.headers.get("x-ratelimit-remaining"))).toBe(before - (5 + 5));

    const tooMany = await batch(
      api.keys.all!,
      Array.from({ length: 21 }, (_, i) => search(i)),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.code).toBe(-32600);
    expect(tooMany.body.error.message).toMatch(/^body: a batch holds at most 20 messages, not 21/);
    expect(tooMany.body.error.data.request_id).toBe(tooMany.headers.get("x-request-id"));
    // JSON, but not JSON-RPC: the SDK answered without a request id.
    const notRpc = await batch(api.keys.all!, [search(1), { hello: "world" }]);
    expect(notRpc.status).toBe(400);
    expect(notRpc.body.error.code).toBe(-32600);
    expect(notRpc.body.error.message).toMatch(/^body\.1: not a JSON-RPC 2\.0 message/);
    expect(notRpc.body.error.data.request_id).toBe(notRpc.headers.get("x-request-id"));
  });
});

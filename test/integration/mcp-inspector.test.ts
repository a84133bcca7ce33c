import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../services/core/config.ts";
import { startTestApi, type TestApi } from "../helpers/api.ts";

/**
 * An outside client: the MCP Inspector's command line, from npm, against the running endpoint.
 * The Inspector 2.x needs Node 22; on our Node 20 we run its CLI package at 1.0.3, the last
 * release that supports it (pinned in package.json).
 */
const run = promisify(execFile);
const inspectorCli = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector-cli/package.json")),
  "build/index.js",
);

describe("the MCP Inspector CLI as an outside client", () => {
  let api: TestApi;
  const inspect = async (key: string, ...args: string[]) => {
    const { stdout } = await run(
      process.execPath,
      [
        inspectorCli,
        `${api.baseUrl}/mcp`,
        "--transport",
        "http",
        "--header",
        `Authorization: Bearer ${key}`,
        ...args,
      ],
      // Its client identity is read from "../package.json" checked against the working
      // directory but imported relative to the module: run it from its build folder.
      { timeout: 60_000, cwd: path.dirname(inspectorCli) },
    );
    return JSON.parse(stdout);
  };

  beforeAll(async () => {
    api = await startTestApi("pglite", { redis: false, label: "mcp_inspector" });
  });
  afterAll(async () => api?.close());

  it("lists the tools and calls search and resolve_citation", async () => {
    const { tools } = await inspect(api.keys.reader!, "--method", "tools/list");
    expect(tools.map((t: { name: string }) => t.name)).toContain("resolve_citation");

    const search = await inspect(
      api.keys.reader!,
      "--method",
      "tools/call",
      "--tool-name",
      "search_provisions",
      "--tool-arg",
      "query=démission",
    );
    expect(search.isError).toBeFalsy();
    expect(search.structuredContent.data.length).toBeGreaterThan(0);

    const cited = await inspect(
      api.keys.reader!,
      "--method",
      "tools/call",
      "--tool-name",
      "resolve_citation",
      "--tool-arg",
      "citation=article L. 1237-1-1 du code du travail",
    );
    expect(cited.structuredContent.data.provision.id).toBe("code-du-travail/L1237-1-1");
  });

  it("works as the README writes it, from the repository root (issue 18, item 18)", async () => {
    // The README's line failed from the root ("Cannot find module …/package.json").
    const { stdout } = await run("npm", ["run", "--silent", "mcp:inspect", "--", "--method", "tools/list"], {
      timeout: 60_000,
      cwd: repoRoot,
      env: { ...process.env, LEGAL_CORPUS_KEY: api.keys.reader!, MCP_URL: `${api.baseUrl}/mcp` },
    });
    const { tools } = JSON.parse(stdout);
    expect(tools.map((t: { name: string }) => t.name)).toContain("search_provisions");
    const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");
    expect(readme).toContain(
      "LEGAL_CORPUS_KEY=lc_live_… npm run --silent mcp:inspect -- --method tools/list",
    );
  });

  it("reads a provision as a resource", async () => {
    const read = await inspect(
      api.keys.reader!,
      "--method",
      "resources/read",
      "--uri",
      "corpus://provisions/code-du-travail/L1237-1-1",
    );
    expect(JSON.parse(read.contents[0].text).data.number).toBe("L1237-1-1");
  });

  it("is refused with a revoked key", async () => {
    await expect(inspect(api.keys.revoked!, "--method", "tools/list")).rejects.toThrow();
  });
});

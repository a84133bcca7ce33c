#!/usr/bin/env node
// `npm run --silent mcp:inspect -- --method tools/list`: the MCP Inspector's command line against
// a running server, from the repository root. The Inspector CLI (1.0.3, the last release for
// Node 20) reads its own package.json relative to the working directory, so it fails when started
// from anywhere but its build folder: this starts it there. LEGAL_CORPUS_KEY holds the API key;
// MCP_URL the endpoint (default http://localhost:3000/mcp).
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";

const cli = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector-cli/package.json")),
  "build/index.js",
);
const url = process.env.MCP_URL ?? "http://localhost:3000/mcp";
const key = process.env.LEGAL_CORPUS_KEY;
if (!key) {
  console.error("Set LEGAL_CORPUS_KEY to an API key (npx corpus keys create --project my-app).");
  process.exit(2);
}
const child = spawn(
  process.execPath,
  [cli, url, "--transport", "http", "--header", `Authorization: Bearer ${key}`, ...process.argv.slice(2)],
  { stdio: "inherit", cwd: path.dirname(cli) },
);
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

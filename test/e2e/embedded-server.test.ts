import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../services/core/config.ts";
import { runCli } from "../helpers/cli.ts";
import { freePort } from "../helpers/processes.ts";

/**
 * `npm start` as a person runs it: embedded defaults, first start loads the bundled codes, then
 * the CLI works beside the running server (through its admin socket), keys take effect at once,
 * and shutdown is graceful.
 */
describe("the embedded server, started as `npm start` starts it", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "lc-e2e-"));
  let port: number;
  let server: ChildProcess;
  let output = "";
  const env = () => ({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "warn" });

  const startServer = async () => {
    output = "";
    server = spawn(process.execPath, ["--import", "tsx", path.join(repoRoot, "services/api/server.ts")], {
      cwd: repoRoot,
      env: { ...process.env, ...env() },
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout?.on("data", (chunk) => {
      output += chunk;
    });
    server.stderr?.on("data", (chunk) => {
      output += chunk;
    });
    // When the server dies, what it said is what a failing test must show.
    server.once("exit", (code, signal) => {
      output += `\n[server exited: code ${code}, signal ${signal}]`;
    });
    for (let i = 0; i < 600 && !output.includes("listening on"); i++)
      await new Promise((r) => setTimeout(r, 200));
    expect(output).toContain("listening on");
  };

  beforeAll(async () => {
    port = await freePort();
    await startServer();
  }, 180_000);
  afterAll(() => {
    if (server.exitCode === null) server.kill("SIGKILL");
  });

  it("loads the bundled codes on first start, with progress, then says how to get a key", () => {
    expect(output).toMatch(/\[4\/4\] done \(29\d{3} provisions so far\)/);
    expect(output).toContain(`Legal corpus API listening on http://localhost:${port}`);
    expect(output).toContain("npx corpus projects create my-app");
    expect(output).toContain("npx corpus keys create --project my-app");
  });

  it("lets the CLI create a project and a key while the server holds the store; revocation is immediate", async () => {
    const project = await runCli(["projects", "create", "e2e-app"], env());
    expect(project.stdout).toContain("Project e2e-app created on the beta plan");
    const created = await runCli(["keys", "create", "--project", "e2e-app", "--json"], env());
    expect(created.code).toBe(0);
    const { key, lookup_id } = JSON.parse(created.stdout) as { key: string; lookup_id: string };

    const search = await fetch(`http://127.0.0.1:${port}/api/v1/search?q=licenciement`, {
      headers: { authorization: `Bearer ${key}` },
    }).catch((error: Error) => {
      throw new Error(`${error.message}; the server said:\n${output.slice(-3000)}`);
    });
    expect(search.status).toBe(200);
    expect(((await search.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);

    const stats = await runCli(["stats", "--json"], env());
    expect(JSON.parse(stats.stdout).provisions).toBeGreaterThan(29_000);
    const usage = await runCli(["usage", "e2e-app", "--json"], env());
    expect(JSON.parse(usage.stdout).minute.used).toBe(1);

    expect((await runCli(["keys", "revoke", lookup_id], env())).code).toBe(0);
    const refused = await fetch(`http://127.0.0.1:${port}/api/v1/search?q=licenciement`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(refused.status).toBe(401);
    const bad = await runCli(["keys", "create", "--project", "nope"], env());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('no project "nope"');
  });

  it("shuts down gracefully on SIGTERM, after which the CLI opens the store itself", async () => {
    const exited = new Promise<number | null>((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    expect(await exited).toBe(0);
    const stats = await runCli(["stats"], env());
    expect(stats.code).toBe(0);
    expect(stats.stdout).toContain("code-du-travail");
  });

  it("after a kill -9 the CLI says plainly what to do", async () => {
    await startServer();
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGKILL");
    await exited;
    const busy = await runCli(["stats"], env());
    expect(busy.code).toBe(2);
    expect(busy.stderr).toMatch(/open in another process.*\n.*lock expires within 10 seconds/s);
    await new Promise((r) => setTimeout(r, 11_000));
    expect((await runCli(["stats"], env())).code).toBe(0);
  });
});

import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../services/core/config.ts";
import { runCli } from "../helpers/cli.ts";

/**
 * The CLI as a new integrator meets it (issue 18, items 16 and 17), the real command on an
 * embedded store of its own: it says which store it opened, refuses the project names the console
 * refuses (one rule), prints its version, and lists keys with their labels.
 */
describe("corpus CLI onboarding", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "lc-cli-"));
  const env = { DATA_DIR: dataDir, INGEST_ON_FIRST_START: "false" };

  it("prints its version", async () => {
    const { version } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
      version: string;
    };
    const result = await runCli(["--version"], env);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(version);
  });

  it("reads --version after a command as that command's own option, not the service's version", async () => {
    // `ingest legi --version X` printed the service's version and loaded nothing.
    const result = await runCli(["ingest", "legi", "--version", "0.0.0-none"], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/error: @socialgouv\/legi-data@0\.0\.0-none: version: cannot fetch/);
  }, 60_000);

  it("says which store it opened, and refuses the names the console refuses", async () => {
    const created = await runCli(["projects", "create", "my-app"], env);
    expect(created.code).toBe(0);
    expect(created.stderr).toContain(`store: embedded (PGlite) in ${dataDir}`);
    // Was accepted by the CLI though the console refused it; a long name was a raw constraint error.
    const bad = await runCli(["projects", "create", "bad/name!!"], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/error: name: letters, digits, spaces, dots, dashes and underscores only/);
    const long = await runCli(["projects", "create", "a".repeat(300)], env);
    expect(long.code).toBe(2);
    expect(long.stderr).toMatch(/error: name: at most 100 characters/);
    expect(long.stderr).not.toMatch(/constraint|violates/);
  }, 60_000);

  it("lists keys with their labels", async () => {
    expect(
      (await runCli(["keys", "create", "--project", "my-app", "--label", "billing server"], env)).code,
    ).toBe(0);
    const listed = await runCli(["keys", "list"], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/label/);
    expect(listed.stdout).toContain("billing server");
  }, 60_000);
});

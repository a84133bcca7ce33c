import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "../../services/core/errors.ts";
import { cachedPackageDir, fetchNpmPackage } from "./npm-package.ts";

// Offline: pacote reads a local tarball the same way as one from the registry.
const work = mkdtempSync(path.join(os.tmpdir(), "npm-package-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function tarball(): string {
  const source = path.join(work, "src");
  mkdirSync(path.join(source, "package", "data"), { recursive: true });
  writeFileSync(
    path.join(source, "package", "package.json"),
    JSON.stringify({ name: "@test/data", version: "1.0.0" }),
  );
  writeFileSync(path.join(source, "package", "data", "a.json"), "[1]");
  const file = path.join(work, "data-1.0.0.tgz");
  execFileSync("tar", ["-czf", file, "-C", source, "package"]);
  return file;
}

describe("fetchNpmPackage", () => {
  it("extracts into <cacheDir>/<name>@<version>, then serves the cached folder", async () => {
    const cacheDir = path.join(work, "cache");
    const file = tarball();
    const version = `file:${file}`;
    const dir = await fetchNpmPackage("@test/data", version, cacheDir);
    expect(dir).toBe(cachedPackageDir(cacheDir, "@test/data", version));
    expect(readFileSync(path.join(dir, "data", "a.json"), "utf8")).toBe("[1]");
    expect(readdirSync(path.dirname(dir)).some((name) => name.includes(".partial-"))).toBe(false);
    rmSync(file);
    expect(await fetchNpmPackage("@test/data", version, cacheDir)).toBe(dir);
  });

  it("names the package in an InputError and leaves no partial folder when the fetch fails", async () => {
    const cacheDir = path.join(work, "failing");
    // Relative to the working directory, and no such file there.
    const version = "file:no-such-package-0.0.0.tgz";
    const failure = await fetchNpmPackage("@test/data", version, cacheDir, "EVAL_VERSION").catch((e) => e);
    expect(failure).toBeInstanceOf(InputError);
    expect(failure.file).toBe(`@test/data@${version}`);
    expect(failure.field).toBe("EVAL_VERSION");
    expect(existsSync(cacheDir) ? readdirSync(cacheDir) : []).toEqual([]);
  });

  it("keeps scoped and unscoped names apart from their scope", () => {
    expect(cachedPackageDir("/c", "@socialgouv/legi-data", "2.1.0")).toBe(path.join("/c", "legi-data@2.1.0"));
    expect(cachedPackageDir("/c", "left-pad", "1.3.0")).toBe(path.join("/c", "left-pad@1.3.0"));
  });
});

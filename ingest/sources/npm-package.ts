import { existsSync, readFileSync } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import pacote from "pacote";
import { InputError } from "../../services/core/errors.ts";

/**
 * Published npm data packages fetched on demand into a cache folder, never installed as
 * dependencies (some weigh hundreds of megabytes). A version is extracted into
 * `<cacheDir>/<name>@<version>.partial-<pid>` and renamed into place once complete, so a fetch cut
 * short never leaves a folder that looks whole, and two processes never write the same folder.
 */

/** Where a version of a package is kept: `<cacheDir>/<name without its scope>@<version>`. */
export function cachedPackageDir(cacheDir: string, name: string, version: string): string {
  return path.join(cacheDir, `${name.replace(/^@[^/]+\//, "")}@${version}`);
}

/**
 * The folder holding `name@version` (its package.json at the top), fetched from the npm registry
 * the first time. `field` names what the caller was given the version as, for the InputError a
 * failed fetch raises.
 */
export async function fetchNpmPackage(
  name: string,
  version: string,
  cacheDir: string,
  field = "version",
): Promise<string> {
  const target = cachedPackageDir(cacheDir, name, version);
  if (existsSync(path.join(target, "package.json"))) return target;
  const partial = `${target}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(cacheDir, { recursive: true });
  try {
    await pacote.extract(`${name}@${version}`, partial);
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw new InputError(`${name}@${version}`, field, `cannot fetch: ${(error as Error).message}`);
  }
  await rename(partial, target);
  return target;
}

/** The version a package folder's package.json gives; null when it has none. */
export function packageVersionAt(packageDir: string): string | null {
  const file = path.join(packageDir, "package.json");
  if (!existsSync(file)) return null;
  return (JSON.parse(readFileSync(file, "utf8")) as { version?: string }).version ?? null;
}

/** The latest published version of a package, asked of the registry; `field` names it in the InputError. */
export async function latestVersion(name: string, field = "version"): Promise<string> {
  try {
    return (await pacote.manifest(`${name}@latest`)).version;
  } catch (error) {
    throw new InputError(name, field, `cannot find the latest version: ${(error as Error).message}`);
  }
}

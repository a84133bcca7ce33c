import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { InputError } from "../../../services/core/errors.ts";
import { fetchNpmPackage, packageVersionAt } from "../npm-package.ts";
import { readJsonFile } from "../read-json.ts";
import { adaptLegiCode, type LegiAdapterResult } from "./adapter.ts";
import type { LegiCode, LegiIndexEntry } from "./types.ts";

export const LEGI_PACKAGE = "@socialgouv/legi-data";

/** A LEGI snapshot on disk: the package's `data/` folder and the label stored with what it loads. */
export interface LegiSnapshot {
  dataDir: string;
  label: string;
  /** The code files in the snapshot (LEGITEXT…), sorted. */
  codes: string[];
}

export interface LegiSnapshotRequest {
  /** A published version of the package, fetched from the npm registry into the cache. */
  version?: string | undefined;
  /** A folder holding a package (with data/) or the data folder itself. */
  path?: string | undefined;
  /** Where fetched versions are kept (DATA_DIR/sources). */
  cacheDir: string;
}

function installedPackageDir(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve(`${LEGI_PACKAGE}/package.json`));
}

function snapshotAt(dataDir: string, label: string): LegiSnapshot {
  if (!existsSync(dataDir)) throw new InputError(dataDir, "path", "no such folder");
  const codes = readdirSync(dataDir)
    .filter((name) => /^LEGITEXT\d+\.json$/.test(name))
    .map((name) => name.replace(/\.json$/, ""))
    .sort();
  if (codes.length === 0) throw new InputError(dataDir, "path", "no LEGITEXT*.json code file in this folder");
  return { dataDir, label, codes };
}

/** Finds (and if needed fetches) the snapshot asked for: the installed package by default. */
export async function resolveLegiSnapshot(request: LegiSnapshotRequest): Promise<LegiSnapshot> {
  if (request.path) {
    const root = path.resolve(request.path);
    const dataDir = existsSync(path.join(root, "data")) ? path.join(root, "data") : root;
    const version = packageVersionAt(path.dirname(dataDir));
    return snapshotAt(dataDir, version ? `${LEGI_PACKAGE}@${version}` : `path:${root}`);
  }
  const installed = installedPackageDir();
  const installedVersion = packageVersionAt(installed);
  if (!request.version || request.version === installedVersion) {
    return snapshotAt(path.join(installed, "data"), `${LEGI_PACKAGE}@${installedVersion}`);
  }
  const target = await fetchNpmPackage(LEGI_PACKAGE, request.version, request.cacheDir);
  return snapshotAt(path.join(target, "data"), `${LEGI_PACKAGE}@${packageVersionAt(target)}`);
}

function readIndex(dataDir: string): Map<string, LegiIndexEntry> {
  const file = path.join(dataDir, "index.json");
  if (!existsSync(file)) return new Map();
  const entries = JSON.parse(readFileSync(file, "utf8")) as LegiIndexEntry[];
  return new Map(entries.map((entry) => [entry.cid, entry]));
}

/**
 * Reads the requested codes one at a time, so only one code's JSON is in memory at once.
 * Unknown code ids are refused before anything is read.
 */
export function* readLegiCodes(
  snapshot: LegiSnapshot,
  only?: string[],
): Generator<LegiAdapterResult & { file: string }> {
  const wanted = only?.length ? only : snapshot.codes;
  for (const code of wanted) {
    if (!snapshot.codes.includes(code)) {
      throw new InputError(
        snapshot.dataDir,
        "codes",
        `${code} is not in this snapshot (it has ${snapshot.codes.join(", ")})`,
      );
    }
  }
  const index = readIndex(snapshot.dataDir);
  for (const code of wanted) {
    const file = path.join(snapshot.dataDir, `${code}.json`);
    const result = adaptLegiCode(readJsonFile(file) as LegiCode, file, snapshot.label, index.get(code));
    yield { ...result, file };
  }
}

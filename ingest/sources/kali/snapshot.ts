import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import pacote from "pacote";
import { InputError } from "../../../services/core/errors.ts";
import { fetchNpmPackage, latestVersion, packageVersionAt } from "../npm-package.ts";
import { readJsonFile } from "../read-json.ts";
import { adaptKaliAgreement, type KaliAdapterResult } from "./adapter.ts";
import type { KaliAgreement } from "./types.ts";

export const KALI_PACKAGE = "@socialgouv/kali-data";

/**
 * A KALI snapshot on disk: the package's `data/` folder, one file per agreement. The package is
 * not a dependency (175 MB unpacked): a version is fetched from npm on demand into DATA_DIR/sources
 * and kept there, as older LEGI snapshots are.
 */
export interface KaliSnapshot {
  dataDir: string;
  /** `@socialgouv/kali-data@3.449.0`, stored with what it loads. */
  label: string;
  /**
   * When the version was published on the registry (YYYY-MM-DD): the date the snapshot vouches
   * for. A folder given by path, outside the cache, is dated the day it is loaded.
   */
  date: string;
  agreements: KaliListing[];
}

/** One agreement file, as listed before anything is adapted. */
export interface KaliListing {
  file: string;
  /** The IDCC; null for the few the package lists without one. */
  idcc: string | null;
  title: string;
  /** False when the package gives the agreement's title only, without a single article. */
  hasArticles: boolean;
}

export interface KaliSnapshotRequest {
  /** A published version; default: the latest on the registry. */
  version?: string | undefined;
  /** A folder holding the package or its data/ folder (tests, offline machines). */
  path?: string | undefined;
  /** Where fetched versions are kept (DATA_DIR/sources). */
  cacheDir: string;
}

/** Files below this size are read whole to list them; a larger one holds articles. */
const SMALL_FILE = 64 * 1024;
/** The agreement's own fields come first in every file: its IDCC and title are in the first bytes. */
const HEAD_BYTES = 16 * 1024;

function readHead(file: string): string {
  const buffer = Buffer.alloc(HEAD_BYTES);
  const fd = openSync(file, "r");
  try {
    return buffer.toString("utf8", 0, readSync(fd, buffer, 0, HEAD_BYTES, 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * What a file holds, cheaply: small files (an agreement listed by title only is a few hundred
 * bytes) are parsed; of a large one, the first bytes give the IDCC and title.
 */
function listAgreement(dataDir: string, name: string): KaliListing {
  const file = path.join(dataDir, name);
  if (statSync(file).size < SMALL_FILE) {
    const agreement = readJsonFile(file) as KaliAgreement;
    const num = agreement?.data?.num;
    return {
      file: name,
      idcc: num === undefined || num === null || num === "" ? null : String(Number(num)),
      title: String(agreement?.data?.title ?? name),
      hasArticles: (agreement?.children?.length ?? 0) > 0,
    };
  }
  const head = readHead(file);
  const num = /"num"\s*:\s*"?(\d+)"?/.exec(head)?.[1];
  const title = /"title"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(head)?.[1];
  return {
    file: name,
    idcc: num === undefined ? null : String(Number(num)),
    title: title ? (JSON.parse(`"${title}"`) as string) : name,
    hasArticles: true,
  };
}

/** Kept beside a fetched version, so that it is dated without the registry next time. */
const PUBLISHED_FILE = ".published-on";

async function publishedOn(packageDir: string, version: string | null): Promise<string | null> {
  const file = path.join(packageDir, PUBLISHED_FILE);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  if (!version) return null;
  try {
    const packument = await pacote.packument(KALI_PACKAGE, { fullMetadata: true });
    const date = packument.time?.[version]?.slice(0, 10) ?? null;
    if (date) writeFileSync(file, `${date}\n`);
    return date;
  } catch {
    return null;
  }
}

const today = () => new Date().toISOString().slice(0, 10);

function snapshotAt(dataDir: string, label: string, date: string): KaliSnapshot {
  if (!existsSync(dataDir)) throw new InputError(dataDir, "path", "no such folder");
  const files = readdirSync(dataDir)
    .filter((name) => /^KALICONT\d+(?:-\d+)?\.json$/.test(name))
    .sort();
  if (files.length === 0)
    throw new InputError(dataDir, "path", "no KALICONT*.json agreement file in this folder");
  return { dataDir, label, date, agreements: files.map((name) => listAgreement(dataDir, name)) };
}

/** Finds (and if needed fetches) the snapshot asked for: the latest published version by default. */
export async function resolveKaliSnapshot(request: KaliSnapshotRequest): Promise<KaliSnapshot> {
  if (request.path) {
    const root = path.resolve(request.path);
    const dataDir = existsSync(path.join(root, "data")) ? path.join(root, "data") : root;
    const version = packageVersionAt(path.dirname(dataDir));
    const date = (await publishedOn(path.dirname(dataDir), null)) ?? today();
    return snapshotAt(dataDir, version ? `${KALI_PACKAGE}@${version}` : `path:${root}`, date);
  }
  const version = request.version ?? (await latestVersion(KALI_PACKAGE));
  const target = await fetchNpmPackage(KALI_PACKAGE, version, request.cacheDir);
  const date = (await publishedOn(target, version)) ?? today();
  return snapshotAt(
    path.join(target, "data"),
    `${KALI_PACKAGE}@${packageVersionAt(target) ?? version}`,
    date,
  );
}

/**
 * The agreements to load: those with articles, or only the IDCCs asked for. An IDCC the snapshot
 * does not hold, or holds by title only, is refused before anything is read.
 */
export function selectAgreements(snapshot: KaliSnapshot, idccs?: string[]): KaliListing[] {
  const loadable = snapshot.agreements.filter((a) => a.hasArticles);
  if (!idccs?.length) return loadable;
  const wanted = idccs.map((idcc) => {
    if (!/^\d{1,5}$/.test(idcc.trim()))
      throw new InputError(snapshot.label, "idcc", `${idcc} is not an IDCC (digits)`);
    return String(Number(idcc));
  });
  for (const idcc of wanted) {
    const listed = snapshot.agreements.filter((a) => a.idcc === idcc);
    if (listed.length === 0)
      throw new InputError(snapshot.label, "idcc", `IDCC ${idcc} is not in this snapshot`);
    if (!listed.some((a) => a.hasArticles))
      throw new InputError(
        snapshot.label,
        "idcc",
        `IDCC ${idcc} (${listed[0]!.title}) is in this snapshot by title only, without any article`,
      );
  }
  return loadable.filter((a) => a.idcc !== null && wanted.includes(a.idcc));
}

/** Reads and adapts the agreements one at a time, so only one agreement's JSON is in memory at once. */
export function* readKaliAgreements(
  snapshot: KaliSnapshot,
  agreements: KaliListing[],
): Generator<KaliAdapterResult & { file: string }> {
  for (const agreement of agreements) {
    const file = path.join(snapshot.dataDir, agreement.file);
    const adapted = adaptKaliAgreement(readJsonFile(file) as KaliAgreement, file, snapshot);
    yield { ...adapted, file };
  }
}

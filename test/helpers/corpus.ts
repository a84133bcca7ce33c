import path from "node:path";
import { type IngestSummary, ingest } from "../../ingest/pipeline/ingest.ts";
import { readLegiCodes, resolveLegiSnapshot } from "../../ingest/sources/legi/snapshot.ts";
import { loadDomainRules } from "../../services/core/classify.ts";
import { repoRoot } from "../../services/core/config.ts";
import type { Database } from "../../services/store/database.ts";

/** Fetched LEGI snapshots are kept here between test runs (git-ignored). */
export const SNAPSHOT_CACHE = path.join(repoRoot, ".cache/legi");

export const shippedRules = () => loadDomainRules(path.join(repoRoot, "ingest/rules/domains.yaml"));

export async function ingestLegiSnapshot(
  db: Database,
  version?: string,
  codes?: string[],
): Promise<IngestSummary> {
  const snapshot = await resolveLegiSnapshot({ version, cacheDir: SNAPSHOT_CACHE });
  const wanted = codes ?? snapshot.codes;
  return ingest(db, {
    source: "legi",
    sourceVersion: snapshot.label,
    parameters: { codes: wanted },
    documentsTotal: wanted.length,
    documents: readLegiCodes(snapshot, wanted),
    rules: shippedRules(),
  });
}

import { createRequire } from "node:module";
import path from "node:path";
import { type GuidesIngestOptions, type GuidesIngestSummary, ingestGuides } from "../../ingest/guides.ts";
import { ingestLegi, type LegiIngestOptions } from "../../ingest/load.ts";
import type { IngestSummary } from "../../ingest/pipeline/ingest.ts";
import type { Config } from "../core/config.ts";
import { GUIDE_PACKAGES } from "../core/guides.ts";
import type { Database } from "../store/database.ts";
import { corpusStats } from "../store/stats.ts";

/**
 * What an empty store gets on the service's first start (INGEST_ON_FIRST_START): the bundled LEGI
 * codes, then search's document expansion from the guides installed with the service, the
 * Ministry of Labour's (@socialgouv/fiches-travail-data, 17 MB): the lay wording people search
 * with, on the articles it cites (docs/RELEVANCE.md, change 11). service-public.fr's fiches
 * (400 MB) are fetched only when asked: `corpus ingest guides`. Nothing is fetched here.
 */
export interface SeedOptions {
  legi?: Omit<LegiIngestOptions, "onProgress">;
  /** Where the Ministry's guides are (default: the installed package). */
  guidesPath?: string;
  onProgress?: LegiIngestOptions["onProgress"];
}

/** Loads the corpus into an empty store; a store holding any document is left as it is (null). */
export async function seedEmptyStore(
  db: Database,
  config: Config,
  options: SeedOptions = {},
): Promise<{ legi: IngestSummary; guides: GuidesIngestSummary } | null> {
  if ((await corpusStats(db)).documents > 0) return null;
  const legi = await ingestLegi(db, config, {
    ...options.legi,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  const guides: GuidesIngestOptions = {
    sources: ["fiches-travail"],
    paths: { "fiches-travail": options.guidesPath ?? installedPackage(GUIDE_PACKAGES["fiches-travail"]) },
  };
  return { legi, guides: await ingestGuides(db, config, guides) };
}

function installedPackage(name: string): string {
  return path.dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
}

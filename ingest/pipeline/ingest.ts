import { classify, type DomainRules } from "../../services/core/classify.ts";
import type { Database } from "../../services/store/database.ts";
import {
  beginIngestRun,
  failAbandonedRuns,
  finishIngestRun,
  recordIngestProgress,
  startIngestRun,
} from "../../services/store/ingest-runs.ts";
import { refreshSearchAuthority } from "../../services/store/search-authority.ts";
import { refreshPlannerStatistics } from "../../services/store/search-statistics.ts";
import type { CanonicalDocumentInput } from "../model.ts";
import { type PersistOutcome, persistDocument } from "./persist.ts";
import { validateDocument } from "./validate.ts";

/**
 * After a run: citation counts change with any document loaded, also for documents the run did
 * not load; and the planner needs fresh statistics once the runs since its last ones wrote enough
 * (refreshPlannerStatistics). Returns whether the statistics were refreshed.
 */
async function refreshAuthority(db: Database, request: IngestRequest, runId: number): Promise<boolean> {
  await db.transaction((tx) => refreshSearchAuthority(tx, request.searchOutbox ?? false));
  return refreshPlannerStatistics(db, runId);
}

/** One document handed to the pipeline by a source adapter. */
export interface SourceDocument {
  file: string;
  document: CanonicalDocumentInput;
  duplicatesDropped?: string[];
  /** Source ids of articles the adapter dropped because they hold no text. */
  withoutText?: string[];
}

export interface IngestSummary {
  runId: number;
  /** `stale`: the store already held a newer snapshot of the document, which was left as it was. */
  documents: { total: number; created: number; updated: number; unchanged: number; stale: number };
  provisions: { total: number; added: number; changed: number; unchanged: number; absent: number };
  versions: number;
  /** Change events handed to the change log. */
  changes: number;
  duplicatesDropped: number;
  /** Articles without any text, dropped (KALI: a heading over numbered sub-articles). */
  withoutTextDropped: number;
  /**
   * Whether the run ended by refreshing the planner's statistics: when the runs since the last
   * refresh wrote more than 50 provisions plus a tenth of the store (migration 033).
   */
  statisticsRefreshed: boolean;
  seconds: number;
  outcomes: PersistOutcome[];
}

export interface IngestProgress {
  documentsDone: number;
  documentsTotal: number;
  current: string;
  provisions: number;
}

export interface IngestRequest {
  source: string;
  sourceVersion: string | null;
  parameters: object;
  documentsTotal: number;
  /** Documents are read lazily so that only one large document is in memory at a time. */
  documents: Iterable<SourceDocument>;
  rules: DomainRules;
  /** A run queued beforehand (admin endpoint, `corpus runs submit`); otherwise a new run is recorded. */
  runId?: number | undefined;
  /** Record changes in the search outbox: true when an Elasticsearch/OpenSearch index follows the store. */
  searchOutbox?: boolean;
  onProgress?: (progress: IngestProgress) => void;
}

/**
 * Runs one ingest: each document is validated, classified and written in its own transaction.
 * The first bad document stops the run with its file and field named; documents before it are
 * loaded completely, it and the ones after it are not touched.
 */
export async function ingest(db: Database, request: IngestRequest): Promise<IngestSummary> {
  const started = performance.now();
  const run = {
    source: request.source,
    sourceVersion: request.sourceVersion,
    parameters: request.parameters,
    rulesHash: request.rules.hash,
    documentsTotal: request.documentsTotal,
  };
  let runId: number;
  if (request.runId === undefined) {
    runId = await startIngestRun(db, run);
    await failAbandonedRuns(db, runId);
  } else {
    runId = request.runId;
    await beginIngestRun(db, runId, run);
  }

  const summary: IngestSummary = {
    runId,
    documents: { total: 0, created: 0, updated: 0, unchanged: 0, stale: 0 },
    provisions: { total: 0, added: 0, changed: 0, unchanged: 0, absent: 0 },
    versions: 0,
    changes: 0,
    duplicatesDropped: 0,
    withoutTextDropped: 0,
    statisticsRefreshed: false,
    seconds: 0,
    outcomes: [],
  };
  const report = () => {
    const { outcomes, ...rest } = summary;
    return {
      ...rest,
      seconds: Math.round((performance.now() - started) / 10) / 100,
      documentsLoaded: outcomes.map((o) => o.publicId),
    };
  };

  try {
    for (const { file, document, duplicatesDropped, withoutText } of request.documents) {
      const doc = validateDocument(document, file);
      request.onProgress?.({
        documentsDone: summary.documents.total,
        documentsTotal: request.documentsTotal,
        current: doc.title,
        provisions: summary.provisions.total,
      });
      const outcome = await persistDocument(db, {
        doc,
        domains: classify(doc, request.rules),
        rulesHash: request.rules.hash,
        runId,
        file,
        searchOutbox: request.searchOutbox ?? false,
      });
      summary.outcomes.push(outcome);
      summary.documents.total += 1;
      summary.documents[outcome.outcome] += 1;
      summary.provisions.total += doc.provisions.length;
      for (const key of ["added", "changed", "unchanged", "absent"] as const)
        summary.provisions[key] += outcome.provisions[key];
      summary.versions += outcome.versions;
      summary.changes += outcome.changes;
      summary.duplicatesDropped += duplicatesDropped?.length ?? 0;
      summary.withoutTextDropped += withoutText?.length ?? 0;
      await recordIngestProgress(db, runId, summary.documents.total, report());
    }
  } catch (error) {
    // The documents before the failure are loaded: who cites them counts already.
    summary.statisticsRefreshed = await refreshAuthority(db, request, runId).catch(() => false);
    await finishIngestRun(db, runId, report(), (error as Error).message);
    throw error;
  }
  summary.statisticsRefreshed = await refreshAuthority(db, request, runId);
  summary.seconds = report().seconds;
  request.onProgress?.({
    documentsDone: summary.documents.total,
    documentsTotal: request.documentsTotal,
    current: "done",
    provisions: summary.provisions.total,
  });
  await finishIngestRun(db, runId, report());
  return summary;
}

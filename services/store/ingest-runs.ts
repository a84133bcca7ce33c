import type { Database } from "./database.ts";

export interface IngestRun {
  id: number;
  source: string;
  sourceVersion: string | null;
  status: "queued" | "running" | "succeeded" | "failed";
  requestedBy: string | null;
  request: unknown;
  documentsTotal: number;
  documentsDone: number;
  summary: Record<string, unknown>;
  error: string | null;
  startedAt: Date;
  finishedAt: Date | null;
}

interface RunRow {
  id: number;
  source: string;
  source_version: string | null;
  status: IngestRun["status"];
  documents_total: number;
  documents_done: number;
  summary: Record<string, unknown>;
  error: string | null;
  started_at: Date;
  finished_at: Date | null;
  requested_by: string | null;
  request: unknown;
}

const present = (row: RunRow): IngestRun => ({
  id: row.id,
  source: row.source,
  sourceVersion: row.source_version,
  status: row.status,
  documentsTotal: row.documents_total,
  documentsDone: row.documents_done,
  summary: row.summary,
  error: row.error,
  startedAt: new Date(row.started_at),
  finishedAt: row.finished_at ? new Date(row.finished_at) : null,
  requestedBy: row.requested_by ?? null,
  request: row.request ?? null,
});

/** A run submitted to be executed later, by a worker or the embedded server. */
export async function queueIngestRun(
  db: Database,
  run: { source: string; request: object; requestedBy: string },
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    "INSERT INTO ingest_runs (source, status, request, requested_by, parameters) VALUES ($1, 'queued', $2, $3, '{}') RETURNING id",
    [run.source, JSON.stringify(run.request), run.requestedBy],
  );
  return rows[0]!.id;
}

/**
 * Submitted runs that no process has started, the oldest first: `status = 'queued'` and submitted
 * at least `olderThanSeconds` ago. Their jobs may never have reached the queue (Redis down at
 * submission), so the worker looks for them.
 */
export async function waitingRuns(db: Database, olderThanSeconds: number): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    "SELECT id FROM ingest_runs WHERE status = 'queued' AND started_at <= now() - make_interval(secs => $1) ORDER BY id",
    [olderThanSeconds],
  );
  return rows.map((row) => row.id);
}

/**
 * Runs a process was executing for someone and did not finish (submitted, then `running`), and
 * those still waiting: what an embedded server resumes when it starts, since it alone runs them.
 */
export async function unfinishedSubmittedRuns(db: Database): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    "SELECT id FROM ingest_runs WHERE status IN ('queued', 'running') AND requested_by IS NOT NULL ORDER BY id",
  );
  return rows.map((row) => row.id);
}

/** A queued (or retried) run starts: its counts and error are reset. */
export async function beginIngestRun(
  db: Database,
  id: number,
  run: { sourceVersion: string | null; parameters: object; rulesHash: string; documentsTotal: number },
) {
  await db.query(
    `UPDATE ingest_runs SET status = 'running', source_version = $2, parameters = $3, rules_hash = $4,
       documents_total = $5, documents_done = 0, error = NULL, finished_at = NULL, started_at = now()
     WHERE id = $1`,
    [id, run.sourceVersion, JSON.stringify(run.parameters), run.rulesHash, run.documentsTotal],
  );
}

export async function startIngestRun(
  db: Database,
  run: {
    source: string;
    sourceVersion: string | null;
    parameters: object;
    rulesHash: string;
    documentsTotal: number;
  },
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO ingest_runs (source, source_version, parameters, rules_hash, documents_total)
     VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [run.source, run.sourceVersion, JSON.stringify(run.parameters), run.rulesHash, run.documentsTotal],
  );
  return rows[0]!.id;
}

export async function recordIngestProgress(db: Database, id: number, documentsDone: number, summary: object) {
  await db.query("UPDATE ingest_runs SET documents_done = $2, summary = $3 WHERE id = $1", [
    id,
    documentsDone,
    JSON.stringify(summary),
  ]);
}

export async function finishIngestRun(db: Database, id: number, summary: object, error?: string) {
  await db.query(
    "UPDATE ingest_runs SET status = $2, summary = $3, error = $4, finished_at = now() WHERE id = $1",
    [id, error ? "failed" : "succeeded", JSON.stringify(summary), error ?? null],
  );
}

/**
 * Direct runs (`corpus ingest`) whose process died stay `running`; a later run marks them failed
 * so status is honest. Queued runs are left alone: their queue retries them.
 */
export async function failAbandonedRuns(db: Database, olderThanId: number) {
  await db.query(
    `UPDATE ingest_runs SET status = 'failed', error = 'abandoned: the process stopped before the run finished', finished_at = now()
     WHERE status = 'running' AND requested_by IS NULL AND id < $1`,
    [olderThanId],
  );
}

export async function findIngestRun(db: Database, id: number): Promise<IngestRun | undefined> {
  const { rows } = await db.query<RunRow>("SELECT * FROM ingest_runs WHERE id = $1", [id]);
  return rows[0] ? present(rows[0]) : undefined;
}

export async function listIngestRuns(db: Database, limit = 20): Promise<IngestRun[]> {
  const { rows } = await db.query<RunRow>("SELECT * FROM ingest_runs ORDER BY id DESC LIMIT $1", [limit]);
  return rows.map(present);
}

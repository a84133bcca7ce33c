import type { Database } from "./database.ts";

/**
 * The two outboxes (migrations 004 and 006) work alike: ingest writes entries in its transaction,
 * a dispatcher hands ranges of them to jobs (`dispatched_at`), a job marks its range done. Only the
 * table, the payload column and the "done" column differ. SQL only.
 */
export interface Outbox<T> {
  table: "search_outbox" | "change_outbox";
  /** The column holding what an entry carries. */
  payload: "public_id" | "event";
  /** Set when the entry's job has done its work. */
  done: "indexed_at" | "written_at";
  /** The payload's type, for the compiler only. */
  readonly item?: T;
}

/** A range of entries with their payloads, oldest first: what one job handles. */
export interface OutboxRange<T> {
  firstId: number;
  lastId: number;
  items: T[];
}

/** The oldest entries not yet handed to a job, marked as handed over in the same statement. */
export async function takeUndispatched<T>(
  db: Database,
  outbox: Outbox<T>,
  limit: number,
): Promise<OutboxRange<T> | undefined> {
  const { table, payload } = outbox;
  const { rows } = await db.query<{ id: string | number; item: T }>(
    `UPDATE ${table} SET dispatched_at = now()
     WHERE id IN (SELECT id FROM ${table} WHERE dispatched_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING id, ${payload} AS item`,
    [limit],
  );
  if (rows.length === 0) return undefined;
  rows.sort((a, b) => Number(a.id) - Number(b.id));
  return { firstId: Number(rows[0]!.id), lastId: Number(rows.at(-1)!.id), items: rows.map((r) => r.item) };
}

/** A range the queue did not take (Redis unreachable) goes back to waiting. */
export async function releaseRange(db: Database, outbox: Outbox<unknown>, firstId: number, lastId: number) {
  await db.query(
    `UPDATE ${outbox.table} SET dispatched_at = NULL WHERE id BETWEEN $1 AND $2 AND ${outbox.done} IS NULL`,
    [firstId, lastId],
  );
}

/** A range whose job has done its work. */
export async function markDone(db: Database, outbox: Outbox<unknown>, firstId: number, lastId: number) {
  await db.query(
    `UPDATE ${outbox.table} SET ${outbox.done} = now() WHERE id BETWEEN $1 AND $2 AND ${outbox.done} IS NULL`,
    [firstId, lastId],
  );
}

/** Entries handed to a queue that never confirmed them (a job lost with its worker or Redis): hand them over again. */
export async function redispatchStale(
  db: Database,
  outbox: Outbox<unknown>,
  olderThanSeconds: number,
): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH stale AS (
       UPDATE ${outbox.table} SET dispatched_at = NULL
       WHERE ${outbox.done} IS NULL AND dispatched_at < now() - make_interval(secs => $1) RETURNING 1)
     SELECT count(*)::int AS n FROM stale`,
    [olderThanSeconds],
  );
  return rows[0]?.n ?? 0;
}

/** Done entries are history; a day is kept (rebuilds replay the search outbox's, people inspect). */
export async function pruneDone(db: Database, outbox: Outbox<unknown>, olderThanHours = 24): Promise<void> {
  await db.query(`DELETE FROM ${outbox.table} WHERE ${outbox.done} < now() - make_interval(hours => $1)`, [
    olderThanHours,
  ]);
}

/** Entries not done yet. */
export async function pendingCount(db: Database, outbox: Outbox<unknown>): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${outbox.table} WHERE ${outbox.done} IS NULL`,
  );
  return rows[0]?.n ?? 0;
}

import type { ChangeEvent } from "../changes/derive.ts";
import type { Database, Queryable } from "./database.ts";

/** The change outbox (migration 006): SQL only. Events wait here until the change-log writer has them. */

const BATCH = 2000;

/** In the ingest transaction: the document's change events. */
export async function recordChanges(tx: Queryable, events: ChangeEvent[]): Promise<void> {
  for (let i = 0; i < events.length; i += BATCH) {
    await tx.query("INSERT INTO change_outbox (event) SELECT jsonb_array_elements($1::jsonb)", [
      JSON.stringify(events.slice(i, i + BATCH)),
    ]);
  }
}

/** A range of outbox entries and their events: the payload of one change-log job. */
export interface ChangeBatch {
  firstId: number;
  lastId: number;
  events: ChangeEvent[];
}

/** The oldest entries not yet handed to a job, marked as handed over in the same statement. */
export async function takeUndispatchedChanges(db: Database, limit: number): Promise<ChangeBatch | undefined> {
  const { rows } = await db.query<{ id: string | number; event: ChangeEvent }>(
    `UPDATE change_outbox SET dispatched_at = now()
     WHERE id IN (SELECT id FROM change_outbox WHERE dispatched_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING id, event`,
    [limit],
  );
  if (rows.length === 0) return undefined;
  rows.sort((a, b) => Number(a.id) - Number(b.id));
  return {
    firstId: Number(rows[0]!.id),
    lastId: Number(rows.at(-1)!.id),
    events: rows.map((r) => r.event),
  };
}

/** A batch that could not be handed over (the queue is unreachable) goes back to waiting. */
export async function releaseChanges(db: Database, firstId: number, lastId: number): Promise<void> {
  await db.query(
    "UPDATE change_outbox SET dispatched_at = NULL WHERE id BETWEEN $1 AND $2 AND written_at IS NULL",
    [firstId, lastId],
  );
}

/** Entries handed to a queue that never confirmed them (a job lost with its Redis): hand them over again. */
export async function redispatchStaleChanges(db: Database, olderThanSeconds: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH stale AS (
       UPDATE change_outbox SET dispatched_at = NULL
       WHERE written_at IS NULL AND dispatched_at < now() - make_interval(secs => $1) RETURNING 1)
     SELECT count(*)::int AS n FROM stale`,
    [olderThanSeconds],
  );
  return rows[0]?.n ?? 0;
}

/** Written entries are in the change log already; a day is kept for inspection. */
export async function pruneWrittenChanges(db: Database, olderThanHours = 24): Promise<void> {
  await db.query("DELETE FROM change_outbox WHERE written_at < now() - make_interval(hours => $1)", [
    olderThanHours,
  ]);
}

export async function pendingChanges(db: Database): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM change_outbox WHERE written_at IS NULL",
  );
  return rows[0]?.n ?? 0;
}

import type { Database, Queryable } from "./database.ts";

/** The search outbox (migration 004): SQL only. */

export async function recordForIndexing(tx: Queryable, publicIds: string[]): Promise<void> {
  if (publicIds.length === 0) return;
  await tx.query("INSERT INTO search_outbox (public_id) SELECT unnest($1::text[])", [publicIds]);
}

export interface OutboxBatch {
  firstId: number;
  lastId: number;
  publicIds: string[];
}

/** The oldest entries not yet handed to a job, marked as handed over in the same statement. */
export async function takeUndispatched(db: Database, limit: number): Promise<OutboxBatch | undefined> {
  const { rows } = await db.query<{ id: number; public_id: string }>(
    `UPDATE search_outbox SET dispatched_at = now()
     WHERE id IN (SELECT id FROM search_outbox WHERE dispatched_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING id, public_id`,
    [limit],
  );
  if (rows.length === 0) return undefined;
  const ids = rows.map((r) => Number(r.id));
  return {
    firstId: Math.min(...ids),
    lastId: Math.max(...ids),
    publicIds: [...new Set(rows.map((r) => r.public_id))],
  };
}

export async function markIndexed(db: Database, firstId: number, lastId: number): Promise<void> {
  await db.query(
    "UPDATE search_outbox SET indexed_at = now() WHERE id BETWEEN $1 AND $2 AND indexed_at IS NULL",
    [firstId, lastId],
  );
}

/** Entries handed to a queue that never confirmed them (a lost job): hand them over again. */
export async function redispatchStale(db: Database, olderThanSeconds: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH stale AS (
       UPDATE search_outbox SET dispatched_at = NULL
       WHERE indexed_at IS NULL AND dispatched_at < now() - make_interval(secs => $1) RETURNING 1)
     SELECT count(*)::int AS n FROM stale`,
    [olderThanSeconds],
  );
  return rows[0]?.n ?? 0;
}

export async function pendingCount(db: Database): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM search_outbox WHERE indexed_at IS NULL",
  );
  return rows[0]?.n ?? 0;
}

/** Entries indexed since a moment: what a rebuild replays after swapping the alias. */
export async function indexedSince(db: Database, since: Date): Promise<string[]> {
  const { rows } = await db.query<{ public_id: string }>(
    "SELECT DISTINCT public_id FROM search_outbox WHERE indexed_at >= $1",
    [since],
  );
  return rows.map((r) => r.public_id);
}

/** A batch that could not be handed over (the queue is unreachable) goes back to waiting. */
export async function releaseBatch(db: Database, firstId: number, lastId: number): Promise<void> {
  await db.query(
    "UPDATE search_outbox SET dispatched_at = NULL WHERE id BETWEEN $1 AND $2 AND indexed_at IS NULL",
    [firstId, lastId],
  );
}

/** Indexed entries older than this are history; a day is kept for rebuilds to replay. */
export async function pruneIndexed(db: Database, olderThanHours = 24): Promise<void> {
  await db.query("DELETE FROM search_outbox WHERE indexed_at < now() - make_interval(hours => $1)", [
    olderThanHours,
  ]);
}

/**
 * Entries waiting when a rebuild starts: their rows were committed before the rebuild read any
 * page, so the new index holds them (entries committed later are not in this list).
 */
export async function waitingIds(db: Database): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>("SELECT id FROM search_outbox WHERE indexed_at IS NULL");
  return rows.map((r) => Number(r.id));
}

export async function markIdsIndexed(db: Database, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    "UPDATE search_outbox SET indexed_at = now(), dispatched_at = coalesce(dispatched_at, now()) WHERE id = ANY($1) AND indexed_at IS NULL",
    [ids],
  );
}

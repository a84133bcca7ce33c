import type { Database, Queryable } from "./database.ts";
import type { Outbox } from "./outbox.ts";

/**
 * The search outbox (migration 004), beyond what every outbox does (outbox.ts): what ingest
 * records, and what an index rebuild reads and settles. SQL only.
 */

/** Provisions to re-index: one public id per entry. */
export const SEARCH_OUTBOX: Outbox<string> = {
  table: "search_outbox",
  payload: "public_id",
  done: "indexed_at",
};

export async function recordForIndexing(tx: Queryable, publicIds: string[]): Promise<void> {
  if (publicIds.length === 0) return;
  await tx.query("INSERT INTO search_outbox (public_id) SELECT unnest($1::text[])", [publicIds]);
}

/** Entries indexed since a moment: what a rebuild replays after swapping the alias. */
export async function indexedSince(db: Database, since: Date): Promise<string[]> {
  const { rows } = await db.query<{ public_id: string }>(
    "SELECT DISTINCT public_id FROM search_outbox WHERE indexed_at >= $1",
    [since],
  );
  return rows.map((r) => r.public_id);
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

/** The database's clock, so that times compare with those it records (a rebuild's start). */
export async function databaseNow(db: Database): Promise<Date> {
  const { rows } = await db.query<{ now: Date }>("SELECT now() AS now");
  return new Date(rows[0]!.now);
}

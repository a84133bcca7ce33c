import type { IndexStore } from "../../services/search/index-store.ts";
import type { Database } from "../../services/store/database.ts";
import { provisionsByPublicId } from "../../services/store/index-source.ts";
import { markIndexed, type OutboxBatch, takeUndispatched } from "../../services/store/search-outbox.ts";

/**
 * The indexing job: make the index hold these provisions exactly as Postgres has them now.
 * Idempotent by construction (it reads current rows, and the same row always yields the same
 * index document), so a retry, a duplicate or a replay after a crash converges on one state.
 */
export async function indexProvisions(db: Database, index: IndexStore, batch: OutboxBatch): Promise<void> {
  const rows = await provisionsByPublicId(db, batch.publicIds);
  const found = new Set(rows.map((r) => r.id));
  const [target] = await index.aliasTargets();
  if (!target) throw new Error(`no index behind ${index.alias}: run \`corpus index rebuild\``);
  const failed = await index.bulk(
    target,
    rows,
    batch.publicIds.filter((id) => !found.has(id)),
  );
  if (failed.length > 0)
    throw new Error(`indexing failed for ${failed.length} provisions, e.g. ${failed[0]}`);
  await markIndexed(db, batch.firstId, batch.lastId);
}

/** Where outbox batches go: a BullMQ queue (index-queue.ts), or straight to indexProvisions when embedded. */
export type OutboxSink = (batch: OutboxBatch) => Promise<void>;

/** Hands every undispatched outbox entry to the sink, in batches, oldest first. */
export async function dispatchOutbox(db: Database, sink: OutboxSink, batchSize = 500): Promise<number> {
  let dispatched = 0;
  for (
    let batch = await takeUndispatched(db, batchSize);
    batch;
    batch = await takeUndispatched(db, batchSize)
  ) {
    await sink(batch);
    dispatched += batch.publicIds.length;
  }
  return dispatched;
}

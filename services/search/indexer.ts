import type { Database } from "../store/database.ts";
import { provisionHashes, provisionsByPublicId, provisionsForIndex } from "../store/index-source.ts";
import { databaseNow, indexedSince, markIdsIndexed, waitingIds } from "../store/search-outbox.ts";
import type { IndexLayout } from "./dsl.ts";
import type { IndexStore } from "./index-store.ts";

/**
 * Keeps the search index a faithful copy of Postgres: rebuild into a new versioned index and swap
 * the alias (searches never see a half-built index), verify by comparing content hashes, and
 * repair drift by re-indexing what differs.
 */

export interface RebuildOutcome {
  index: string;
  documents: number;
  seconds: number;
  previous: string[];
}

export async function rebuildIndex(
  db: Database,
  store: IndexStore,
  layout: IndexLayout,
  onProgress?: (indexed: number) => void,
): Promise<RebuildOutcome> {
  const started = performance.now();
  const readFrom = await databaseNow(db);
  const covered = await waitingIds(db);
  const index = `${store.alias}-${new Date().toISOString().replace(/\D/g, "").slice(0, 17)}`;
  await store.createIndex(index, layout);
  let documents = 0;
  try {
    for await (const page of provisionsForIndex(db)) {
      const failed = await store.bulk(index, page, []);
      if (failed.length > 0)
        throw new Error(`indexing failed for ${failed.length} provisions, e.g. ${failed[0]}`);
      documents += page.length;
      onProgress?.(documents);
    }
    await store.refresh(index);
  } catch (error) {
    await store.deleteIndex(index).catch(() => undefined);
    throw error;
  }
  const previous = await store.aliasTargets();
  await store.swapAlias(index, previous);
  // Jobs that ran while this index was being built wrote to the previous one: replay them here.
  const replay = await indexedSince(db, readFrom);
  for (let i = 0; i < replay.length; i += 1000) {
    const rows = await provisionsByPublicId(db, replay.slice(i, i + 1000));
    await store.bulk(index, rows, []);
  }
  if (replay.length > 0) await store.refresh(index);
  await markIdsIndexed(db, covered);
  for (const old of previous) await store.deleteIndex(old);
  return { index, documents, previous, seconds: (performance.now() - started) / 1000 };
}

export interface Drift {
  index: string | null;
  /** In Postgres, not in the index. */
  missing: string[];
  /** In the index, not in Postgres. */
  extra: string[];
  /** In both, but the index holds another version. */
  stale: string[];
}

export async function verifyIndex(db: Database, store: IndexStore): Promise<Drift> {
  const [index] = await store.aliasTargets();
  const truth = await provisionHashes(db);
  if (!index) return { index: null, missing: [...truth.keys()], extra: [], stale: [] };
  const indexed = await store.hashes(index);
  const missing: string[] = [];
  const stale: string[] = [];
  for (const [id, hash] of truth) {
    const copy = indexed.get(id);
    if (copy === undefined) missing.push(id);
    else if (copy !== hash) stale.push(id);
  }
  const extra = [...indexed.keys()].filter((id) => !truth.has(id));
  return { index, missing, extra, stale };
}

/** Re-indexes what a verification found different; returns the drift left afterwards. */
export async function repairIndex(db: Database, store: IndexStore, drift: Drift): Promise<Drift> {
  if (!drift.index) throw new Error("no index behind the alias: run a rebuild");
  const ids = [...drift.missing, ...drift.stale];
  for (let i = 0; i < ids.length || i === 0; i += 1000) {
    const rows = await provisionsByPublicId(db, ids.slice(i, i + 1000));
    await store.bulk(drift.index, rows, i === 0 ? drift.extra : []);
    if (ids.length === 0) break;
  }
  await store.refresh(drift.index);
  return verifyIndex(db, store);
}

import type { IndexDocumentJson } from "../store/index-source.ts";
import type { IndexLayout } from "./dsl.ts";

/**
 * How long one bulk or refresh request may take. Searches keep the clients' 10 s (engines.ts): a
 * search that slow has failed. Writing a page of a thousand documents is another matter: on a
 * busy node (the index rebuilt while the machine also ingests, merges or serves) it took longer,
 * the client timed out three times and `corpus index rebuild` failed half-way.
 */
export const WRITE_TIMEOUT_MS = 120_000;

/**
 * What indexing needs from Elasticsearch or OpenSearch, and nothing more: each client's glue
 * implements it in a few lines (elasticsearch-engine.ts, opensearch-engine.ts).
 */
export interface IndexStore {
  /** The alias searches go through; concrete indexes are `<alias>-<version>`. */
  readonly alias: string;
  createIndex(name: string, layout: IndexLayout): Promise<void>;
  deleteIndex(name: string): Promise<void>;
  /** Indexes the alias points at now (empty when the alias does not exist). */
  aliasTargets(): Promise<string[]>;
  /** Points the alias at `index` and away from `previous`, in one atomic request. */
  swapAlias(index: string, previous: string[]): Promise<void>;
  /** Writes documents (by public id) and deletes ids; returns ids that failed. */
  bulk(index: string, upserts: IndexDocumentJson[], deletes: string[]): Promise<string[]>;
  refresh(index: string): Promise<void>;
  /** public id → content hash of every document in the index. */
  hashes(index: string): Promise<Map<string, string>>;
}

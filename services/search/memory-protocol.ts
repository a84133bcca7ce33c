import type { IndexedProvision } from "../store/search-snapshot.ts";
import type { AnalysedQuery, MemoryPage } from "./memory-index.ts";

/**
 * Messages between the server and the thread that holds the in-memory search model
 * (memory-worker.ts): a build sent batch by batch, then searches. Each alternative's vector
 * travels as Postgres printed it (tsvector text); the thread parses it.
 */
export type MemoryQuery = Omit<AnalysedQuery, "alternatives"> & {
  alternatives: Array<{ term: number; vector: string; inOrder: boolean }>;
};

export type MemoryRequest =
  | { op: "build-start"; build: number }
  | { op: "build-add"; build: number; provisions: IndexedProvision[] }
  | { op: "build-finish"; build: number; generation: string }
  | { op: "search"; id: number; generation: string; query: MemoryQuery };

export type MemoryReply =
  | { op: "built"; build: number; generation: string; provisions: number; postings: number }
  | { op: "build-failed"; build: number; message: string }
  /** `page` null: the thread holds no copy at that generation (it moved on meanwhile). */
  | { op: "searched"; id: number; page: MemoryPage | null }
  | { op: "search-failed"; id: number; message: string };

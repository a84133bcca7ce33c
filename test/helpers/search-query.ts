import type { SearchQuery } from "../../services/search/engine.ts";

/** A search as the API's defaults make it (first page of ten, in force), on a fixed day. */
export const searchQuery = (q: string, more: Partial<SearchQuery> = {}): SearchQuery => ({
  q,
  limit: 10,
  offset: 0,
  domains: null,
  document: null,
  inForce: true,
  asOf: "2026-06-01",
  ...more,
});

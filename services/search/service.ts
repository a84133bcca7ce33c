import { authorizeDomains, type DomainFilter } from "../access/domains.ts";
import type { Principal } from "../access/keys.ts";
import type { Domain } from "../core/domains.ts";
import { AppError } from "../core/errors.ts";
import { type SearchEngine, type SearchHit, type SearchResult, versionNotLoadedOn } from "./engine.ts";
import type { Synonyms } from "./synonyms.ts";
import type { TitleClassifier } from "./title-classifier.ts";

/**
 * The engine did not answer. Still the spec's internal_error (a server fault), but the message
 * tells the client what keeps working; the cause goes to the logs, never to the client.
 */
export class SearchUnavailable extends AppError {
  constructor(
    engine: string,
    override readonly cause: unknown,
  ) {
    super(
      "internal_error",
      `Search is temporarily unavailable (${engine}). Provisions and documents can still be fetched by id; retry the search shortly.`,
    );
  }
}

export interface SearchRequest {
  q: string;
  limit: number;
  offset: number;
  domains?: Domain[] | undefined;
  document?: string | undefined;
  inForce: boolean;
  asOf?: string | undefined;
  match?: "all" | "any";
  /** The asking client left: stop (services/search/engine.ts). */
  signal?: AbortSignal | undefined;
  /** The synonyms to expand with, when not the engine's own (services/search/engine.ts). */
  synonyms?: Synonyms | undefined;
}

export interface SearchOutcome extends SearchResult {
  filter: DomainFilter;
}

/** Search on behalf of a key: its domain restriction applies before the engine is asked. */
export async function searchProvisions(
  engine: SearchEngine,
  who: Principal,
  request: SearchRequest,
  titles?: TitleClassifier,
): Promise<SearchOutcome> {
  const filter = authorizeDomains(who, request.domains);
  const candidates = filter.domains && titles ? await titles.candidates(filter.domains) : [];
  const asOf = request.asOf ?? new Date().toISOString().slice(0, 10);
  const found = await engine
    .search({
      q: request.q,
      limit: request.limit,
      offset: request.offset,
      domains: filter.domains,
      unclassifiedDocuments: candidates,
      document: request.document ?? null,
      inForce: request.inForce,
      asOf,
      match: request.match ?? "all",
      signal: request.signal,
      synonyms: request.synonyms,
    })
    .catch((error: unknown) => {
      throw new SearchUnavailable(engine.name, error);
    });
  // A provision in force that day in a wording the snapshot lacks is found, and says so.
  const flagged = (hit: SearchHit): SearchHit =>
    versionNotLoadedOn(hit, asOf) ? { ...hit, versionNotLoaded: true } : hit;
  const result = { ...found, hits: found.hits.map(flagged) };
  if (candidates.length === 0 || !titles || !filter.domains) return { ...result, filter };
  const domains = filter.domains;
  const hits = result.hits.map((hit) => titles.keep(hit, domains)).filter((hit) => hit !== undefined);
  return {
    ...result,
    hits,
    total: result.total - (result.hits.length - hits.length),
    filterMode: "best_effort",
    filter,
  };
}

import type { Domain } from "../core/domains.ts";
import type { Synonyms } from "./synonyms.ts";

/**
 * One interface for every search engine: Postgres full-text search (embedded default), and the
 * Elasticsearch and OpenSearch engines for scale. The API depends on this and nothing below it.
 */

/**
 * With `inForce: false`, a provision not in force on `asOf` (repealed, or not yet in force) weighs
 * this share of its score on every engine, so the law in force comes first among equals and an
 * old text still comes first when it alone matches well.
 */
export const OUT_OF_FORCE_WEIGHT = 0.5;

export interface SearchQuery {
  /** Free text as the user typed it. */
  q: string;
  limit: number;
  offset: number;
  /** Any of these domains; null: no domain filter. */
  domains: Domain[] | null;
  /**
   * With a domain filter: unclassified provisions of these documents are candidates too
   * (best_effort; see services/search/title-classifier.ts). Empty or absent: exact filtering only.
   */
  unclassifiedDocuments?: string[];
  /** Only this document (public id); null: all. */
  document: string | null;
  /** Only provisions in force on `asOf`. */
  inForce: boolean;
  /** YYYY-MM-DD, the day "in force" refers to. */
  asOf: string;
  /**
   * `all` (default): the words a person expects to match (query-text.ts's minimumShouldMatch: the
   * one word, either of two, half of more). `any`: any word may match, best matches first: what
   * answering a question written in full needs.
   */
  match?: "all" | "any";
  /** Aborts when the client that asked has left: a server Postgres search is then cancelled. */
  signal?: AbortSignal | undefined;
  /**
   * The synonyms to expand the query with, when not the engine's own (the file's): the file's and
   * the abbreviations the loaded guides define (services/corpus/vocabulary.ts).
   */
  synonyms?: Synonyms | undefined;
}

export interface SearchHit {
  publicId: string;
  number: string;
  document: { publicId: string; title: string };
  sectionPath: string[];
  /** Text around the matches, matched terms wrapped in <mark>…</mark>. */
  snippet: string;
  status: "in_force" | "repealed" | "not_yet_in_force";
  effectiveFrom: string | null;
  /** effectiveFrom and effectiveTo: the text's own dates, those of the version we hold. */
  effectiveTo: string | null;
  /**
   * When the provision is in force, whichever version is (migration 022): wider than the text's
   * dates when versions the source lists without their text join the one we hold.
   */
  inForceFrom: string | null;
  inForceTo: string | null;
  domains: Domain[];
  score: number;
  /** Set when the domains come from the document title after retrieval (best_effort). */
  classifiedBy?: "document_title";
  /**
   * Set (services/search/service.ts) when the provision is in force on the day asked in a version
   * whose text the loaded snapshot lacks: the snippet and the dates are of another wording.
   */
  versionNotLoaded?: true;
}

/**
 * Whether a hit's provision is in force on `asOf` (in whichever version, migration 022) in a
 * version other than the one whose text we hold: an earlier one, or a later one.
 */
export function versionNotLoadedOn(
  hit: Pick<SearchHit, "status" | "effectiveFrom" | "effectiveTo" | "inForceFrom" | "inForceTo">,
  asOf: string,
): boolean {
  const inForce =
    (hit.inForceFrom === null || hit.inForceFrom <= asOf) &&
    (hit.inForceTo === null ? hit.status !== "repealed" : hit.inForceTo > asOf);
  const textInForce =
    (hit.effectiveFrom === null || hit.effectiveFrom <= asOf) &&
    (hit.effectiveTo === null || hit.effectiveTo > asOf);
  return inForce && !textInForce;
}

export interface SearchResult {
  hits: SearchHit[];
  /** How many provisions match in all (for pagination). */
  total: number;
  /**
   * Whether some provision counted in `total` holds every term of the query, not only enough of
   * them: what `partial_match` reports (services/corpus/search.ts). Told for a query of two terms
   * (where one suffices to match, query-text.ts's minimumShouldMatch); an engine may leave it out
   * otherwise.
   */
  holdsEveryTerm?: boolean;
  /**
   * `exact`: the domain filter was applied in the query, so nothing outside it was retrieved.
   * `best_effort`: some results were classified after retrieval (see the engines' docs).
   */
  filterMode: "exact" | "best_effort";
}

export interface SearchEngine {
  readonly name: "postgres" | "elasticsearch" | "opensearch";
  search(query: SearchQuery): Promise<SearchResult>;
  /** For readiness: can the engine answer right now? */
  ping(): Promise<boolean>;
  /** For readiness, where an engine has more than one way to rank: which one it uses now. */
  describe?(): string;
  close(): Promise<void>;
}

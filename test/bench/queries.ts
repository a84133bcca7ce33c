import type { Domain } from "../../services/core/domains.ts";
import type { SearchQuery } from "../../services/search/engine.ts";

/**
 * The fixed query mix of `npm run bench:api`: what people ask a French labour-law assistant,
 * a few questions on the other loaded codes (social security, rural, public administration), two
 * article numbers, and a third of the mix filtered to the labour domain, as an integration
 * scoped to employment law would send it. Fixed, so that runs and machines stay comparable.
 */
export interface BenchQuery {
  q: string;
  domains?: Domain[];
}

export const BENCH_QUERIES: BenchQuery[] = [
  { q: "rupture conventionnelle" },
  { q: "période d'essai", domains: ["labour"] },
  { q: "licenciement pour motif économique" },
  { q: "congé maternité" },
  { q: "heures supplémentaires", domains: ["labour"] },
  { q: "CDD renouvellement" },
  { q: "prud'hommes délai" },
  { q: "harcèlement moral", domains: ["labour"] },
  { q: "accident du travail déclaration" },
  { q: "cotisations sociales" },
  { q: "bail rural" },
  { q: "accès aux documents administratifs" },
  { q: "L1237-19" },
  { q: "indemnité de licenciement", domains: ["labour"] },
  { q: "travail de nuit" },
  { q: "comité social et économique", domains: ["labour"] },
  { q: "télétravail" },
  { q: "congés payés", domains: ["labour"] },
  { q: "inaptitude reclassement" },
  { q: "allocations familiales" },
  { q: "indemnités journalières maladie" },
  { q: "retraite anticipée carrière longue" },
  { q: "fermage" },
  { q: "silence gardé par l'administration vaut acceptation" },
  { q: "démission préavis", domains: ["labour"] },
  { q: "L3121-27" },
];

/** The request the API receives: the defaults (limit 10, offset 0, in force today) left implicit. */
export function searchPath(query: BenchQuery): string {
  const params = new URLSearchParams({ q: query.q });
  if (query.domains) params.set("domains", query.domains.join(","));
  return `/api/v1/search?${params}`;
}

/** What the search route hands the engine for that request (see services/search/service.ts). */
export function engineQuery(query: BenchQuery, asOf: string): SearchQuery {
  return {
    q: query.q,
    limit: 10,
    offset: 0,
    domains: query.domains ?? null,
    document: null,
    inForce: true,
    asOf,
  };
}

/** Connection (or loop) `index` starts at its own place in the mix, so they do not march in step. */
export function rotated<T>(items: T[], index: number): T[] {
  const start = index % items.length;
  return [...items.slice(start), ...items.slice(0, start)];
}

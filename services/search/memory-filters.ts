import { DOMAINS } from "../core/domains.ts";
import type { IndexedProvision } from "../store/search-snapshot.ts";
import { OUT_OF_FORCE_WEIGHT } from "./engine.ts";
import { AGREEMENT_KIND, type Ranking, reachWeight } from "./ranking.ts";

/** What a query asks of the filters (memory-index.ts's AnalysedQuery). */
export interface FilterQuery {
  domains: readonly string[] | null;
  /** Documents whose unclassified provisions pass a domain filter (title-classifier.ts). */
  unclassifiedDocuments: readonly string[];
  document: string | null;
  inForce: boolean;
  asOf: string;
}

const FLAG = { agreement: 1, unclassified: 2 } as const;

/** "2024-01-31" as 20240131, comparable as the dates are; `open` for none. */
const dayNumber = (day: string | null, open: number) =>
  day === null ? open : Number.parseInt(day.slice(0, 4) + day.slice(5, 7) + day.slice(8, 10), 10);

const DOMAIN_BIT = new Map<string, number>(DOMAINS.map((domain, i) => [domain, 1 << i]));
const domainMask = (domains: readonly string[]) =>
  domains.reduce((mask, domain) => mask | (DOMAIN_BIT.get(domain) ?? 0), 0);

/**
 * The in-memory index's filters and preferences (postgres-ranking-sql.ts's FILTERS and the
 * in-force and reach weights): what they read, per provision, as numbers, since a search over a
 * common word reads them for tens of thousands of provisions. Days as yyyymmdd (0 and 99999999
 * when open); domains as bits; the document as an index into `documentIds`.
 */
export class ProvisionFilters {
  private readonly domainMasks: Int32Array;
  private readonly fromDay: Int32Array;
  private readonly toDay: Int32Array;
  private readonly flags: Uint8Array;
  private readonly documentOf: Int32Array;
  private readonly documentIds = new Map<string, number>();

  constructor(provisions: readonly Omit<IndexedProvision, "vector">[]) {
    this.domainMasks = Int32Array.from(provisions, (p) => domainMask(p.domains));
    this.fromDay = Int32Array.from(provisions, (p) => dayNumber(p.inForceFrom, 0));
    // A provision the source says is repealed, with no end date, is in force on no day.
    this.toDay = Int32Array.from(provisions, (p) =>
      dayNumber(p.inForceTo, p.status === "repealed" ? 0 : 99_999_999),
    );
    this.flags = Uint8Array.from(
      provisions,
      (p) =>
        (p.documentKind === AGREEMENT_KIND ? FLAG.agreement : 0) |
        (p.domains.length === 0 ? FLAG.unclassified : 0),
    );
    this.documentOf = Int32Array.from(provisions, (p) => {
      let index = this.documentIds.get(p.documentPublicId);
      if (index === undefined) {
        index = this.documentIds.size;
        this.documentIds.set(p.documentPublicId, index);
      }
      return index;
    });
  }

  /**
   * For one query: what a provision's words are multiplied by (in force or not, the reach of its
   * text), or 0 if a filter drops it.
   */
  preferenceFor(query: FilterQuery, ranking: Ranking): (doc: number) => number {
    const domains = query.domains ? domainMask(query.domains) : null;
    const unclassified = new Set<number>();
    for (const id of query.unclassifiedDocuments) {
      const index = this.documentIds.get(id);
      if (index !== undefined) unclassified.add(index);
    }
    // A document not loaded: no provision passes.
    const document = query.document === null ? null : (this.documentIds.get(query.document) ?? -1);
    const asOf = dayNumber(query.asOf, 0);
    const agreementWeight = reachWeight(ranking, AGREEMENT_KIND, query.document !== null);
    return (doc) => {
      const flags = this.flags[doc]!;
      if (
        domains !== null &&
        (this.domainMasks[doc]! & domains) === 0 &&
        !((flags & FLAG.unclassified) !== 0 && unclassified.has(this.documentOf[doc]!))
      )
        return 0;
      if (document !== null && this.documentOf[doc] !== document) return 0;
      const inForce = this.fromDay[doc]! <= asOf && this.toDay[doc]! > asOf;
      if (query.inForce && !inForce) return 0;
      return (inForce ? 1 : OUT_OF_FORCE_WEIGHT) * ((flags & FLAG.agreement) !== 0 ? agreementWeight : 1);
    };
  }
}

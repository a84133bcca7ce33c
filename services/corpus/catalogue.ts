import { mayUse } from "../access/domains.ts";
import type { Principal } from "../access/keys.ts";
import { DOMAINS, type Domain } from "../core/domains.ts";
import type { Database } from "../store/database.ts";
import { type CorpusStats, corpusStats } from "../store/stats.ts";

/** What is loaded: the coverage (documents, domains, guides, last ingest) and the domain list. */

export const readCoverage = (db: Database): Promise<CorpusStats> => corpusStats(db);

export interface DomainCount {
  domain: Domain;
  /** Whether the calling key may use it as a filter. */
  allowed: boolean;
  provisions: number;
}

/** Every field of law with its provision count, and whether the key may filter on it. */
export async function readDomains(
  db: Database,
  who: Principal,
): Promise<{ domains: DomainCount[]; unclassified: number }> {
  const stats = await corpusStats(db);
  return {
    domains: DOMAINS.map((domain) => ({
      domain,
      allowed: mayUse(who, domain),
      provisions: stats.perDomain[domain] ?? 0,
    })),
    unclassified: stats.provisionsUnclassified,
  };
}

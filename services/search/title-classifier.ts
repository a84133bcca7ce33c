import { classify, type DomainRules, loadDomainRules } from "../core/classify.ts";
import type { Domain } from "../core/domains.ts";
import { documentsWithUnclassified } from "../store/corpus-queries.ts";
import type { Database } from "../store/database.ts";
import type { SearchHit } from "./engine.ts";

/**
 * best_effort filtering (spec: "results were classified by document title after retrieval;
 * fewer results than exist may come back, but never results from outside the filter").
 *
 * It applies when a domain filter is asked and some loaded documents are unclassified (no rule
 * matched them at ingest) while the current rules classify their title into a requested domain.
 * Their provisions are retrieved as candidates beside the exactly filtered ones; after retrieval
 * each candidate is classified by its document's title and dropped unless that lands in the filter.
 * Otherwise (the usual case) filtering is exact.
 */
export class TitleClassifier {
  private cache: { until: number; documents: Array<{ publicId: string; title: string }> } | undefined;

  constructor(
    private readonly db: Database,
    private readonly rules: () => DomainRules,
  ) {}

  /** Domains the current rules give a document from its title alone. */
  domainsOfTitle(publicId: string, title: string): Domain[] {
    return classify(
      { publicId, source: { documentId: publicId }, title, sections: [], provisions: [] },
      this.rules(),
    ).document;
  }

  /** Unclassified documents whose title classifies into one of `domains`. */
  async candidates(domains: Domain[]): Promise<string[]> {
    if (!this.cache || this.cache.until < Date.now()) {
      this.cache = { until: Date.now() + 60_000, documents: await documentsWithUnclassified(this.db) };
    }
    return this.cache.documents
      .filter((doc) => this.domainsOfTitle(doc.publicId, doc.title).some((d) => domains.includes(d)))
      .map((doc) => doc.publicId);
  }

  /** After retrieval: a hit from an unclassified provision stays only if its document's title classifies into the filter. */
  keep(hit: SearchHit, domains: Domain[]): SearchHit | undefined {
    if (hit.domains.length > 0) return hit;
    const byTitle = this.domainsOfTitle(hit.document.publicId, hit.document.title).filter((d) =>
      domains.includes(d),
    );
    return byTitle.length > 0 ? { ...hit, domains: byTitle, classifiedBy: "document_title" } : undefined;
  }
}

/** The rules file, re-read at most once a minute, so an editor's change reaches best_effort without a restart. */
export function rulesLoader(file: string): () => DomainRules {
  let cached: { until: number; rules: DomainRules } | undefined;
  return () => {
    if (!cached || cached.until < Date.now())
      cached = { until: Date.now() + 60_000, rules: loadDomainRules(file) };
    return cached.rules;
  };
}

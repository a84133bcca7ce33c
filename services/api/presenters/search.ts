import type { z } from "zod";
import type { DomainFilter } from "../../access/domains.ts";
import type { SearchOutcome } from "../../search/service.ts";
import type { Meta } from "../envelope.ts";
import { MAX_SEARCH_OFFSET, type searchResponseSchema } from "../schemas.ts";

/** The response's `filter` block, present only when a domain filter applied. */
export function filterBlock(filter: DomainFilter, mode: "exact" | "best_effort") {
  return filter.domains
    ? { filter: { mode, domains: filter.domains, restricted_by_key: filter.restrictedByKey } }
    : {};
}

export const provisionUrl = (publicId: string) => `/api/v1/provisions/${publicId}`;

export function presentSearch(
  outcome: SearchOutcome,
  page: { limit: number; offset: number },
  meta: Meta,
): z.infer<typeof searchResponseSchema> {
  const nextOffset = page.offset + outcome.hits.length;
  return {
    data: outcome.hits.map((hit) => ({
      id: hit.publicId,
      number: hit.number,
      document: { id: hit.document.publicId, title: hit.document.title },
      section_path: hit.sectionPath,
      snippet: hit.snippet,
      status: hit.status,
      effective_from: hit.effectiveFrom,
      effective_to: hit.effectiveTo,
      domains: hit.domains,
      score: hit.score,
      ...(hit.classifiedBy ? { classified_by: hit.classifiedBy } : {}),
      url: provisionUrl(hit.publicId),
    })),
    pagination: {
      limit: page.limit,
      offset: page.offset,
      total: outcome.total,
      // Null at the end, and where the next page would be one the API refuses (offset over its limit).
      next_offset:
        nextOffset < outcome.total && outcome.hits.length > 0 && nextOffset <= MAX_SEARCH_OFFSET
          ? nextOffset
          : null,
    },
    ...filterBlock(outcome.filter, outcome.filterMode),
    meta,
  };
}

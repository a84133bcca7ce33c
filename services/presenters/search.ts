import { z } from "zod";
import { domainSchema } from "../core/domains.ts";
import { MAX_SEARCH_OFFSET } from "../corpus/search.ts";
import type { SearchOutcome } from "../search/service.ts";
import {
  documentRefSchema,
  filterBlock,
  filterSchema,
  type Meta,
  metaSchema,
  paginationSchema,
  provisionUrl,
} from "./envelope.ts";

const searchHitSchema = z
  .object({
    id: z.string().meta({ example: "code-du-travail/L1237-1-1" }),
    number: z.string(),
    document: documentRefSchema,
    section_path: z.array(z.string()),
    snippet: z
      .string()
      .meta({ description: "Plain text around the matches; matched terms are wrapped in <mark>…</mark>." }),
    status: z.enum(["in_force", "repealed", "not_yet_in_force"]),
    effective_from: z.string().nullable(),
    effective_to: z.string().nullable(),
    domains: z.array(domainSchema),
    score: z.number(),
    classified_by: z.literal("document_title").optional().meta({
      description:
        "Present when filter.mode is best_effort and this provision's domains come from its document's title.",
    }),
    url: z.string().meta({ description: "This provision in the API." }),
  })
  .meta({ id: "SearchHit" });

/** The collective agreement a query or question named, within which it was searched. */
export const namedDocumentSchema = z.object({
  id: z.string().meta({ example: "idcc-1486" }),
  named_as: z.string().meta({ description: "The words that named it.", example: "syntec" }),
});

export const searchResponseSchema = z
  .object({
    data: z.array(searchHitSchema),
    pagination: paginationSchema,
    filter: filterSchema.optional().meta({ description: "Present when a domain filter applied." }),
    named_document: namedDocumentSchema.optional().meta({
      description:
        "Present when q named one collective agreement (« IDCC 1486 », « convention collective Syntec », « Syntec ») and no document was given: the search ran within that agreement, on the rest of q.",
    }),
    meta: metaSchema,
  })
  .meta({ id: "SearchResponse" });

export function presentSearch(
  outcome: SearchOutcome & { namedDocument?: { id: string; namedAs: string } },
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
    ...(outcome.namedDocument
      ? { named_document: { id: outcome.namedDocument.id, named_as: outcome.namedDocument.namedAs } }
      : {}),
    meta,
  };
}

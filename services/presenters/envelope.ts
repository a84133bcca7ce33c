import { z } from "zod";
import type { DomainFilter } from "../access/domains.ts";
import { domainSchema } from "../core/domains.ts";
import { MAX_SEARCH_OFFSET } from "../corpus/search.ts";

/**
 * The parts every response shares: `meta` (the coverage caveat, spec section 1), the `filter`
 * block of a domain-filtered listing, pagination, and links. The API's routes and the MCP tools
 * present the same bodies, so they share these.
 */

export interface Meta {
  coverage_note: string;
  coverage_url: string;
  request_id: string;
}

export const metaSchema = z
  .object({
    coverage_note: z.string().meta({ description: "Coverage caveat: read it on every response." }),
    coverage_url: z.url().meta({
      description:
        "The public coverage page ({base_url}/coverage, no key needed): what is loaded, to check before saying something does not exist. The same as JSON: GET /api/v1/coverage.",
    }),
    request_id: z.string(),
  })
  .meta({ id: "Meta" });

export const filterSchema = z
  .object({
    mode: z.enum(["exact", "best_effort"]).meta({
      description:
        "exact: nothing outside the domains was retrieved. best_effort: classified after retrieval; never results outside the filter.",
    }),
    domains: z.array(domainSchema),
    restricted_by_key: z
      .boolean()
      .meta({ description: "True when the key's own domain restriction supplied the filter." }),
  })
  .meta({ id: "Filter" });

/** The response's `filter` block, present only when a domain filter applied. */
export function filterBlock(filter: DomainFilter, mode: "exact" | "best_effort") {
  return filter.domains
    ? { filter: { mode, domains: filter.domains, restricted_by_key: filter.restrictedByKey } }
    : {};
}

export const documentRefSchema = z.object({ id: z.string(), title: z.string() }).meta({ id: "DocumentRef" });

export const paginationSchema = z
  .object({
    limit: z.number(),
    offset: z.number(),
    total: z.number(),
    next_offset: z
      .number()
      .nullable()
      .meta({
        description: `The next page's offset; null at the end, and where the endpoint would refuse it (search: offset over ${MAX_SEARCH_OFFSET}).`,
      }),
  })
  .meta({ id: "Pagination" });

export const provisionUrl = (publicId: string) => `/api/v1/provisions/${publicId}`;

import { z } from "zod";
import { type Domain, domainSchema } from "../../core/domains.ts";
import { MAX_SEARCH_LIMIT, MAX_SEARCH_OFFSET, searchCorpus } from "../../corpus/search.ts";
import { presentSearch, searchResponseSchema } from "../../presenters/search.ts";
import { defineTool } from "../tool.ts";

export const searchProvisionsTool = defineTool({
  name: "search_provisions",
  title: "Search French law",
  description:
    "Full-text search over the loaded provisions (articles of codes and acts), in French. Returns public ids, numbers, snippets and effective dates. With partial_match: true, no provision holds every word of the query and the results hold some of them: say so, or search other words. An empty result means the act is not loaded yet, never that no such law exists: check the coverage before saying so.",
  scope: "search:read",
  input: z.object({
    query: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .describe(
        "Words to find, in French (e.g. 'rupture conventionnelle'), or an article number (e.g. 'L1237-19').",
      ),
    domains: z
      .array(domainSchema)
      .min(1)
      .optional()
      .describe(
        "Only these fields of law (any of them); see list_domains. A key limited to some domains may only ask for those.",
      ),
    document: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe("Only this document, by public id (e.g. 'code-du-travail')."),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_SEARCH_LIMIT)
      .default(10)
      .describe(`Results wanted, 1–${MAX_SEARCH_LIMIT}.`),
    offset: z
      .number()
      .int()
      .min(0)
      .max(MAX_SEARCH_OFFSET)
      .default(0)
      .describe("Results to skip, for the next page."),
    in_force: z
      .boolean()
      .default(true)
      .describe(
        "Only provisions in force on as_of (default today), in whichever version: a hit whose text is of another version says version_not_loaded.",
      ),
    as_of: z.iso.date().optional().describe("The day in_force refers to, YYYY-MM-DD (default today)."),
  }),
  output: searchResponseSchema,
  run: async ({ ctx, who, meta }, input) => {
    const outcome = await searchCorpus(ctx, who, {
      q: input.query,
      limit: input.limit,
      offset: input.offset,
      domains: input.domains as Domain[] | undefined,
      document: input.document,
      inForce: input.in_force,
      asOf: input.as_of,
    });
    return presentSearch(outcome, input, meta);
  },
});

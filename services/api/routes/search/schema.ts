import { z } from "zod";
import { MAX_SEARCH_LIMIT, MAX_SEARCH_OFFSET } from "../../../corpus/search.ts";
import { booleanParam, documentParam, domainsParam, isoDateParam, wholeNumberParam } from "../../params.ts";

export const searchQuerySchema = z
  .object({
    q: z
      .string()
      .trim()
      .min(1, "is required")
      .max(500)
      .meta({ description: "Free text, or an article number.", example: "rupture conventionnelle" }),
    limit: wholeNumberParam(1, MAX_SEARCH_LIMIT)
      .default(10)
      .meta({ description: `Results per page, 1–${MAX_SEARCH_LIMIT}.` }),
    offset: wholeNumberParam(0, MAX_SEARCH_OFFSET).default(0).meta({
      description:
        "Results to skip (pagination). Pages are slices of one ranking: walking them with `pagination.next_offset` shows each provision once.",
    }),
    domains: domainsParam,
    document: documentParam,
    in_force: booleanParam(
      true,
      "Only provisions in force on as_of, in whichever version (a hit whose text is of another version says version_not_loaded). false: every provision, those in force on as_of ranked first among equals.",
    ),
    as_of: isoDateParam.optional().meta({ description: "The day in_force refers to (default: today)." }),
  })
  .strict();

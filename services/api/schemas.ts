import { z } from "zod";
import { DOMAINS, domainSchema, isDomain } from "../core/domains.ts";
import { AppError } from "../core/errors.ts";

/**
 * Schemas shared by validation and the OpenAPI document (openapi.ts builds the document from
 * these very objects, so the two cannot drift).
 */

export const MAX_SEARCH_LIMIT = 50;
export const MAX_SEARCH_OFFSET = 1000;

/**
 * A whole number in a query string, from `min` to `max`: one message for every way to get it
 * wrong (`abc`, `1.5`, `0`, `99`), saying what it must be.
 */
export const wholeNumberParam = (min: number, max?: number) => {
  const error = `must be a whole number${max === undefined ? `, ${min} or more` : ` from ${min} to ${max}`}`;
  const number = z.coerce.number({ error }).int({ error }).min(min, { error });
  return max === undefined ? number : number.max(max, { error });
};

/** A list in a query string, comma-separated (`a,b`) or repeated (`x=a&x=b`); optional. */
export const listParam = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (value) =>
      value === undefined
        ? undefined
        : (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(",")),
    z.array(item).min(1).optional(),
  );

/** `domains=labour,tax` or `domains=labour&domains=tax`: any of them (OR). */
export const domainsParam = listParam(
  z
    .string()
    .trim()
    .refine(isDomain, {
      error: (issue) => `unknown domain "${issue.input}"; expected one of ${DOMAINS.join(", ")}`,
    }),
).meta({
  description: `Fields of law, comma-separated or repeated; a provision matches if it has any of them. Values: ${DOMAINS.join(", ")}.`,
  example: ["labour", "tax"],
});

/** `true` or `false` in a query string; a boolean in the OpenAPI document, as clients expect. */
export const booleanParam = (byDefault: boolean, description: string) =>
  z
    .stringbool({ truthy: ["true"], falsy: ["false"] })
    .default(byDefault)
    .meta({
      description,
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        jsonSchema.type = "boolean";
        jsonSchema.default = byDefault;
      },
    });

export const documentParam = z.string().min(1).max(200).optional().meta({
  description:
    "Only this document: its public id (code-du-travail) or source id (LEGITEXT…). A document not loaded is a 400.",
});

/** A `document` filter naming no loaded document: a mistake to report, on /search and /changes alike. */
export const unknownDocument = (id: string) =>
  new AppError("invalid_request", `document: no document ${id} is loaded`, "document");

export const isoDateParam = z.iso.date().meta({ description: "A date, YYYY-MM-DD.", example: "2024-01-01" });

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

export const errorSchema = z
  .object({
    error: z.object({
      code: z.enum([
        "invalid_request",
        "unauthorized",
        "forbidden",
        "not_found",
        "rate_limited",
        "internal_error",
      ]),
      message: z.string().meta({ description: "For people; may change. A 400 names the offending field." }),
      request_id: z.string(),
    }),
  })
  .meta({ id: "Error" });

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

export const documentRefSchema = z.object({ id: z.string(), title: z.string() }).meta({ id: "DocumentRef" });

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
    offset: wholeNumberParam(0, MAX_SEARCH_OFFSET)
      .default(0)
      .meta({ description: "Results to skip (pagination)." }),
    domains: domainsParam,
    document: documentParam,
    in_force: booleanParam(
      true,
      "Only provisions in force on as_of. false: every provision, those in force on as_of ranked first among equals.",
    ),
    as_of: isoDateParam.optional().meta({ description: "The day in_force refers to (default: today)." }),
  })
  .strict();

export const searchHitSchema = z
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

export const searchResponseSchema = z
  .object({
    data: z.array(searchHitSchema),
    pagination: paginationSchema,
    filter: filterSchema.optional().meta({ description: "Present when a domain filter applied." }),
    meta: metaSchema,
  })
  .meta({ id: "SearchResponse" });

import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject } from "zod-openapi";
import { ingestRunRequestSchema } from "../../ingest/runs/request.ts";
import { ingestRunResponseSchema, ingestRunsResponseSchema } from "./routes/admin.ts";
import { coverageResponseSchema } from "./routes/coverage.ts";
import { documentQuerySchema, documentResponseSchema } from "./routes/documents.ts";
import { domainsResponseSchema } from "./routes/domains.ts";
import { provisionResponseSchema } from "./routes/provisions.ts";
import { errorSchema, searchQuerySchema, searchResponseSchema } from "./schemas.ts";

/**
 * The OpenAPI 3.1 document, built from the zod schemas the routes validate with and answer in.
 * Served at /api/v1/openapi.json; `npm run openapi:lint` checks it in CI.
 */
const rateLimitHeaders = {
  "x-ratelimit-limit": {
    description: "Requests allowed per minute for the project (per client address without a valid key).",
    schema: { type: "integer" as const },
  },
  "x-ratelimit-remaining": {
    description: "Requests left in the current minute window.",
    schema: { type: "integer" as const },
  },
  "x-request-id": {
    description: "Also in error bodies and in the logs.",
    schema: { type: "string" as const },
  },
  "x-coverage-url": {
    description: "Where to check what is loaded; on every response, errors included.",
    schema: { type: "string" as const },
  },
};

const errorResponse = (description: string, extraHeaders: object = {}) => ({
  description,
  headers: { ...rateLimitHeaders, ...extraHeaders },
  content: { "application/json": { schema: errorSchema } },
});

const standardErrors = {
  "400": errorResponse("Bad parameters; the message names the field."),
  "401": errorResponse("Missing, invalid or revoked API key."),
  "403": errorResponse(
    "The key lacks the scope, is limited to other domains, or the plan excludes the endpoint.",
  ),
  "429": errorResponse("Too many requests.", {
    "retry-after": { description: "Seconds to wait.", schema: { type: "integer" as const } },
  }),
  "500": errorResponse("Server fault: retry once, then report the request id."),
};

function operation(
  operationId: string,
  summary: string,
  scope: string,
  response: z.ZodType,
  extra: Partial<ZodOpenApiOperationObject> = {},
  errors: Record<string, unknown> = {},
  successStatus = "200",
): ZodOpenApiOperationObject {
  return {
    operationId,
    summary,
    description: `Scope: \`${scope}\`.`,
    ...extra,
    responses: {
      [successStatus]: {
        description: successStatus === "202" ? "Accepted: queued" : "OK",
        headers: rateLimitHeaders,
        content: { "application/json": { schema: response } },
      },
      ...standardErrors,
      ...errors,
    },
  } as ZodOpenApiOperationObject;
}

const notFound = {
  "404": errorResponse("No published provision or document with that id (it may not be loaded yet)."),
};

export function buildOpenApiDocument(serverUrl = "/") {
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Legal corpus API",
      version: "1.0.0",
      description:
        "Published law of one country (France first), searchable by field of law. The corpus is incomplete: an empty result means not loaded yet, never no such law; every response carries meta.coverage_note and an x-coverage-url header. Keys are for servers only.",
    },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "lc_live_<8 characters>_<secret>" },
      },
    },
    paths: {
      "/api/v1/search": {
        get: operation(
          "searchProvisions",
          "Search published provisions",
          "search:read",
          searchResponseSchema,
          {
            requestParams: { query: searchQuerySchema },
          },
        ),
      },
      "/api/v1/domains": {
        get: operation(
          "listDomains",
          "Fields of law usable as filters, and which the key may use",
          "corpus:read",
          domainsResponseSchema,
        ),
      },
      "/api/v1/provisions/{id}": {
        get: operation(
          "getProvision",
          "One provision: text, effective dates, document, section path, status, source ids",
          "corpus:read",
          provisionResponseSchema,
          {
            requestParams: {
              path: z.object({
                id: z.string().meta({
                  description:
                    "A public id (`code-du-travail/L1237-1-1`, the slash may stay as it is or be written %2F) or a source id (`LEGIARTI…`).",
                }),
              }),
            },
          },
          notFound,
        ),
      },
      "/api/v1/documents/{id}": {
        get: operation(
          "getDocument",
          "One normative document: its table of contents and a page of its provisions",
          "corpus:read",
          documentResponseSchema,
          {
            requestParams: {
              path: z.object({
                id: z
                  .string()
                  .meta({ description: "Public id (`code-du-travail`) or source id (`LEGITEXT…`)." }),
              }),
              query: documentQuerySchema,
            },
          },
          notFound,
        ),
      },
      "/api/v1/admin/ingest-runs": {
        post: operation(
          "submitIngestRun",
          "Submit an ingest run (corpus editors): LEGI codes by version, or a canonical file's content",
          "ingest:write",
          ingestRunResponseSchema,
          {
            requestBody: { content: { "application/json": { schema: ingestRunRequestSchema } } },
            description:
              "Scope: `ingest:write`. Answers 202 with the queued run; follow it at its url. The body may be up to 10 MB.",
          },
          {},
          "202",
        ),
        get: operation(
          "listIngestRuns",
          "The latest ingest runs with status and progress",
          "ingest:write",
          ingestRunsResponseSchema,
        ),
      },
      "/api/v1/admin/ingest-runs/{id}": {
        get: operation(
          "getIngestRun",
          "One ingest run: status, progress, summary, error",
          "ingest:write",
          ingestRunResponseSchema,
          { requestParams: { path: z.object({ id: z.string().meta({ description: "The run id." }) }) } },
          { "404": errorResponse("No such run.") },
        ),
      },
      "/api/v1/coverage": {
        get: operation(
          "getCoverage",
          "What is loaded, per document and per domain",
          "corpus:read",
          coverageResponseSchema,
        ),
      },
    },
  });
}

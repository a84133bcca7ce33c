import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject } from "zod-openapi";
import { ANSWER_COST } from "../answer/service.ts";
import { ingestRunRequestSchema } from "../jobs/ingest-run-request.ts";
import { answerResponseSchema } from "../presenters/answer.ts";
import { coverageResponseSchema, domainsResponseSchema } from "../presenters/catalogue.ts";
import { changesFeedResponseSchema, changesResponseSchema } from "../presenters/changes.ts";
import { documentResponseSchema } from "../presenters/document.ts";
import { aliveSchema, readinessSchema, unresponsiveSchema } from "../presenters/health.ts";
import { ingestRunResponseSchema, ingestRunsResponseSchema } from "../presenters/ingest-run.ts";
import { provisionResponseSchema } from "../presenters/provision.ts";
import { diffResponseSchema, versionsResponseSchema } from "../presenters/provision-history.ts";
import { searchResponseSchema } from "../presenters/search.ts";
import { errorSchema } from "./envelope.ts";
import { answerRequestSchema } from "./routes/answer/schema.ts";
import { changesFeedQuerySchema, changesQuerySchema } from "./routes/changes/schema.ts";
import { documentQuerySchema } from "./routes/documents/schema.ts";
import { jsonRpcMessageSchema } from "./routes/mcp/schema.ts";
import { diffQuerySchema, provisionQuerySchema } from "./routes/provisions/schema.ts";
import { searchQuerySchema } from "./routes/search/schema.ts";

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
    description:
      "The public coverage page, where to check what is loaded; on every response, errors included.",
    schema: { type: "string" as const },
  },
  link: {
    description: 'The coverage page again, as `<…/coverage>; rel="coverage"`.',
    schema: { type: "string" as const },
  },
};

/** On responses to a valid key: the month's window of the project's plan. */
const monthlyHeaders = {
  "x-ratelimit-monthly-limit": {
    description: "Requests allowed per calendar month on the project's plan.",
    schema: { type: "integer" as const },
  },
  "x-ratelimit-monthly-remaining": {
    description: "Requests left this month.",
    schema: { type: "integer" as const },
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
  "405": errorResponse("This path does not take this method (OPTIONS included: no CORS).", {
    allow: { description: "The methods the path takes.", schema: { type: "string" as const } },
  }),
  "500": errorResponse("Server fault: retry once, then report the request id."),
};

/**
 * Tags group operations by resource in the reference page; the admin one is for corpus editors
 * (scope `ingest:write`), not integrators.
 */
const TAGS = [
  { name: "Search", description: "Full-text search of provisions, filtered by field of law." },
  { name: "Provisions", description: "One provision, its versions and the differences between them." },
  { name: "Documents", description: "Codes and acts: table of contents and provisions." },
  { name: "Changes", description: "What was added, amended or repealed, and a feed to keep a copy in sync." },
  { name: "Answers", description: "Answers bound to cited provisions." },
  { name: "Corpus", description: "Fields of law and what is loaded (coverage)." },
  { name: "MCP", description: "The Model Context Protocol endpoint for AI agents." },
  { name: "Health", description: "Liveness and readiness, without a key or a rate limit." },
  {
    name: "Admin",
    description:
      "For corpus editors only (scope `ingest:write`): ingest runs. Not part of the integrators' API.",
  },
];

const TAG_OF: Record<string, string> = {
  searchProvisions: "Search",
  listDomains: "Corpus",
  getProvision: "Provisions",
  listProvisionVersions: "Provisions",
  diffProvisionVersions: "Provisions",
  listChanges: "Changes",
  changesFeed: "Changes",
  getDocument: "Documents",
  submitIngestRun: "Admin",
  listIngestRuns: "Admin",
  getIngestRun: "Admin",
  answerQuestion: "Answers",
  mcp: "MCP",
  getCoverage: "Corpus",
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
    tags: [TAG_OF[operationId] ?? "Corpus"],
    description: `Scope: \`${scope}\`.`,
    ...extra,
    responses: {
      [successStatus]: {
        description: successStatus === "202" ? "Accepted: queued" : "OK",
        headers: { ...rateLimitHeaders, ...monthlyHeaders },
        content: { "application/json": { schema: response } },
      },
      ...standardErrors,
      ...errors,
    },
  } as ZodOpenApiOperationObject;
}

const provisionIdParam = z.object({
  id: z.string().meta({
    description:
      "A public id (`code-du-travail/L1237-1-1`, the slash may stay as it is or be written %2F) or a source id (`LEGIARTI…`).",
  }),
});

const notFound = {
  "404": errorResponse("No published provision or document with that id (it may not be loaded yet)."),
};

const mcpOperation = operation(
  "mcp",
  "MCP endpoint for AI agents (Streamable HTTP, stateless); also at /mcp",
  "corpus:read",
  jsonRpcMessageSchema,
  {
    requestBody: { content: { "application/json": { schema: jsonRpcMessageSchema } } },
    description: `Scope: \`corpus:read\` to connect; each tool checks its own scope (search_provisions: \`search:read\`, list_changes: \`changes:read\`). The Model Context Protocol over Streamable HTTP, stateless: POST one JSON-RPC message (or a batch) with \`Accept: application/json, text/event-stream\`; the answer is JSON. Failures before the MCP layer (401, 403, 429, 405 for GET and DELETE) are JSON-RPC error objects with the same HTTP statuses and rate-limit headers. A batch holds at most 20 messages and costs one request per message (answer_question: ${ANSWER_COST}). Clients configure \`{base_url}/mcp\`; see the README.`,
  },
  {
    "406": {
      description:
        "The Accept header does not list both application/json and text/event-stream (a JSON-RPC error object).",
      content: { "application/json": { schema: jsonRpcMessageSchema } },
    },
  },
);

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
    tags: TAGS,
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
              path: provisionIdParam,
              query: provisionQuerySchema,
            },
          },
          notFound,
        ),
      },
      "/api/v1/provisions/{id}/versions": {
        get: operation(
          "listProvisionVersions",
          "A provision's versions, oldest first, with their dates and the texts we hold",
          "corpus:read",
          versionsResponseSchema,
          { requestParams: { path: provisionIdParam } },
          notFound,
        ),
      },
      "/api/v1/provisions/{id}/diff": {
        get: operation(
          "diffProvisionVersions",
          "Word-level diff between two versions of a provision whose texts we hold",
          "corpus:read",
          diffResponseSchema,
          {
            requestParams: { path: provisionIdParam, query: diffQuerySchema },
            description:
              "Scope: `corpus:read`. Without parameters: the current version against the one before it. A version whose text we do not hold is a 400 naming `from` or `to`, with the versions we hold.",
          },
          notFound,
        ),
      },
      "/api/v1/changes": {
        get: operation(
          "listChanges",
          "Provisions added, amended or repealed since a date, by the date the change took effect",
          "changes:read",
          changesResponseSchema,
          {
            requestParams: { query: changesQuerySchema },
            description:
              "Scope: `changes:read`. Sorted by listed_on, then recording order. Page with page.next_cursor; a listing covers the entries recorded when its first page was read (page.as_of_entry), so pages never repeat or skip entries. To keep a copy in sync, use /api/v1/changes/feed.",
          },
        ),
      },
      "/api/v1/changes/feed": {
        get: operation(
          "changesFeed",
          "Every change in the order it was recorded, for clients that keep a copy in sync",
          "changes:read",
          changesFeedResponseSchema,
          {
            requestParams: { query: changesFeedQuerySchema },
            description:
              "Scope: `changes:read`. Start from recorded_since (or the beginning), then always call again with page.next_cursor: it resumes exactly after the last entry returned, whatever is recorded meanwhile.",
          },
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
      "/api/v1/answer": {
        post: operation(
          "answerQuestion",
          "An answer bound to evidence: sentences from the provisions they cite, or an explicit insufficient-evidence statement",
          "answer:write",
          answerResponseSchema,
          {
            requestBody: { content: { "application/json": { schema: answerRequestSchema } } },
            description: `Scope: \`answer:write\`, on a plan that includes answers (the beta plan does not: 403). An answer given counts as ${ANSWER_COST} requests against the rate limit; a refused or failed one as 1. See the README for how answers are composed and checked.`,
          },
        ),
      },
      "/mcp": {
        post: {
          ...mcpOperation,
          operationId: "mcpAtRoot",
          summary: "The MCP endpoint at {base_url}/mcp, where agents are configured",
        },
      },
      "/api/v1/mcp": { post: mcpOperation },
      "/healthz": {
        get: {
          operationId: "liveness",
          summary: "Liveness: the API process answers",
          tags: ["Health"],
          security: [],
          description:
            "No key, no rate limit; touches neither the store nor the search engine, and never waits behind searches: on a new connection the front process answers, from the API process's reports (every second, from its event loop). 503 once the API process has not reported for `HEALTH_STALL_SECONDS` (10 by default). The front closes the connection after answering.",
          responses: {
            "200": {
              description: "Alive",
              content: { "application/json": { schema: aliveSchema } },
            },
            "503": {
              description: "The API process has stopped answering",
              content: { "application/json": { schema: unresponsiveSchema } },
            },
            "405": standardErrors["405"],
          },
        },
      },
      "/readyz": {
        get: {
          operationId: "readiness",
          summary: "Readiness: the store, the search engine and the rate-limit backend",
          tags: ["Health"],
          security: [],
          description:
            "No key, no rate limit, and no wait: on a new connection the front process answers with the API process's last readiness, checked every second (each check waits at most half a second for the store). 503 when the store cannot answer, or when the API process has not reported for three seconds (`checks.api`); a busy or saturated store, a search engine or Redis outage is `degraded` (the API keeps serving what it can).",
          responses: {
            "200": {
              description: "Ready, or degraded",
              content: { "application/json": { schema: readinessSchema } },
            },
            "503": {
              description: "The store cannot answer, or the API process does not report",
              content: { "application/json": { schema: readinessSchema } },
            },
            "405": standardErrors["405"],
          },
        },
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

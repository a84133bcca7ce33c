import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { controlCharacterAt, controlMessage } from "../api/middleware/validate.ts";
import { coverageBody } from "../api/routes/coverage.ts";
import { documentBody } from "../api/routes/documents.ts";
import { provisionBody } from "../api/routes/provisions.ts";
import { AppError } from "../core/errors.ts";
import { listDocumentTitles } from "../store/corpus-queries.ts";
import type { ToolDefinition, ToolEnv } from "./tool.ts";
import { TOOLS } from "./tools/index.ts";

/**
 * The MCP server for one request (stateless: a fresh server and transport each time, see
 * services/api/routes/mcp.ts), bound to the calling key. Tools, resources and instructions all
 * read the corpus through the same functions as the HTTP API.
 */

export const INSTRUCTIONS = `Published French law (codes and acts), from official LEGI data.

Coverage: the corpus is incomplete and still being filled. An empty search, a provision not found or a citation that does not resolve means the act is not loaded yet; it never means that no such law exists. Read the coverage resource (corpus://coverage) before telling anyone that something does not exist, and pass on meta.coverage_note.

Citing: every provision has a public id ('code-du-travail/L1237-1-1'), a status and effective dates. Quote the text you rely on, cite its public id and say from when it applies; use get_provision with as_of for a past date.

Tools: search_provisions (full text, French), resolve_citation (a reference as written → the provision), get_provision, get_document (table of contents, pages of provisions), list_domains (fields of law for filtering), list_changes (what changed since a date), and, when the key's plan includes it, answer_question (an answer made only of cited provisions' sentences). Each tool needs a scope on the API key; a refusal says which.`;

/** Plain next steps for an agent, per error code. */
const NEXT_STEP: Record<AppError["code"], string> = {
  invalid_request: "Fix the argument named above and call again.",
  unauthorized: "The API key is missing or revoked: the user must configure a valid key.",
  forbidden:
    "This API key may not do this: ask the user for a key with the scope or fields of law named above (keys are created with `corpus keys create --scopes … --domains …`).",
  not_found:
    "Nothing loaded matches. That is not evidence that it does not exist: the corpus is incomplete (see corpus://coverage).",
  rate_limited: "Too many requests for this key: wait and retry later.",
  internal_error: "A fault on our side: retry once; if it persists, report the request id.",
};

function failure(code: AppError["code"], message: string, requestId: string): CallToolResult {
  return {
    isError: true,
    content: [{ type: "text", text: `${code}: ${message}\n${NEXT_STEP[code]}\n(request id ${requestId})` }],
  };
}

function registerTool(server: McpServer, env: ToolEnv, tool: ToolDefinition) {
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: `${tool.description} Scope: ${tool.scope}.`,
      inputSchema: tool.input,
      // A fresh object without the API schema's component id: MCP clients want an inline
      // `type: object` at the root, not a $ref to a definition.
      outputSchema: z.object(tool.output.shape),
      annotations: { title: tool.title, readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    (async (input: unknown): Promise<CallToolResult> => {
      if (!env.who.scopes.includes(tool.scope)) {
        return failure(
          "forbidden",
          `${tool.name} needs the ${tool.scope} scope, which this key lacks.`,
          env.meta.request_id,
        );
      }
      // The same rule as the HTTP API's (validate.ts): control characters refused, naming the argument.
      const control = controlCharacterAt(input);
      if (control) {
        return failure(
          "invalid_request",
          `${control.path.join(".") || "arguments"}: ${controlMessage(control.character)}`,
          env.meta.request_id,
        );
      }
      try {
        const result = await env.gate.run(() => tool.run(env, input as never));
        return {
          structuredContent: result as Record<string, unknown>,
          content: [{ type: "text", text: JSON.stringify(result) }],
        };
      } catch (error) {
        if (error instanceof AppError) return failure(error.code, error.message, env.meta.request_id);
        env.ctx.logger.error(
          { err: error, tool: tool.name, requestId: env.meta.request_id },
          "MCP tool failed",
        );
        return failure("internal_error", `${tool.name} failed.`, env.meta.request_id);
      }
    }) as never,
  );
}

const json = (uri: string, body: unknown) => ({
  contents: [{ uri, mimeType: "application/json", text: JSON.stringify(body) }],
});

function registerResources(server: McpServer, env: ToolEnv) {
  server.registerResource(
    "coverage",
    "corpus://coverage",
    {
      title: "What is loaded",
      description:
        "Documents and fields of law loaded, with counts and the last ingest: check before saying something does not exist.",
      mimeType: "application/json",
    },
    async (uri) => json(uri.href, await coverageBody(env.ctx, env.meta)),
  );
  server.registerResource(
    "document",
    new ResourceTemplate("corpus://documents/{id}", {
      list: async () => ({
        resources: (await listDocumentTitles(env.ctx.db)).map((d) => ({
          uri: `corpus://documents/${d.publicId}`,
          name: d.title,
          mimeType: "application/json",
        })),
      }),
    }),
    {
      title: "A normative document",
      description:
        "A code or act: its table of contents and its first provisions (get_document pages through the rest).",
      mimeType: "application/json",
    },
    async (uri, { id }) =>
      json(
        uri.href,
        await documentBody(env.ctx, env.who, String(id), { limit: 20, offset: 0, toc: true }, env.meta),
      ),
  );
  server.registerResource(
    "provision",
    new ResourceTemplate("corpus://provisions/{document}/{number}", { list: undefined }),
    {
      title: "A provision",
      description: "One provision by public id, e.g. corpus://provisions/code-du-travail/L1237-1-1.",
      mimeType: "application/json",
    },
    async (uri, { document, number }) =>
      json(uri.href, await provisionBody(env.ctx, env.who, `${document}/${number}`, undefined, env.meta)),
  );
}

export function createMcpServer(env: ToolEnv): McpServer {
  const server = new McpServer(
    { name: "legal-corpus", title: "Legal corpus (French law)", version: "1.0.0" },
    { instructions: INSTRUCTIONS, capabilities: { tools: {}, resources: {} } },
  );
  // answer_question is offered only when the key's plan includes answers.
  for (const tool of TOOLS)
    if (tool.scope !== "answer:write" || env.plan.answerEnabled) registerTool(server, env, tool);
  registerResources(server, env);
  return server;
}

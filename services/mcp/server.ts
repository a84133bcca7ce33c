import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { type CallToolResult, McpError } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { controlCharacterAt, controlMessage } from "../core/control-characters.ts";
import { AppError } from "../core/errors.ts";
import { readCoverage } from "../corpus/catalogue.ts";
import { listDocuments, readDocument } from "../corpus/documents.ts";
import { readProvision } from "../corpus/provisions.ts";
import { presentCoverage } from "../presenters/catalogue.ts";
import { presentDocument } from "../presenters/document.ts";
import { presentProvision } from "../presenters/provision.ts";
import { MAX_TOOL_RESULT_CHARS } from "./result-size.ts";
import type { ToolDefinition, ToolEnv } from "./tool.ts";
import { TOOLS } from "./tools/index.ts";

/**
 * The MCP server for one request (stateless: a fresh server and transport each time, see
 * services/api/routes/mcp/router.ts), bound to the calling key. Tools, resources and instructions all
 * read the corpus through the same functions as the HTTP API.
 */

export const INSTRUCTIONS = `Published French law (codes and acts), from official LEGI data.

Coverage: the corpus is incomplete and still being filled. An empty search, a provision not found or a citation that does not resolve means the act is not loaded yet; it never means that no such law exists. Read the coverage resource (corpus://coverage) before telling anyone that something does not exist, and pass on meta.coverage_note.

Citing: every provision has a public id ('code-du-travail/L1237-1-1'), a status and effective dates. Quote the text you rely on, cite its public id and say from when it applies; use get_provision with as_of for a past date.

Tools: search_provisions (full text, French), resolve_citation (a reference as written → the provision), get_provision, get_document (table of contents, pages of provisions), list_agreements (collective agreements loaded, by IDCC or name), list_domains (fields of law for filtering), list_changes (what changed since a date), and, when the key's plan includes it, answer_question (an answer made only of cited provisions' sentences). Each tool needs a scope on the API key; a refusal says which.`;

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
        const text = JSON.stringify(result);
        const size = text.length;
        if (size > MAX_TOOL_RESULT_CHARS)
          return failure(
            "invalid_request",
            `the result is ${size.toLocaleString("en")} characters, over the ${MAX_TOOL_RESULT_CHARS.toLocaleString("en")} a tool returns: ask for less (a smaller limit, one section, no table of contents).`,
            env.meta.request_id,
          );
        return {
          structuredContent: result as Record<string, unknown>,
          content: [{ type: "text", text }],
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

/**
 * JSON-RPC codes for a resource read that fails: MCP's "resource not found" (-32002), the API's
 * forbidden (-32003), invalid params (-32602); anything else is an internal error (-32603). The
 * SDK would answer -32603 to every one of them.
 */
const RESOURCE_ERROR: Record<AppError["code"], number> = {
  not_found: -32002,
  forbidden: -32003,
  invalid_request: -32602,
  unauthorized: -32001,
  rate_limited: -32029,
  internal_error: -32603,
};

function readWith<A extends unknown[], R>(env: ToolEnv, read: (...args: A) => Promise<R>) {
  return async (...args: A): Promise<R> => {
    try {
      return await read(...args);
    } catch (error) {
      if (error instanceof AppError)
        throw new McpError(
          RESOURCE_ERROR[error.code],
          `${error.code}: ${error.message} ${NEXT_STEP[error.code]}`,
          {
            code: error.code,
            request_id: env.meta.request_id,
          },
        );
      env.ctx.logger.error({ err: error, requestId: env.meta.request_id }, "MCP resource read failed");
      throw new McpError(-32603, "Internal error: retry once; if it persists, report the request id.", {
        request_id: env.meta.request_id,
      });
    }
  };
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
    readWith(env, async (uri) => json(uri.href, presentCoverage(await readCoverage(env.ctx.db), env.meta))),
  );
  server.registerResource(
    "document",
    new ResourceTemplate("corpus://documents/{id}", {
      list: async () => ({
        resources: (await listDocuments(env.ctx.db)).map((d) => ({
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
    readWith(env, async (uri, { id }) => {
      const page = { limit: 20, offset: 0 };
      const read = await readDocument(env.ctx.db, env.who, String(id), page);
      // As get_document by default: the first levels of the table of contents, not thousands of sections.
      return json(uri.href, presentDocument(read, { ...page, toc: true, tocDepth: 2 }, env.meta));
    }),
  );
  server.registerResource(
    "provision",
    new ResourceTemplate("corpus://provisions/{document}/{number}", { list: undefined }),
    {
      title: "A provision",
      description: "One provision by public id, e.g. corpus://provisions/code-du-travail/L1237-1-1.",
      mimeType: "application/json",
    },
    readWith(env, async (uri, { document, number }) =>
      json(
        uri.href,
        presentProvision(await readProvision(env.ctx.db, env.who, `${document}/${number}`), env.meta),
      ),
    ),
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
  registerPrompts(server);
  // Stateless (a server per request): the lists never change under a client, so none is announced.
  server.server.registerCapabilities({
    tools: { listChanged: false },
    resources: { listChanged: false },
    prompts: { listChanged: false },
  });
  return server;
}

/** Two prompts an agent's user would pick: the law on a topic, and what changed since a date. */
function registerPrompts(server: McpServer) {
  server.registerPrompt(
    "find_the_law",
    {
      title: "Find the law on a topic",
      description: "The provisions of French law on a topic, cited with their ids and dates.",
      argsSchema: { topic: z.string().describe("The topic or question, in French or English.") },
    },
    ({ topic }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "text",
            text: `Find the provisions of French law on: ${topic}
1. Call search_provisions with the topic in French, in the words of the law (try a second wording if the first finds little; filter with domains from list_domains when the field of law is clear).
2. Read the most relevant results with get_provision.
3. Answer with the rule, quoting the text you rely on, and cite each provision's public id and the date from which it applies.
If nothing relevant is found, read corpus://coverage and say which act may not be loaded yet: never that no rule exists.`,
          },
        },
      ],
    }),
  );
  server.registerPrompt(
    "what_changed",
    {
      title: "What changed in a document since a date",
      description: "Provisions added, amended or repealed in one code or act since a date.",
      argsSchema: {
        document: z.string().describe("Public id of the document, e.g. code-du-travail."),
        since: z.string().describe("A date, YYYY-MM-DD."),
      },
    },
    ({ document, since }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "text",
            text: `What changed in ${document} since ${since}?
Call list_changes with document "${document}" and since "${since}" (page with cursor until next_cursor is null). Group the changes by kind (added, amended, repealed) and by part of the document, give each provision's public id and the date the change took effect, and name the amending act when it is given. For an amendment that matters, compare the versions with get_provision (as_of before and after).`,
          },
        },
      ],
    }),
  );
}

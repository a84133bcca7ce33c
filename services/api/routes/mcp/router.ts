import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import express, { type ErrorRequestHandler, type RequestHandler, Router } from "express";
import { ANSWER_COST } from "../../../answer/service.ts";
import { AppError } from "../../../core/errors.ts";
import { deepBodyError } from "../../../core/json-depth.ts";
import { CallGate } from "../../../mcp/call-gate.ts";
import { createMcpServer } from "../../../mcp/server.ts";
import type { AppContext } from "../../../runtime/context.ts";
import type { PlanRow } from "../../../store/access.ts";
import { meta } from "../../envelope.ts";
import { type access, chargeExtra, principal } from "../../middleware/access.ts";
import { MethodNotAllowed } from "../../middleware/errors.ts";

/**
 * The MCP endpoint over Streamable HTTP, stateless: every POST gets a fresh server and transport
 * bound to the calling key, so any instance behind a load balancer can answer any request. It
 * lives at {base_url}/mcp (the address the spec's client configuration implies) and at
 * /api/v1/mcp. Authentication, rate limits and their headers are the API's; failures before the
 * MCP layer are JSON-RPC error objects that say what to do next, with the HTTP status of the API.
 */

export const MCP_PATHS = ["/mcp", "/api/v1/mcp"];

export const MAX_MCP_BODY_BYTES = 256 * 1024;
/** At most this many JSON-RPC messages in one POST (a batch). */
export const MAX_MCP_BATCH = 20;
/** A request's tool calls run at most this many at once… */
export const MCP_CONCURRENT_CALLS = 2;
/** …and none starts later than this after the request arrived. */
export const MCP_REQUEST_BUDGET_SECONDS = 30;

/**
 * What a POST costs against the rate limit: each message of a batch as one request, and an
 * answer_question call as the REST answer does (ANSWER_COST) when the plan offers it (otherwise
 * it is refused, and a refusal costs one).
 */
export function mcpCost(messages: unknown[], plan: PlanRow): number {
  return messages.reduce<number>((sum, message) => {
    const call = message as { method?: unknown; params?: { name?: unknown } } | null;
    const answer = call?.method === "tools/call" && call.params?.name === "answer_question";
    return sum + (answer && plan.answerEnabled ? ANSWER_COST : 1);
  }, 0);
}

/** JSON-RPC codes for failures outside a method call (the implementation-defined -32000 range). */
const RPC_CODE: Record<AppError["code"], number> = {
  invalid_request: -32600,
  unauthorized: -32001,
  forbidden: -32003,
  not_found: -32004,
  rate_limited: -32029,
  internal_error: -32603,
};

const NEXT_STEP: Record<AppError["code"], string> = {
  invalid_request: "Send one JSON-RPC message (or a batch) as the JSON body of a POST.",
  unauthorized: "Send the header Authorization: Bearer <API_KEY> with a valid, unrevoked key.",
  forbidden: "Use a key with the corpus:read scope (new keys have it).",
  not_found: "POST to {base_url}/mcp.",
  rate_limited: "Wait for the number of seconds in the Retry-After header, then retry.",
  internal_error: "Retry once; if it fails again, report the request id.",
};

/** JSON-RPC's own code for a body that is not JSON at all. */
const PARSE_ERROR = -32700;

function rpcError(
  res: express.Response,
  status: number,
  code: AppError["code"],
  message: string,
  rpcCode = RPC_CODE[code],
) {
  if (code === "unauthorized") res.set("www-authenticate", 'Bearer realm="legal-corpus"');
  res.status(status).json({
    jsonrpc: "2.0",
    error: {
      code: rpcCode,
      message: `${message} ${NEXT_STEP[code]}`,
      data: { code, request_id: res.locals.requestId as string },
    },
    id: null,
  });
}

/** Every failure on these paths, the API's own included, as a JSON-RPC error object. */
const jsonRpcErrors =
  (ctx: AppContext): ErrorRequestHandler =>
  (error, _req, res, next) => {
    if (res.headersSent) return next(error);
    if (error instanceof AppError) return rpcError(res, error.status, error.code, error.message);
    const parse = error as { type?: string; limit?: number };
    if (parse.type === "entity.parse.failed")
      return rpcError(res, 400, "invalid_request", "The body is not valid JSON.", PARSE_ERROR);
    if (parse.type === "entity.too.large")
      return rpcError(res, 400, "invalid_request", `The body is larger than ${parse.limit} bytes.`);
    ctx.logger.error({ err: error, requestId: res.locals.requestId }, "MCP request failed");
    rpcError(res, 500, "internal_error", "Internal error.");
  };

export function mcpRouter(
  ctx: AppContext,
  guard: ReturnType<typeof access>,
  anonymous: RequestHandler,
): Router {
  const handle: RequestHandler = async (req, res) => {
    const plan = res.locals.plan as PlanRow;
    if (Array.isArray(req.body) && req.body.length > MAX_MCP_BATCH)
      throw new AppError(
        "invalid_request",
        `body: a batch holds at most ${MAX_MCP_BATCH} messages, not ${req.body.length}.`,
        "body",
      );
    // Checked here rather than by the SDK, whose refusal would carry no request id.
    const messages = Array.isArray(req.body) ? req.body : [req.body];
    const invalid = messages.findIndex((message) => !JSONRPCMessageSchema.safeParse(message).success);
    if (invalid >= 0)
      throw new AppError(
        "invalid_request",
        `body${Array.isArray(req.body) ? `.${invalid}` : ""}: not a JSON-RPC 2.0 message (jsonrpc "2.0", and a method, or a result or error with an id).`,
        "body",
      );
    // The guard counted one request; a batch and answers cost more, as over REST.
    const extra = mcpCost(messages, plan) - 1;
    if (extra > 0) {
      await chargeExtra(ctx, res, extra);
      ctx.usage.count(principal(res).projectId, extra);
    }
    const left = new AbortController();
    res.on("close", () => left.abort());
    const server = createMcpServer({
      ctx,
      who: principal(res),
      plan,
      meta: meta(res),
      gate: new CallGate(
        MCP_CONCURRENT_CALLS,
        Date.now() + MCP_REQUEST_BUDGET_SECONDS * 1000,
        left.signal,
        MCP_REQUEST_BUDGET_SECONDS,
      ),
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  };
  // Stateless: no session to resume (GET) or end (DELETE).
  const onlyPost: RequestHandler = (req, res, next) => {
    res.set("allow", "POST");
    next(new MethodNotAllowed(req.method, req.path, ["POST"]));
  };
  const router = Router();
  // The key first: a malformed body still gets the rate-limit headers, and no parse without a key.
  const notTooDeep: RequestHandler = (req, _res, next) => next(deepBodyError(req.body));
  router.post(
    MCP_PATHS,
    guard("corpus:read"),
    express.json({ limit: MAX_MCP_BODY_BYTES }),
    notTooDeep,
    handle,
  );
  // Counted against the client's address, so the refusal carries the limit headers too.
  router.all(MCP_PATHS, anonymous, onlyPost);
  router.use(MCP_PATHS, jsonRpcErrors(ctx));
  return router;
}

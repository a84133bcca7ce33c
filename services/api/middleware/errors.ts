import type { ErrorRequestHandler, RequestHandler } from "express";
import type { Logger } from "pino";
import { AppError } from "../../core/errors.ts";

/** A method the path does not accept: 405 with Allow; the only status outside the spec's table. */
export class MethodNotAllowed extends AppError {
  constructor(
    method: string,
    path: string,
    public readonly allow: string[],
  ) {
    super("invalid_request", `${method} is not allowed on ${path}; use ${allow.join(", ")}`, "method");
  }
  override get status() {
    return 405;
  }
}

export const notFoundRoute: RequestHandler = (req, _res, next) => {
  next(new AppError("not_found", `No such endpoint: ${req.method} ${req.path}. See /api/v1/openapi.json.`));
};

/** Errors raised by body parsing (express.json) and the like, mapped onto the spec's codes. */
function fromHttpError(error: { type?: string; status?: number; limit?: number }): AppError | undefined {
  if (error.type === "entity.too.large")
    return new AppError("invalid_request", `request body larger than ${error.limit} bytes`, "body");
  if (error.type === "entity.parse.failed")
    return new AppError("invalid_request", "request body is not valid JSON", "body");
  if (error.type === "encoding.unsupported" || error.type === "charset.unsupported") {
    return new AppError("invalid_request", "unsupported body encoding", "body");
  }
  if (error.status && error.status >= 400 && error.status < 500)
    return new AppError("invalid_request", "malformed request", "request");
  return undefined;
}

/**
 * The one place that renders failures: `{"error":{"code","message","request_id"}}`. Unknown
 * errors become `internal_error`, logged with the request id, and never leak their message.
 */
export function errorRenderer(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const appError = error instanceof AppError ? error : fromHttpError(error as object);
    const requestId = (res.locals.requestId as string | undefined) ?? "unknown";
    if (!appError || appError.code === "internal_error") {
      const cause = (appError?.cause as Error | undefined) ?? error;
      logger.error(
        { err: cause, requestId, method: req.method, path: req.path },
        appError ? appError.message : "unhandled error",
      );
    }
    const rendered =
      appError ?? new AppError("internal_error", "Internal error. Retry once, then report the request id.");
    const message =
      rendered.code === "internal_error" && !rendered.message.includes(requestId)
        ? `${rendered.message} If it persists, report request id ${requestId}.`
        : rendered.message;
    if (rendered instanceof MethodNotAllowed) res.set("allow", rendered.allow.join(", "));
    if (res.headersSent) return;
    res.status(rendered.status).json({ error: { code: rendered.code, message, request_id: requestId } });
  };
}

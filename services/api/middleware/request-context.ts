import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";
import { coverageNote } from "../envelope.ts";

const INCOMING_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * Gives every request an id (the caller's X-Request-Id when it looks sane, else a new UUID), sends
 * it back as a header, and adds the coverage headers every response carries.
 */
export function requestContext(coverageUrl: string): RequestHandler {
  const note = coverageNote(coverageUrl);
  return (req, res, next) => {
    const headers = contextHeaders(coverageUrl, req.get("x-request-id"));
    res.locals.requestId = headers["x-request-id"];
    res.locals.coverageUrl = coverageUrl;
    res.locals.coverageNote = note;
    res.set(headers);
    next();
  };
}

/** The request id and coverage headers; the front (services/runtime/front.ts) sends them on probes too. */
export function contextHeaders(coverageUrl: string, incomingId: string | undefined): Record<string, string> {
  return {
    "x-request-id": incomingId && INCOMING_ID.test(incomingId) ? incomingId : randomUUID(),
    "x-coverage-url": coverageUrl,
    link: `<${coverageUrl}>; rel="coverage"`,
  };
}

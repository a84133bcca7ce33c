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
    const incoming = req.get("x-request-id");
    const requestId = incoming && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = requestId;
    res.locals.coverageUrl = coverageUrl;
    res.locals.coverageNote = note;
    res.set("x-request-id", requestId);
    res.set("x-coverage-url", coverageUrl);
    res.set("link", `<${coverageUrl}>; rel="coverage"`);
    next();
  };
}

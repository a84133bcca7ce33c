import type { Response } from "express";
import { z } from "zod";
import type { Meta } from "../presenters/envelope.ts";

/**
 * The corpus is incomplete (spec section 1): every success body carries `meta.coverage_note`, and
 * every response, failures included, carries the coverage URL in headers, because an error body
 * holds the one key `error` and nothing else.
 */
export function coverageNote(coverageUrl: string): string {
  return (
    "The corpus is incomplete and still being filled. An empty or partial result means the act is not loaded yet, " +
    `never that no such law exists. Check what is loaded (${coverageUrl}) before telling anyone that something does not exist.`
  );
}

export function meta(res: Response): Meta {
  return {
    coverage_note: res.locals.coverageNote as string,
    coverage_url: res.locals.coverageUrl as string,
    request_id: res.locals.requestId as string,
  };
}

/** The body of every failure: one key, `error`. */
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

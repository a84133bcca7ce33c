import type { Response } from "express";

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

export interface Meta {
  coverage_note: string;
  coverage_url: string;
  request_id: string;
}

export function meta(res: Response): Meta {
  return {
    coverage_note: res.locals.coverageNote as string,
    coverage_url: res.locals.coverageUrl as string,
    request_id: res.locals.requestId as string,
  };
}

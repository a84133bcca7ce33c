import { Router } from "express";
import type { Domain } from "../../../core/domains.ts";
import { searchCorpus } from "../../../corpus/search.ts";
import { presentSearch } from "../../../presenters/search.ts";
import type { AppContext } from "../../../runtime/context.ts";
import { meta } from "../../envelope.ts";
import { type access, principal } from "../../middleware/access.ts";
import { parsed, validate } from "../../middleware/validate.ts";
import { searchQuerySchema } from "./schema.ts";

/** GET /api/v1/search: full-text search over the loaded provisions. */
export function searchRouter(ctx: AppContext, guard: ReturnType<typeof access>): Router {
  return Router().get(
    "/search",
    guard("search:read"),
    validate("query", searchQuerySchema),
    async (_req, res) => {
      // A client that leaves before its answer: its search is cancelled, not left to its timeout.
      const left = new AbortController();
      res.on("close", () => {
        if (!res.writableFinished) left.abort();
      });
      try {
        const query = parsed(res, "query", searchQuerySchema);
        const outcome = await searchCorpus(ctx, principal(res), {
          q: query.q,
          limit: query.limit,
          offset: query.offset,
          domains: query.domains as Domain[] | undefined,
          document: query.document,
          inForce: query.in_force,
          asOf: query.as_of,
          signal: left.signal,
        });
        res.json(presentSearch(outcome, query, meta(res)));
      } catch (error) {
        // Cancelled because nobody is waiting for it: no answer to send, no fault to log.
        if (left.signal.aborted) return;
        throw error;
      }
    },
  );
}

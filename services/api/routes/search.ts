import { Router } from "express";
import type { z } from "zod";
import type { Principal } from "../../access/keys.ts";
import type { Domain } from "../../core/domains.ts";
import { searchProvisions } from "../../search/service.ts";
import { documentPublicId } from "../../store/corpus-queries.ts";
import type { AppContext } from "../context.ts";
import { type Meta, meta } from "../envelope.ts";
import { type access, principal } from "../middleware/access.ts";
import { parsed, validate } from "../middleware/validate.ts";
import { presentSearch } from "../presenters/search.ts";
import { searchQuerySchema, type searchResponseSchema, unknownDocument } from "../schemas.ts";

/** The search response, for the HTTP route and the MCP tool alike. */
export async function searchBody(
  ctx: AppContext,
  who: Principal,
  query: z.output<typeof searchQuerySchema>,
  meta: Meta,
  signal?: AbortSignal,
): Promise<z.infer<typeof searchResponseSchema>> {
  // An unknown document is a mistake to report, not a filter that finds nothing (as on /changes).
  const document = query.document ? await documentPublicId(ctx.db, query.document) : undefined;
  if (query.document && !document) throw unknownDocument(query.document);
  const outcome = await searchProvisions(
    ctx.search,
    who,
    {
      q: query.q,
      limit: query.limit,
      offset: query.offset,
      domains: query.domains as Domain[] | undefined,
      document,
      inForce: query.in_force,
      asOf: query.as_of,
      signal,
    },
    ctx.titles,
  );
  return presentSearch(outcome, query, meta);
}

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
        res.json(await searchBody(ctx, principal(res), query, meta(res), left.signal));
      } catch (error) {
        // Cancelled because nobody is waiting for it: no answer to send, no fault to log.
        if (left.signal.aborted) return;
        throw error;
      }
    },
  );
}

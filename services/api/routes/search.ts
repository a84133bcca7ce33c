import { Router } from "express";
import type { z } from "zod";
import type { Principal } from "../../access/keys.ts";
import type { Domain } from "../../core/domains.ts";
import { AppError } from "../../core/errors.ts";
import { searchProvisions } from "../../search/service.ts";
import { documentPublicId } from "../../store/corpus-queries.ts";
import type { AppContext } from "../context.ts";
import { type Meta, meta } from "../envelope.ts";
import { type access, principal } from "../middleware/access.ts";
import { parsed, validate } from "../middleware/validate.ts";
import { presentSearch } from "../presenters/search.ts";
import { searchQuerySchema, type searchResponseSchema } from "../schemas.ts";

/** The search response, for the HTTP route and the MCP tool alike. */
export async function searchBody(
  ctx: AppContext,
  who: Principal,
  query: z.output<typeof searchQuerySchema>,
  meta: Meta,
): Promise<z.infer<typeof searchResponseSchema>> {
  // An unknown document is a mistake to report, not a filter that finds nothing (as on /changes).
  const document = query.document ? await documentPublicId(ctx.db, query.document) : undefined;
  if (query.document && !document)
    throw new AppError("invalid_request", `document: no document ${query.document} is loaded`, "document");
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
      res.json(await searchBody(ctx, principal(res), parsed(res, "query", searchQuerySchema), meta(res)));
    },
  );
}

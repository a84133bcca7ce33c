import { Router } from "express";
import type { Domain } from "../../core/domains.ts";
import { searchProvisions } from "../../search/service.ts";
import type { AppContext } from "../context.ts";
import { meta } from "../envelope.ts";
import { type access, principal } from "../middleware/access.ts";
import { parsed, validate } from "../middleware/validate.ts";
import { presentSearch } from "../presenters/search.ts";
import { searchQuerySchema } from "../schemas.ts";

export function searchRouter(ctx: AppContext, guard: ReturnType<typeof access>): Router {
  return Router().get(
    "/search",
    guard("search:read"),
    validate("query", searchQuerySchema),
    async (_req, res) => {
      const query = parsed(res, "query", searchQuerySchema);
      const outcome = await searchProvisions(
        ctx.search,
        principal(res),
        {
          q: query.q,
          limit: query.limit,
          offset: query.offset,
          domains: query.domains as Domain[] | undefined,
          document: query.document,
          inForce: query.in_force,
          asOf: query.as_of,
        },
        ctx.titles,
      );
      res.json(presentSearch(outcome, query, meta(res)));
    },
  );
}

import { Router } from "express";
import { readDomains } from "../../../corpus/catalogue.ts";
import { presentDomains } from "../../../presenters/catalogue.ts";
import type { AppContext } from "../../../runtime/context.ts";
import { meta } from "../../envelope.ts";
import { type access, principal } from "../../middleware/access.ts";
import { noQuery } from "../../middleware/validate.ts";

/** GET /api/v1/domains: the fields of law, their provision counts, and which the key may use. */
export function domainsRouter(ctx: AppContext, guard: ReturnType<typeof access>): Router {
  return Router().get("/domains", guard("corpus:read"), noQuery(), async (_req, res) => {
    res.json(presentDomains(await readDomains(ctx.db, principal(res)), meta(res)));
  });
}

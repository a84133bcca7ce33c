import { Router } from "express";
import { readCoverage } from "../../../corpus/catalogue.ts";
import { presentCoverage } from "../../../presenters/catalogue.ts";
import type { AppContext } from "../../../runtime/context.ts";
import { meta } from "../../envelope.ts";
import type { access } from "../../middleware/access.ts";
import { noQuery } from "../../middleware/validate.ts";

/** GET /api/v1/coverage: what is loaded, to check before saying something does not exist. */
export function coverageRouter(ctx: AppContext, guard: ReturnType<typeof access>): Router {
  return Router().get("/coverage", guard("corpus:read"), noQuery(), async (_req, res) => {
    res.json(presentCoverage(await readCoverage(ctx.db), meta(res)));
  });
}

import { Router } from "express";
import type { Domain } from "../../../core/domains.ts";
import { changesByEffectiveDate, changesFeed } from "../../../corpus/changes.ts";
import { presentChangesFeed, presentChangesPage } from "../../../presenters/changes.ts";
import type { AppContext } from "../../../runtime/context.ts";
import { meta } from "../../envelope.ts";
import { type access, principal } from "../../middleware/access.ts";
import { parsed, validate } from "../../middleware/validate.ts";
import { changesFeedQuerySchema, changesQuerySchema } from "./schema.ts";

/**
 * GET /api/v1/changes: provisions added, amended or repealed, by the date the change took
 * effect. GET /api/v1/changes/feed: the same entries in the order we recorded them, for clients
 * that keep a copy in sync.
 */
export function changesRouter(ctx: AppContext, guard: ReturnType<typeof access>): Router {
  const read = guard("changes:read");
  return Router()
    .get("/changes/feed", read, validate("query", changesFeedQuerySchema), async (_req, res) => {
      const query = parsed(res, "query", changesFeedQuerySchema);
      const page = await changesFeed(ctx.db, principal(res), {
        ...query,
        domains: query.domains as Domain[] | undefined,
      });
      res.json(presentChangesFeed(page, query.limit, meta(res)));
    })
    .get("/changes", read, validate("query", changesQuerySchema), async (_req, res) => {
      const query = parsed(res, "query", changesQuerySchema);
      const page = await changesByEffectiveDate(ctx.db, principal(res), {
        ...query,
        domains: query.domains as Domain[] | undefined,
      });
      res.json(presentChangesPage(page, query.limit, meta(res)));
    });
}

import { type Request, type Response, Router } from "express";
import { diffVersions, readProvision, readVersions } from "../../../corpus/provisions.ts";
import { presentProvision } from "../../../presenters/provision.ts";
import { presentDiff, presentVersions } from "../../../presenters/provision-history.ts";
import type { AppContext } from "../../../runtime/context.ts";
import { meta } from "../../envelope.ts";
import { type access, principal } from "../../middleware/access.ts";
import { noQuery, parsed, pathParameter, validate } from "../../middleware/validate.ts";
import { diffQuerySchema, provisionQuerySchema } from "./schema.ts";

/**
 * One provision (GET /provisions/{id}, as in force on a day with as_of), its versions
 * (…/versions) and a word-level diff between two of them (…/diff). A provision is named by its
 * public id, which holds a slash (`code-du-travail/L1237-1-1`), or by its LEGI id.
 */

/** The provision id the path names, in either form. */
const provisionId = (req: Request) =>
  req.params.number
    ? `${pathParameter(req.params.document, "document")}/${pathParameter(req.params.number, "number")}`
    : pathParameter(req.params.id, "id");

export function provisionsRouter(ctx: AppContext, guard: ReturnType<typeof access>): Router {
  const read = guard("corpus:read");
  const provision = async (req: Request, res: Response) => {
    const { as_of } = parsed(res, "query", provisionQuerySchema);
    res.json(
      presentProvision(await readProvision(ctx.db, principal(res), provisionId(req), as_of), meta(res)),
    );
  };
  const versions = async (req: Request, res: Response) => {
    const { provision, versions } = await readVersions(ctx.db, principal(res), provisionId(req));
    res.json(presentVersions(provision, versions, meta(res)));
  };
  const diff = async (req: Request, res: Response) => {
    const wanted = parsed(res, "query", diffQuerySchema);
    res.json(presentDiff(await diffVersions(ctx.db, principal(res), provisionId(req), wanted), meta(res)));
  };
  // The history routes first: /provisions/:document/:number would otherwise take `LEGIARTI…/versions`.
  return Router()
    .get("/provisions/:document/:number/versions", read, noQuery(), versions)
    .get("/provisions/:id/versions", read, noQuery(), versions)
    .get("/provisions/:document/:number/diff", read, validate("query", diffQuerySchema), diff)
    .get("/provisions/:id/diff", read, validate("query", diffQuerySchema), diff)
    .get("/provisions/:document/:number", read, validate("query", provisionQuerySchema), provision)
    .get("/provisions/:id", read, validate("query", provisionQuerySchema), provision);
}

import { Router } from "express";
import { readDocument } from "../../../corpus/documents.ts";
import { presentDocument } from "../../../presenters/document.ts";
import type { AppContext } from "../../../runtime/context.ts";
import { meta } from "../../envelope.ts";
import { type access, principal } from "../../middleware/access.ts";
import { parsed, pathParameter, validate } from "../../middleware/validate.ts";
import { documentQuerySchema } from "./schema.ts";

/** GET /api/v1/documents/{id}: a document, its table of contents and a page of its provisions. */
export function documentsRouter(ctx: AppContext, guard: ReturnType<typeof access>): Router {
  return Router().get(
    "/documents/:id",
    guard("corpus:read"),
    validate("query", documentQuerySchema),
    async (req, res) => {
      const query = parsed(res, "query", documentQuerySchema);
      const page = await readDocument(ctx.db, principal(res), pathParameter(req.params.id, "id"), query);
      res.json(presentDocument(page, query, meta(res)));
    },
  );
}

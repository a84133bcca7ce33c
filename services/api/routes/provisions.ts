import { Router } from "express";
import { z } from "zod";
import { domainSchema } from "../../core/domains.ts";
import { AppError } from "../../core/errors.ts";
import { findProvision, listAmendingActs, listVersions } from "../../store/corpus-queries.ts";
import type { AppContext } from "../context.ts";
import { meta } from "../envelope.ts";
import type { access } from "../middleware/access.ts";
import { presentProvision } from "../presenters/provision.ts";
import { metaSchema } from "../schemas.ts";

export const provisionSchema = z
  .object({
    id: z
      .string()
      .meta({ description: "Public id: <document>/<article number>.", example: "code-du-travail/L1237-1-1" }),
    number: z.string(),
    text: z.string().meta({ description: "Plain text of the current version." }),
    text_html: z
      .string()
      .nullable()
      .meta({ description: "The source's HTML of the same text, when it has one." }),
    notes: z.string().nullable(),
    status: z
      .enum(["in_force", "repealed", "not_yet_in_force"])
      .meta({ description: "As the source reports it on its snapshot date." }),
    effective_from: z.string().nullable(),
    effective_to: z.string().nullable().meta({ description: "Null when open-ended." }),
    in_current_source: z
      .boolean()
      .meta({ description: "False when the latest snapshot of the source no longer lists it." }),
    document: z.object({ id: z.string(), title: z.string(), url: z.string() }),
    section_path: z.array(z.string()),
    domains: z.array(domainSchema),
    source: z.object({
      name: z.string(),
      snapshot: z.string().nullable(),
      document_id: z.string(),
      article_id: z
        .string()
        .meta({ description: "Stable across versions (LEGI cid); resolves on this endpoint." }),
      version_id: z.string(),
      source_status: z.string().nullable(),
    }),
    versions: z.array(
      z.object({
        version_id: z.string(),
        label: z.string().nullable(),
        status: z.string(),
        effective_from: z.string().nullable(),
        effective_to: z.string().nullable(),
        text_available: z.boolean(),
      }),
    ),
    amended_by: z.array(
      z.object({
        act_id: z.string(),
        title: z.string().nullable(),
        kind: z.string().nullable(),
        relation: z.string(),
        effective_on: z.string().nullable(),
        published_on: z.string().nullable(),
      }),
    ),
    url: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "Provision" });

export const provisionResponseSchema = z
  .object({ data: provisionSchema, meta: metaSchema })
  .meta({ id: "ProvisionResponse" });

/** Public ids hold one slash (`code-du-travail/L1237-1-1`); source ids none (`LEGIARTI…`). */
export const provisionParamsSchema = z.object({ id: z.string().min(1).max(300) });

export function provisionsRouter(ctx: AppContext, guard: ReturnType<typeof access>): Router {
  const handler = async (id: string, res: import("express").Response) => {
    const provision = await findProvision(ctx.db, id);
    if (!provision)
      throw new AppError(
        "not_found",
        `No published provision with id ${id}. It may not be loaded yet: see the coverage.`,
      );
    const [versions, acts] = await Promise.all([
      listVersions(ctx.db, provision.id),
      listAmendingActs(ctx.db, provision.id),
    ]);
    const body: z.infer<typeof provisionResponseSchema> = {
      data: presentProvision(provision, versions, acts),
      meta: meta(res),
    };
    res.json(body);
  };
  return Router()
    .get("/provisions/:document/:number", guard("corpus:read"), async (req, res) => {
      await handler(`${req.params.document}/${req.params.number}`, res);
    })
    .get("/provisions/:id", guard("corpus:read"), async (req, res) => {
      await handler(String(req.params.id), res);
    });
}

import { Router } from "express";
import { z } from "zod";
import { ensureMayRead } from "../../access/domains.ts";
import type { Principal } from "../../access/keys.ts";
import { versionInForce } from "../../changes/versions.ts";
import { domainSchema } from "../../core/domains.ts";
import { AppError } from "../../core/errors.ts";
import { findProvision, listAmendingActs, listVersions } from "../../store/corpus-queries.ts";
import type { AppContext } from "../context.ts";
import { type Meta, meta } from "../envelope.ts";
import { type access, principal } from "../middleware/access.ts";
import { parsed, pathParameter, validate } from "../middleware/validate.ts";
import { presentAsOf, presentProvision } from "../presenters/provision.ts";
import { isoDateParam, metaSchema } from "../schemas.ts";
import { NO_TEXT_NOTE } from "./provision-history.ts";

export const provisionSchema = z
  .object({
    id: z
      .string()
      .meta({ description: "Public id: <document>/<article number>.", example: "code-du-travail/L1237-1-1" }),
    number: z.string(),
    text: z.string().nullable().meta({
      description:
        "Plain text of the current version (with as_of: of the version in force that day). Null only with as_of, when we do not hold that text: see as_of.note.",
    }),
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
    as_of: z
      .object({
        date: z.string(),
        version_id: z
          .string()
          .nullable()
          .meta({ description: "The version in force that day; null when none was." }),
        text_available: z.boolean(),
        note: z
          .string()
          .nullable()
          .meta({ description: "Why there is no text, or no version, for that day." }),
      })
      .optional()
      .meta({
        description:
          "Present when as_of was given: text, status and effective dates above are then those of the version in force that day.",
      }),
  })
  .meta({ id: "Provision" });

export const provisionQuerySchema = z
  .object({
    as_of: isoDateParam
      .optional()
      .meta({ description: "Read the provision as it was in force on this day." }),
  })
  .strict();

export const provisionResponseSchema = z
  .object({ data: provisionSchema, meta: metaSchema })
  .meta({ id: "ProvisionResponse" });

/** One provision (as in force on `asOf` when given), for the HTTP route and the MCP tool alike. */
export async function provisionBody(
  ctx: AppContext,
  who: Principal,
  id: string,
  asOf: string | undefined,
  meta: Meta,
): Promise<z.infer<typeof provisionResponseSchema>> {
  const provision = await findProvision(ctx.db, id);
  if (!provision)
    throw new AppError(
      "not_found",
      `No published provision with id ${id}. It may not be loaded yet: see the coverage.`,
    );
  ensureMayRead(who, provision.domains, `provision ${provision.publicId}`);
  const [versions, acts] = await Promise.all([
    listVersions(ctx.db, provision.id, { withText: asOf !== undefined }),
    listAmendingActs(ctx.db, provision.id),
  ]);
  const data = presentProvision(provision, versions, acts);
  return { data: asOf ? presentAsOf(data, versionInForce(versions, asOf), asOf, NO_TEXT_NOTE) : data, meta };
}

export function provisionsRouter(ctx: AppContext, guard: ReturnType<typeof access>): Router {
  const handler = async (id: string, res: import("express").Response) => {
    res.json(
      await provisionBody(
        ctx,
        principal(res),
        id,
        parsed(res, "query", provisionQuerySchema).as_of,
        meta(res),
      ),
    );
  };
  return Router()
    .get(
      "/provisions/:document/:number",
      guard("corpus:read"),
      validate("query", provisionQuerySchema),
      async (req, res) => {
        await handler(
          `${pathParameter(req.params.document, "document")}/${pathParameter(req.params.number, "number")}`,
          res,
        );
      },
    )
    .get(
      "/provisions/:id",
      guard("corpus:read"),
      validate("query", provisionQuerySchema),
      async (req, res) => {
        await handler(pathParameter(req.params.id, "id"), res);
      },
    );
}

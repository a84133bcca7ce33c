import { type Request, type Response, Router } from "express";
import { z } from "zod";
import { ensureMayRead } from "../../access/domains.ts";
import { previousVersion, wordDiff } from "../../changes/versions.ts";
import { AppError } from "../../core/errors.ts";
import { findProvision, listVersions, type ProvisionRecord } from "../../store/corpus-queries.ts";
import type { AppContext } from "../context.ts";
import { meta } from "../envelope.ts";
import { type access, principal } from "../middleware/access.ts";
import { noQuery, parsed, pathParameter, validate } from "../middleware/validate.ts";
import { provisionUrl } from "../presenters/search.ts";
import { metaSchema } from "../schemas.ts";

/**
 * A provision's versions (GET …/versions) and a word-level diff between two of them
 * (GET …/diff). We hold the text of a version when a snapshot we loaded had it as current: the
 * source gives only the current text, so history accumulates as snapshots are loaded.
 */

export const NO_TEXT_NOTE =
  "The source gives only the text in force when its snapshot was taken; we hold a version's text when a snapshot we loaded had that version as current.";

const versionSchema = z
  .object({
    version_id: z.string(),
    label: z.string().nullable(),
    status: z.string().meta({ description: "in_force, repealed, not_yet_in_force or superseded." }),
    effective_from: z.string().nullable(),
    effective_to: z.string().nullable(),
    repealed_on: z.string().nullable().meta({ description: "Set when this version ends by repeal." }),
    text: z.string().nullable().meta({ description: "Null when we do not hold this version's text." }),
  })
  .meta({ id: "ProvisionVersion" });

const provisionRefSchema = z.object({ id: z.string(), number: z.string(), url: z.string() });

export const versionsResponseSchema = z
  .object({
    data: z.object({
      provision: provisionRefSchema,
      versions: z.array(versionSchema).meta({ description: "Oldest first." }),
      text_note: z.string(),
    }),
    meta: metaSchema,
  })
  .meta({ id: "ProvisionVersionsResponse" });

export const diffQuerySchema = z
  .object({
    from: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .meta({ description: "Version id to compare from; default: the version before `to`." }),
    to: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .meta({ description: "Version id to compare to; default: the current version." }),
  })
  .strict();

const diffEndSchema = z.object({
  version_id: z.string(),
  effective_from: z.string().nullable(),
  effective_to: z.string().nullable(),
});

export const diffResponseSchema = z
  .object({
    data: z.object({
      provision: provisionRefSchema,
      from: diffEndSchema,
      to: diffEndSchema,
      changes: z.array(z.object({ op: z.enum(["equal", "insert", "delete"]), text: z.string() })).meta({
        description:
          "The text of `to` is the equal and insert parts in order; that of `from`, the equal and delete parts.",
      }),
      words_inserted: z.number(),
      words_deleted: z.number(),
    }),
    meta: metaSchema,
  })
  .meta({ id: "ProvisionDiffResponse" });

/** The provision the path names, if the calling key may read it (its fields of law). */
async function provisionFrom(ctx: AppContext, req: Request, res: Response): Promise<ProvisionRecord> {
  const id = req.params.number
    ? `${pathParameter(req.params.document, "document")}/${pathParameter(req.params.number, "number")}`
    : pathParameter(req.params.id, "id");
  const provision = await findProvision(ctx.db, id);
  if (!provision)
    throw new AppError(
      "not_found",
      `No published provision with id ${id}. It may not be loaded yet: see the coverage.`,
    );
  ensureMayRead(principal(res), provision.domains, `provision ${provision.publicId}`);
  return provision;
}

const ref = (p: ProvisionRecord) => ({ id: p.publicId, number: p.number, url: provisionUrl(p.publicId) });

export function provisionHistoryRouter(ctx: AppContext, guard: ReturnType<typeof access>): Router {
  const versions = async (req: Request, res: Response) => {
    const provision = await provisionFrom(ctx, req, res);
    const rows = await listVersions(ctx.db, provision.id, { withText: true });
    const body: z.infer<typeof versionsResponseSchema> = {
      data: {
        provision: ref(provision),
        versions: rows.map((v) => ({
          version_id: v.versionId,
          label: v.label,
          status: v.status,
          effective_from: v.effectiveFrom,
          effective_to: v.effectiveTo,
          repealed_on: v.repealedOn,
          text: v.text ?? null,
        })),
        text_note: NO_TEXT_NOTE,
      },
      meta: meta(res),
    };
    res.json(body);
  };

  const diff = async (req: Request, res: Response) => {
    const provision = await provisionFrom(ctx, req, res);
    const query = parsed(res, "query", diffQuerySchema);
    const rows = await listVersions(ctx.db, provision.id, { withText: true });
    const find = (field: "from" | "to", versionId: string) => {
      const version = rows.find((v) => v.versionId === versionId);
      if (!version)
        throw new AppError(
          "invalid_request",
          `${field}: ${provision.publicId} has no version ${versionId}; it has ${rows.map((v) => v.versionId).join(", ")}`,
          field,
        );
      if (version.text == null)
        throw new AppError(
          "invalid_request",
          `${field}: we do not hold the text of version ${versionId}. ${NO_TEXT_NOTE} Versions with text: ${
            rows
              .filter((v) => v.text != null)
              .map((v) => v.versionId)
              .join(", ") || "none"
          }.`,
          field,
        );
      return version;
    };
    const to = find("to", query.to ?? provision.versionId);
    const fromId = query.from ?? previousVersion(rows, to.versionId)?.versionId;
    if (!fromId)
      throw new AppError(
        "invalid_request",
        `from: version ${to.versionId} has no earlier version; give from`,
        "from",
      );
    const from = find("from", fromId);
    const result = wordDiff(from.text!, to.text!);
    const end = (v: typeof to) => ({
      version_id: v.versionId,
      effective_from: v.effectiveFrom,
      effective_to: v.effectiveTo,
    });
    const body: z.infer<typeof diffResponseSchema> = {
      data: {
        provision: ref(provision),
        from: end(from),
        to: end(to),
        changes: result.parts,
        words_inserted: result.inserted,
        words_deleted: result.deleted,
      },
      meta: meta(res),
    };
    res.json(body);
  };

  // Registered before /provisions/:document/:number, which would otherwise take `LEGIARTI…/versions`.
  return Router()
    .get("/provisions/:document/:number/versions", guard("corpus:read"), noQuery(), versions)
    .get("/provisions/:id/versions", guard("corpus:read"), noQuery(), versions)
    .get("/provisions/:document/:number/diff", guard("corpus:read"), validate("query", diffQuerySchema), diff)
    .get("/provisions/:id/diff", guard("corpus:read"), validate("query", diffQuerySchema), diff);
}

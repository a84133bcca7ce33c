import { type Response, Router } from "express";
import { z } from "zod";
import type { Principal } from "../../access/keys.ts";
import { domainSchema } from "../../core/domains.ts";
import { AppError } from "../../core/errors.ts";
import {
  countDocumentProvisions,
  findDocument,
  listDocumentProvisions,
  listSections,
  type SectionRecord,
} from "../../store/corpus-queries.ts";
import type { AppContext } from "../context.ts";
import { type Meta, meta } from "../envelope.ts";
import { type access, principal } from "../middleware/access.ts";
import { parsed, pathParameter, validate } from "../middleware/validate.ts";
import { filterBlock, provisionUrl } from "../presenters/search.ts";
import { booleanParam, filterSchema, metaSchema, paginationSchema, wholeNumberParam } from "../schemas.ts";

export const MAX_DOCUMENT_PAGE = 200;

export const documentQuerySchema = z
  .object({
    limit: wholeNumberParam(1, MAX_DOCUMENT_PAGE)
      .default(50)
      .meta({ description: `Provisions per page, 1–${MAX_DOCUMENT_PAGE}.` }),
    offset: wholeNumberParam(0).default(0),
    section: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .meta({ description: "Only the provisions under this section (its id from `toc`)." }),
    toc: booleanParam(true, "Include the table of contents."),
  })
  .strict();

export interface TocNode {
  id: string;
  title: string;
  sections: TocNode[];
}

const tocNodeSchema: z.ZodType<TocNode> = z
  .object({
    id: z.string(),
    title: z.string(),
    get sections() {
      return z.array(tocNodeSchema);
    },
  })
  .meta({ id: "TocNode" });

export const documentResponseSchema = z
  .object({
    data: z.object({
      id: z.string().meta({ example: "code-du-travail" }),
      title: z.string(),
      kind: z.string(),
      jurisdiction: z.string(),
      status: z.string(),
      effective_from: z.string().nullable(),
      effective_to: z.string().nullable(),
      modified_on: z.string().nullable(),
      domains: z.array(domainSchema),
      source: z.object({ name: z.string(), document_id: z.string(), snapshot: z.string().nullable() }),
      provision_count: z.number(),
      toc: z.array(tocNodeSchema).optional(),
      provisions: z.array(
        z.object({
          id: z.string(),
          number: z.string(),
          section_id: z.string().nullable(),
          status: z.string(),
          effective_from: z.string().nullable(),
          effective_to: z.string().nullable(),
          text: z.string(),
          url: z.string(),
        }),
      ),
    }),
    pagination: paginationSchema,
    filter: filterSchema.optional().meta({
      description: "Present for a key limited to some fields of law: only its provisions in them are listed.",
    }),
    meta: metaSchema,
  })
  .meta({ id: "DocumentResponse" });

function buildToc(sections: SectionRecord[]): TocNode[] {
  const roots: TocNode[] = [];
  const byId = new Map<string, TocNode>();
  for (const s of sections) {
    const node: TocNode = { id: s.sourceId, title: s.title, sections: [] };
    byId.set(s.sourceId, node);
    (s.parentSourceId ? (byId.get(s.parentSourceId)?.sections ?? roots) : roots).push(node);
  }
  return roots;
}

function subtree(sections: SectionRecord[], rootId: string): string[] {
  const ids = new Set([rootId]);
  for (const s of sections) if (s.parentSourceId && ids.has(s.parentSourceId)) ids.add(s.sourceId);
  return [...ids];
}

/** A document and a page of its provisions, for the HTTP route and the MCP tool alike. */
export async function documentBody(
  ctx: AppContext,
  who: Principal,
  id: string,
  query: z.output<typeof documentQuerySchema>,
  meta: Meta,
): Promise<z.infer<typeof documentResponseSchema>> {
  const doc = await findDocument(ctx.db, id);
  if (!doc)
    throw new AppError(
      "not_found",
      `No published document with id ${id}. It may not be loaded yet: see the coverage.`,
    );
  // A key limited to some fields of law reads the document's provisions in them, if it has any.
  const domains = who.domains;
  if (domains && (await countDocumentProvisions(ctx.db, doc.id, null, domains)) === 0) {
    throw new AppError(
      "forbidden",
      `This key is limited to ${domains.join(", ")}; document ${doc.publicId} has no provision in them.`,
    );
  }
  const sections = await listSections(ctx.db, doc.id);
  if (query.section && !sections.some((s) => s.sourceId === query.section)) {
    throw new AppError(
      "invalid_request",
      `section: no section ${query.section} in ${doc.publicId}`,
      "section",
    );
  }
  const sectionIds = query.section ? subtree(sections, query.section) : null;
  const provisions = await listDocumentProvisions(ctx.db, doc.id, {
    limit: query.limit,
    offset: query.offset,
    sectionIds,
    domains,
  });
  const total =
    sectionIds || domains
      ? await countDocumentProvisions(ctx.db, doc.id, sectionIds, domains)
      : doc.provisionCount;
  const next = query.offset + provisions.length;
  return {
    data: {
      id: doc.publicId,
      title: doc.title,
      kind: doc.kind,
      jurisdiction: doc.jurisdiction,
      status: doc.status,
      effective_from: doc.effectiveFrom,
      effective_to: doc.effectiveTo,
      modified_on: doc.modifiedOn,
      domains: doc.domains,
      source: { name: doc.source, document_id: doc.sourceId, snapshot: doc.sourceVersion },
      provision_count: doc.provisionCount,
      ...(query.toc ? { toc: buildToc(sections) } : {}),
      provisions: provisions.map((p) => ({
        id: p.publicId,
        number: p.number,
        section_id: p.sectionSourceId,
        status: p.status,
        effective_from: p.effectiveFrom,
        effective_to: p.effectiveTo,
        text: p.text,
        url: provisionUrl(p.publicId),
      })),
    },
    pagination: {
      limit: query.limit,
      offset: query.offset,
      total,
      next_offset: provisions.length > 0 && next < total ? next : null,
    },
    ...filterBlock({ domains, restrictedByKey: domains !== null }, "exact"),
    meta,
  };
}

export function documentsRouter(ctx: AppContext, guard: ReturnType<typeof access>): Router {
  return Router().get(
    "/documents/:id",
    guard("corpus:read"),
    validate("query", documentQuerySchema),
    async (req, res: Response) => {
      res.json(
        await documentBody(
          ctx,
          principal(res),
          pathParameter(req.params.id, "id"),
          parsed(res, "query", documentQuerySchema),
          meta(res),
        ),
      );
    },
  );
}

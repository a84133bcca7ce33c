import { z } from "zod";
import { domainSchema } from "../core/domains.ts";
import type { DocumentPage } from "../corpus/documents.ts";
import {
  filterBlock,
  filterSchema,
  type Meta,
  metaSchema,
  paginationSchema,
  provisionUrl,
} from "./envelope.ts";

/** A document: what it is, optionally its table of contents, and a page of its provisions. */

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

function buildToc(sections: DocumentPage["sections"]): TocNode[] {
  const roots: TocNode[] = [];
  const byId = new Map<string, TocNode>();
  for (const s of sections) {
    const node: TocNode = { id: s.sourceId, title: s.title, sections: [] };
    byId.set(s.sourceId, node);
    (s.parentSourceId ? (byId.get(s.parentSourceId)?.sections ?? roots) : roots).push(node);
  }
  return roots;
}

/** The table of contents to `depth` levels: deeper sections are left out (ask with `section`). */
export function pruneToc(nodes: TocNode[], depth: number): TocNode[] {
  return nodes.map((node) => ({ ...node, sections: depth > 1 ? pruneToc(node.sections, depth - 1) : [] }));
}

export function presentDocument(
  { document: doc, sections, provisions, total, domains }: DocumentPage,
  page: { limit: number; offset: number; toc: boolean; tocDepth?: number | undefined },
  meta: Meta,
): z.infer<typeof documentResponseSchema> {
  const next = page.offset + provisions.length;
  const toc = page.toc ? buildToc(sections) : undefined;
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
      ...(toc ? { toc: page.tocDepth ? pruneToc(toc, page.tocDepth) : toc } : {}),
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
      limit: page.limit,
      offset: page.offset,
      total,
      next_offset: provisions.length > 0 && next < total ? next : null,
    },
    ...filterBlock({ domains, restrictedByKey: domains !== null }, "exact"),
    meta,
  };
}

import type { z } from "zod";
import type { AmendingActRecord, ProvisionRecord, VersionRecord } from "../../store/corpus-queries.ts";
import type { provisionSchema } from "../routes/provisions.ts";
import { provisionUrl } from "./search.ts";

export function presentProvision(
  p: ProvisionRecord,
  versions: VersionRecord[],
  acts: AmendingActRecord[],
): z.infer<typeof provisionSchema> {
  return {
    id: p.publicId,
    number: p.number,
    text: p.text,
    text_html: p.textHtml,
    notes: p.notes,
    status: p.status,
    effective_from: p.effectiveFrom,
    effective_to: p.effectiveTo,
    in_current_source: p.presentInSource,
    document: {
      id: p.document.publicId,
      title: p.document.title,
      url: `/api/v1/documents/${p.document.publicId}`,
    },
    section_path: p.sectionPath,
    domains: p.domains,
    source: {
      name: p.document.source,
      snapshot: p.document.sourceVersion,
      document_id: p.document.sourceId,
      article_id: p.sourceId,
      version_id: p.versionId,
      source_status: p.sourceStatus,
    },
    versions: versions.map((v) => ({
      version_id: v.versionId,
      label: v.label,
      status: v.status,
      effective_from: v.effectiveFrom,
      effective_to: v.effectiveTo,
      text_available: v.hasText,
    })),
    amended_by: acts.map((a) => ({
      act_id: a.actId,
      title: a.actTitle,
      kind: a.actKind,
      relation: a.relation,
      effective_on: a.effectiveOn,
      published_on: a.publishedOn,
    })),
    url: provisionUrl(p.publicId),
    updated_at: p.updatedAt.toISOString(),
  };
}

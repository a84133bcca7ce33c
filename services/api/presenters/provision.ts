import type { z } from "zod";
import type { AsOfReading } from "../../changes/versions.ts";
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

type Provision = z.infer<typeof provisionSchema>;

/** The provision as in force on a day: that version's text, status and dates, and a plain statement when we lack them. */
export function presentAsOf(p: Provision, reading: AsOfReading, date: string, noTextNote: string): Provision {
  if (reading.kind === "in_force") {
    const v = reading.version;
    const text = v.text ?? null;
    return {
      ...p,
      text,
      text_html: v.versionId === p.source.version_id ? p.text_html : null,
      status: "in_force",
      effective_from: v.effectiveFrom,
      effective_to: v.effectiveTo,
      as_of: {
        date,
        version_id: v.versionId,
        text_available: text !== null,
        note:
          text === null
            ? `Version ${v.versionId} was in force on ${date} (from ${v.effectiveFrom ?? "an unknown date"} to ${v.effectiveTo ?? "now"}), but we do not hold its text. ${noTextNote}`
            : null,
      },
    };
  }
  const note =
    reading.kind === "not_yet_in_force"
      ? `Not yet in force on ${date}${reading.firstFrom ? `: its first version took effect on ${reading.firstFrom}` : ""}.`
      : `No longer in force on ${date}: it ${reading.repealed ? "was repealed" : "ended"}${reading.endedOn ? ` on ${reading.endedOn}` : ""}.`;
  return {
    ...p,
    text: null,
    text_html: null,
    status: reading.kind === "not_yet_in_force" ? "not_yet_in_force" : "repealed",
    effective_from: null,
    effective_to: null,
    as_of: { date, version_id: null, text_available: false, note },
  };
}

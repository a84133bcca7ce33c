import { z } from "zod";
import { domainSchema } from "../core/domains.ts";
import { NO_TEXT_NOTE, type ProvisionReading } from "../corpus/provisions.ts";
import type { AsOfReading } from "../corpus/versions.ts";
import { type Meta, metaSchema, provisionUrl } from "./envelope.ts";

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

export const provisionResponseSchema = z
  .object({ data: provisionSchema, meta: metaSchema })
  .meta({ id: "ProvisionResponse" });

type Provision = z.infer<typeof provisionSchema>;

/** One provision, as in force on the day asked for when one was. */
export function presentProvision(
  reading: ProvisionReading,
  meta: Meta,
): z.infer<typeof provisionResponseSchema> {
  const data = presentCurrent(reading);
  return { data: reading.asOf ? presentAsOf(data, reading.asOf.reading, reading.asOf.date) : data, meta };
}

function presentCurrent({ provision: p, versions, acts }: ProvisionReading): Provision {
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

/** The provision as in force on a day: that version's text, status and dates, and a plain statement when we lack them. */
function presentAsOf(p: Provision, reading: AsOfReading, date: string): Provision {
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
            ? `Version ${v.versionId} was in force on ${date} (from ${v.effectiveFrom ?? "an unknown date"} to ${v.effectiveTo ?? "now"}), but we do not hold its text. ${NO_TEXT_NOTE}`
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

import { z } from "zod";
import { NO_TEXT_NOTE, type ProvisionDiff } from "../corpus/provisions.ts";
import type { ProvisionRecord, VersionRecord } from "../store/corpus-queries.ts";
import { type Meta, metaSchema, provisionUrl } from "./envelope.ts";

/** A provision's versions, and a word diff between two of them. */

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

const ref = (p: ProvisionRecord) => ({ id: p.publicId, number: p.number, url: provisionUrl(p.publicId) });

export function presentVersions(
  provision: ProvisionRecord,
  versions: VersionRecord[],
  meta: Meta,
): z.infer<typeof versionsResponseSchema> {
  return {
    data: {
      provision: ref(provision),
      versions: versions.map((v) => ({
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
    meta,
  };
}

export function presentDiff(
  { provision, from, to, diff }: ProvisionDiff,
  meta: Meta,
): z.infer<typeof diffResponseSchema> {
  const end = (v: VersionRecord) => ({
    version_id: v.versionId,
    effective_from: v.effectiveFrom,
    effective_to: v.effectiveTo,
  });
  return {
    data: {
      provision: ref(provision),
      from: end(from),
      to: end(to),
      changes: diff.parts,
      words_inserted: diff.inserted,
      words_deleted: diff.deleted,
    },
    meta,
  };
}

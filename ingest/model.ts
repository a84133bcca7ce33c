import { z } from "zod";

/**
 * The canonical document model. Every source adapter (LEGI today, hand-written canonical JSON,
 * other countries tomorrow) produces `CanonicalDocument`s, and only this model reaches the store.
 * Adding a source means writing an adapter to this model, nothing else.
 */

const isoDate = z.iso.date().describe("A calendar date, YYYY-MM-DD.");

export const provisionStatusSchema = z
  .enum(["in_force", "repealed", "not_yet_in_force"])
  .describe("Legal status as the source reports it on the snapshot date.");

export const versionStatusSchema = z
  .enum(["in_force", "repealed", "not_yet_in_force", "superseded"])
  .describe("Status of one version: `superseded` when a later version replaced it.");

export const sectionSchema = z.object({
  id: z.string().min(1).describe("Source id of the section, unique in the document."),
  parentId: z.string().min(1).nullable().describe("Parent section id; null at the top level."),
  title: z.string().min(1),
  status: z.string().nullable().default(null),
  effectiveFrom: isoDate.nullable().default(null),
  effectiveTo: isoDate.nullable().default(null),
});

export const versionSchema = z.object({
  versionId: z.string().min(1).describe("Source id of this version."),
  label: z.string().nullable().default(null),
  status: versionStatusSchema,
  sourceStatus: z.string().nullable().default(null),
  effectiveFrom: isoDate.nullable(),
  effectiveTo: isoDate.nullable().describe("Null when open-ended."),
  text: z.string().nullable().default(null).describe("The text of this version when the source gives it."),
  repealedOn: isoDate
    .nullable()
    .default(null)
    .describe(
      "When this version ends by repeal rather than by a later version: the date the repeal takes effect (may be in the future). Null otherwise.",
    ),
});

export const linkSchema = z.object({
  actId: z.string().min(1).describe("Source id of the other act (e.g. JORFTEXT…)."),
  actTitle: z.string().nullable().default(null),
  actKind: z.string().nullable().default(null).describe("LOI, DECRET, ORDONNANCE…"),
  relation: z.string().min(1).describe("Kind of link as the source names it: MODIFIE, CREE, ABROGE…"),
  direction: z
    .enum(["amended_by", "amends"])
    .describe("`amended_by`: the other act changed this provision; `amends`: this provision acts on it."),
  actArticleId: z.string().nullable().default(null),
  actArticleNumber: z.string().nullable().default(null),
  publishedOn: isoDate.nullable().default(null),
  signedOn: isoDate.nullable().default(null),
  effectiveOn: isoDate.nullable().default(null).describe("When the change took effect on this provision."),
});

export const provisionSchema = z.object({
  sourceId: z.string().min(1).describe("Stable source id across versions (LEGI cid)."),
  versionId: z.string().min(1).describe("Source id of the current version."),
  number: z.string().min(1).describe("Article number as printed: L1237-1-1."),
  text: z.string().min(1),
  html: z.string().nullable().default(null),
  notes: z.string().nullable().default(null),
  status: provisionStatusSchema,
  sourceStatus: z.string().nullable().default(null),
  effectiveFrom: isoDate.nullable(),
  effectiveTo: isoDate.nullable(),
  sectionId: z.string().nullable().describe("Innermost section; null when the provision sits at the top."),
  heading: z
    .string()
    .min(1)
    .nullable()
    .default(null)
    .describe(
      "The provision's own title when the source gives one (a collective agreement's « Période d'essai » above article 3.4); it ends the provision's section path.",
    ),
  versions: z.array(versionSchema).default([]),
  links: z.array(linkSchema).default([]),
});

export const documentKindSchema = z.enum([
  "code",
  "law",
  "ordinance",
  "decree",
  "order",
  "constitution",
  "treaty",
  "collective_agreement",
  "other",
]);

export const canonicalDocumentSchema = z.object({
  source: z.object({
    name: z.string().min(1).describe("Adapter name: legi, canonical…"),
    documentId: z.string().min(1).describe("The source's id of the document (LEGITEXT…)."),
    version: z.string().nullable().default(null).describe("Snapshot the document comes from."),
  }),
  publicId: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/),
  kind: documentKindSchema,
  title: z.string().min(1),
  shortTitle: z
    .string()
    .min(1)
    .nullable()
    .default(null)
    .describe(
      "A short title when the source gives one (a collective agreement's « Bureaux d'études techniques… »).",
    ),
  aliases: z
    .array(z.string().min(1))
    .default([])
    .describe(
      "Other names the document is cited by: a usual name (« Syntec »), an identifier (« IDCC 1486 »).",
    ),
  jurisdiction: z.string().length(2).describe("ISO 3166-1 alpha-2 country code."),
  status: provisionStatusSchema,
  sourceStatus: z.string().nullable().default(null),
  effectiveFrom: isoDate.nullable(),
  effectiveTo: isoDate.nullable(),
  modifiedOn: isoDate.nullable().default(null),
  sections: z.array(sectionSchema).describe("Table of contents in document order."),
  provisions: z.array(provisionSchema).describe("Provisions in document order."),
});

export type CanonicalSection = z.infer<typeof sectionSchema>;
export type CanonicalVersion = z.infer<typeof versionSchema>;
export type CanonicalLink = z.infer<typeof linkSchema>;
export type CanonicalProvision = z.infer<typeof provisionSchema>;
export type CanonicalDocument = z.infer<typeof canonicalDocumentSchema>;
export type CanonicalDocumentInput = z.input<typeof canonicalDocumentSchema>;

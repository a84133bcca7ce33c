import { z } from "zod";
import { documentKindSchema, linkSchema, provisionStatusSchema, versionSchema } from "../../model.ts";

/**
 * The canonical JSON file format: what a corpus editor writes by hand to load an act from any
 * source. It is the canonical model with a nested body and friendly defaults; the adapter
 * (adapter.ts) flattens it. docs/canonical-document.schema.json is generated from this schema.
 */

export const CANONICAL_FORMAT = "legal-corpus/canonical-v1";

const isoDate = z.iso.date().describe("A calendar date, YYYY-MM-DD.");

export const articleNodeSchema = z
  .object({
    article: z.string().min(1).describe('Article number as printed, e.g. "L1237-1-1" or "1".'),
    id: z
      .string()
      .min(1)
      .optional()
      .describe("Stable source id of the article; default: <document id>/<number>."),
    versionId: z
      .string()
      .min(1)
      .optional()
      .describe("Source id of this version; default derived from id and date."),
    heading: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The article's own title when it has one, e.g. \"Période d'essai\"; it ends its section path.",
      ),
    text: z.string().min(1).describe("Plain text of the article in its current version."),
    html: z.string().optional(),
    notes: z.string().optional(),
    status: provisionStatusSchema.optional().describe("Default: in_force."),
    effectiveFrom: isoDate.nullable().optional(),
    effectiveTo: isoDate.nullable().optional().describe("Null or absent when open-ended."),
    versions: z.array(versionSchema).optional().describe("Earlier and later versions, when known."),
    links: z.array(linkSchema).optional().describe("Acts that amended this article, or that it amends."),
  })
  .strict();

export interface SectionNode {
  section: string;
  id?: string | undefined;
  body: Array<SectionNode | z.infer<typeof articleNodeSchema>>;
}

export const sectionNodeSchema: z.ZodType<SectionNode> = z
  .object({
    section: z.string().min(1).describe('Heading of the section, e.g. "Titre Ier : Dispositions générales".'),
    id: z
      .string()
      .min(1)
      .optional()
      .describe("Stable source id of the section; default derived from its position."),
    get body() {
      return z.array(z.union([sectionNodeSchema, articleNodeSchema]));
    },
  })
  .strict();

export const canonicalDocumentFileSchema = z
  .object({
    id: z
      .string()
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "lower-case words separated by hyphens")
      .describe('Public id of the document, e.g. "loi-2016-1088". Provision ids become <id>/<number>.'),
    source: z.string().min(1).default("canonical").describe("Where the act comes from (jorf, eur-lex…)."),
    sourceId: z.string().min(1).optional().describe("The source's id of the act; default: id."),
    sourceVersion: z.string().optional().describe("The snapshot or edition the file was written from."),
    kind: documentKindSchema.default("law"),
    title: z.string().min(1),
    shortTitle: z.string().min(1).optional().describe('A short title, e.g. "Loi travail".'),
    aliases: z
      .array(z.string().min(1))
      .optional()
      .describe('Other names the act is cited by, e.g. ["loi El Khomri"]; citations and search read them.'),
    jurisdiction: z.string().length(2).default("FR"),
    status: provisionStatusSchema.default("in_force"),
    effectiveFrom: isoDate.nullable().optional(),
    effectiveTo: isoDate.nullable().optional(),
    modifiedOn: isoDate.nullable().optional(),
    body: z.array(z.union([sectionNodeSchema, articleNodeSchema])).min(1),
  })
  .strict();

export const canonicalFileSchema = z
  .object({
    $schema: z.string().optional(),
    format: z.literal(CANONICAL_FORMAT),
    documents: z.array(canonicalDocumentFileSchema).min(1),
  })
  .strict()
  .describe("Acts written by hand for the legal corpus; load with `corpus ingest file <path>`.");

export type CanonicalDocumentFile = z.infer<typeof canonicalDocumentFileSchema>;

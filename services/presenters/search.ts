import { z } from "zod";
import { domainSchema } from "../core/domains.ts";
import { type CorpusSearchOutcome, MAX_SEARCH_OFFSET, type Spelling } from "../corpus/search.ts";
import {
  documentRefSchema,
  filterBlock,
  filterSchema,
  type Meta,
  metaSchema,
  paginationSchema,
  provisionUrl,
} from "./envelope.ts";

const searchHitSchema = z
  .object({
    id: z.string().meta({ example: "code-du-travail/L1237-1-1" }),
    number: z.string(),
    document: documentRefSchema,
    section_path: z.array(z.string()),
    snippet: z
      .string()
      .meta({ description: "Plain text around the matches; matched terms are wrapped in <mark>…</mark>." }),
    status: z.enum(["in_force", "repealed", "not_yet_in_force"]),
    effective_from: z.string().nullable(),
    effective_to: z.string().nullable(),
    domains: z.array(domainSchema),
    score: z.number(),
    classified_by: z.literal("document_title").optional().meta({
      description:
        "Present when filter.mode is best_effort and this provision's domains come from its document's title.",
    }),
    version_not_loaded: z.literal(true).optional().meta({
      description:
        "Present when the provision is in force on as_of in a version the loaded snapshot lists without its text (a later one, or an earlier one for a past as_of): snippet, effective_from and effective_to are of the version we hold. GET the provision with as_of for its versions.",
    }),
    url: z.string().meta({ description: "This provision in the API." }),
  })
  .meta({ id: "SearchHit" });

/** The collective agreement or code a query or question named, within which it was searched. */
export const namedDocumentSchema = z.object({
  id: z.string().meta({ example: "idcc-1486" }),
  named_as: z.string().meta({ description: "The words that named it.", example: "syntec" }),
});

/** Words of the query read otherwise (services/search/spelling.ts), and what was searched. */
export const spellingSchema = z
  .object({
    read_as: z.string().meta({
      description:
        "What was searched: the query (within a named agreement or code, the rest of it) with the words below read otherwise.",
      example: "rupture conventionnelle",
    }),
    corrections: z.array(
      z.object({
        typed: z.string().meta({ example: "conventionelle" }),
        read_as: z.string().meta({ example: "conventionnelle" }),
      }),
    ),
  })
  .meta({ id: "Spelling" });

export const presentSpelling = (spelling: Spelling) => ({
  read_as: spelling.readAs,
  corrections: spelling.corrections.map((c) => ({ typed: c.typed, read_as: c.readAs })),
});

export const searchResponseSchema = z
  .object({
    data: z.array(searchHitSchema),
    pagination: paginationSchema,
    filter: filterSchema.optional().meta({ description: "Present when a domain filter applied." }),
    named_document: namedDocumentSchema.optional().meta({
      description:
        "Present when q named one collective agreement (« IDCC 1486 », « convention collective Syntec », « Syntec ») or one code by its title (« travail de nuit code du travail », « code rural ») and no document was given: the search ran within that document, on the rest of q.",
    }),
    spelling: spellingSchema.optional().meta({
      description:
        "Present when a word of q of four letters or more is used by no provision and one keystroke (a letter left out, added, replaced, or two swapped) makes of it a word provisions use: it was searched as the most used such word. A French word, accents aside, is never read so (« yeux » is not « deux »), except a feminine in « -ée(s) », read as its masculine (« harcelée »: « harcelé ») when that is French too and provisions use it.",
    }),
    partial_match: z.literal(true).optional().meta({
      description:
        "Present when no provision holds both words of a query of two, or half the words of a longer one: the results hold some of its words, best first, instead of none. (A query of two words always finds the provisions holding either, those holding both usually first, unless one of them is the article number it names.)",
    }),
    meta: metaSchema,
  })
  .meta({ id: "SearchResponse" });

export function presentSearch(
  outcome: CorpusSearchOutcome,
  page: { limit: number; offset: number },
  meta: Meta,
): z.infer<typeof searchResponseSchema> {
  const nextOffset = page.offset + outcome.hits.length;
  return {
    data: outcome.hits.map((hit) => ({
      id: hit.publicId,
      number: hit.number,
      document: { id: hit.document.publicId, title: hit.document.title },
      section_path: hit.sectionPath,
      snippet: hit.snippet,
      status: hit.status,
      effective_from: hit.effectiveFrom,
      effective_to: hit.effectiveTo,
      domains: hit.domains,
      score: hit.score,
      ...(hit.classifiedBy ? { classified_by: hit.classifiedBy } : {}),
      ...(hit.versionNotLoaded ? { version_not_loaded: true as const } : {}),
      url: provisionUrl(hit.publicId),
    })),
    pagination: {
      limit: page.limit,
      offset: page.offset,
      total: outcome.total,
      // Null at the end, and where the next page would be one the API refuses (offset over its limit).
      next_offset:
        nextOffset < outcome.total && outcome.hits.length > 0 && nextOffset <= MAX_SEARCH_OFFSET
          ? nextOffset
          : null,
    },
    ...filterBlock(outcome.filter, outcome.filterMode),
    ...(outcome.namedDocument
      ? { named_document: { id: outcome.namedDocument.id, named_as: outcome.namedDocument.namedAs } }
      : {}),
    ...(outcome.spelling ? { spelling: presentSpelling(outcome.spelling) } : {}),
    ...(outcome.partial ? { partial_match: true as const } : {}),
    meta,
  };
}

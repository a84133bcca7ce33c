import { z } from "zod";
import type { AnswerOutcome } from "../answer/service.ts";
import { filterBlock, filterSchema, type Meta, metaSchema, provisionUrl } from "./envelope.ts";
import { namedDocumentSchema, presentSpelling, spellingSchema } from "./search.ts";

/** An answer: its sentences with the provisions each comes from, and every source retrieved. */

const sourceSchema = z.object({
  id: z.string().meta({ example: "code-du-travail/L1221-19" }),
  document: z.object({ id: z.string(), title: z.string() }),
  number: z.string(),
  status: z.string(),
  effective_from: z.string().nullable(),
  effective_to: z.string().nullable(),
  cited: z.boolean().meta({ description: "True when an answer sentence cites it." }),
  excerpt: z.string().meta({
    description:
      "The cited sentences, verbatim (a long enumeration's item after its lead-in, « […] » for the items between); or the start of an uncited source.",
  }),
  url: z.string(),
});

export const answerResponseSchema = z
  .object({
    data: z.object({
      question: z.string(),
      answer: z.object({
        text: z.string().meta({
          description:
            "The sentences, joined. When the evidence is insufficient, the closest statements the sources hold, which do not answer (evidence_note says why); empty when no sentence covers a third of the question and none of search's first provisions states one of its rare words (such a sentence is quoted as context, never as evidence).",
        }),
        sentences: z
          .array(
            z.object({
              text: z.string(),
              citations: z
                .array(z.string())
                .min(1)
                .meta({ description: "Public ids of the sources it comes from." }),
            }),
          )
          .meta({
            description:
              "Each sentence with the provisions it comes from (extractive: copied verbatim; from an enumeration of over 120 words, its lead-in and one numbered item, « […] » standing for the items left out).",
          }),
      }),
      evidence: z.enum(["sufficient", "insufficient"]),
      evidence_note: z.string().nullable().meta({
        description:
          "When the evidence is insufficient: what that means (the question's words no quoted sentence states, or too little of the question covered) and what to do.",
      }),
      unstated_words: z.array(z.string()).meta({
        description:
          "The question's rare words (the rarer half by how many provisions use them) that no quoted sentence states itself, rarest first, as the question writes them (abbreviations spelt out). Empty when every one is stated; never empty on an insufficient answer with sentences unless they cover too little of the question.",
      }),
      sources: z.array(sourceSchema),
      composer: z.enum(["extractive", "generative"]),
      fallback_reason: z
        .string()
        .nullable()
        .meta({ description: "Why a generative answer was refused and the extractive one given instead." }),
      as_of: z.string(),
    }),
    filter: filterSchema.optional(),
    named_document: namedDocumentSchema.optional().meta({
      description:
        "Present when the question named one collective agreement (« IDCC 1486 », « convention collective Syntec », « Syntec ») or one code by its title (« code du travail »): the answer was drawn from that document alone, on the rest of the question.",
    }),
    spelling: spellingSchema.optional().meta({
      description:
        "Present when words of the question were read otherwise, as search reads them: the sources were searched, and the sentences chosen, for read_as.",
    }),
    meta: metaSchema,
  })
  .meta({ id: "AnswerResponse" });

export function presentAnswer(outcome: AnswerOutcome, meta: Meta): z.infer<typeof answerResponseSchema> {
  return {
    data: {
      question: outcome.question,
      answer: { text: outcome.sentences.map((s) => s.text).join(" "), sentences: outcome.sentences },
      evidence: outcome.evidence,
      evidence_note: outcome.evidenceNote,
      unstated_words: outcome.unstatedWords,
      sources: outcome.sources.map((s) => ({
        id: s.publicId,
        document: { id: s.document.publicId, title: s.document.title },
        number: s.number,
        status: s.status,
        effective_from: s.effectiveFrom,
        effective_to: s.effectiveTo,
        cited: s.cited,
        excerpt: s.excerpt,
        url: provisionUrl(s.publicId),
      })),
      composer: outcome.composer,
      fallback_reason: outcome.fallbackReason,
      as_of: outcome.asOf,
    },
    ...filterBlock(outcome.filter, outcome.filterMode),
    ...(outcome.namedDocument
      ? { named_document: { id: outcome.namedDocument.id, named_as: outcome.namedDocument.namedAs } }
      : {}),
    ...(outcome.spelling ? { spelling: presentSpelling(outcome.spelling) } : {}),
    meta,
  };
}

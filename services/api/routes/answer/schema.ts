import { z } from "zod";
import { MAX_ANSWER_SOURCES, MAX_QUESTION_CHARS } from "../../../answer/service.ts";
import { domainSchema } from "../../../core/domains.ts";
import { isoDateParam } from "../../params.ts";

export const answerRequestSchema = z
  .object({
    question: z
      .string()
      .trim()
      .min(3, "is required (at least 3 characters)")
      .max(MAX_QUESTION_CHARS)
      .meta({
        description: `The legal question, in French, up to ${MAX_QUESTION_CHARS} characters.`,
        example: "Quelle est la durée maximale de la période d'essai d'un ouvrier en CDI ?",
      }),
    domains: z
      .array(domainSchema)
      .min(1)
      .optional()
      .meta({ description: "Only provisions in these fields of law (same rules as search)." }),
    max_sources: z
      .number()
      .int()
      .min(1)
      .max(MAX_ANSWER_SOURCES)
      .default(5)
      .meta({ description: `At most this many sources, 1–${MAX_ANSWER_SOURCES} (default 5).` }),
    as_of: isoDateParam
      .optional()
      .meta({ description: "Answer from the provisions in force that day (default today)." }),
  })
  .strict()
  .meta({ id: "AnswerRequest" });

import { z } from "zod";
import {
  answerQuestion,
  ensurePlanAllowsAnswers,
  MAX_ANSWER_SOURCES,
  MAX_QUESTION_CHARS,
} from "../../answer/service.ts";
import { type Domain, domainSchema } from "../../core/domains.ts";
import { answerResponseSchema, presentAnswer } from "../../presenters/answer.ts";
import { defineTool } from "../tool.ts";

/** Offered only to keys whose plan includes the answer endpoint (server.ts). */
export const answerQuestionTool = defineTool({
  name: "answer_question",
  title: "Answer a legal question from the loaded law",
  description:
    "An answer made only of sentences from the provisions it cites (each with its public id). Read `evidence` first: when it is insufficient, the sentences (if any) are the closest the loaded corpus holds, not an answer, and `evidence_note` and `unstated_words` say which of the question's words none of them states. Check the cited provisions before relying on the answer.",
  scope: "answer:write",
  input: z.object({
    question: z
      .string()
      .trim()
      .min(3)
      .max(MAX_QUESTION_CHARS)
      .describe("The question, in French, as a person would ask it."),
    domains: z.array(domainSchema).min(1).optional().describe("Only provisions in these fields of law."),
    max_sources: z
      .number()
      .int()
      .min(1)
      .max(MAX_ANSWER_SOURCES)
      .default(5)
      .describe(`At most this many sources, 1–${MAX_ANSWER_SOURCES}.`),
    as_of: z.iso
      .date()
      .optional()
      .describe("Answer from the provisions in force that day, YYYY-MM-DD (default today)."),
  }),
  output: answerResponseSchema,
  run: async ({ ctx, who, plan, meta }, input) => {
    ensurePlanAllowsAnswers(plan);
    const outcome = await answerQuestion(
      ctx,
      who,
      {
        question: input.question,
        domains: input.domains as Domain[] | undefined,
        maxSources: input.max_sources,
        asOf: input.as_of,
      },
      "mcp",
    );
    return presentAnswer(outcome, meta);
  },
});

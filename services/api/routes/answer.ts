import express, { Router } from "express";
import { z } from "zod";
import type { Principal } from "../../access/keys.ts";
import { answerQuestion, ensurePlanAllowsAnswers, INSUFFICIENT_NOTE } from "../../answer/service.ts";
import { type Domain, domainSchema } from "../../core/domains.ts";
import type { PlanRow } from "../../store/access.ts";
import type { AppContext } from "../context.ts";
import { type Meta, meta } from "../envelope.ts";
import { type access, chargeExtra, principal } from "../middleware/access.ts";
import { noQuery, parsed, validate } from "../middleware/validate.ts";
import { filterBlock, provisionUrl } from "../presenters/search.ts";
import { filterSchema, isoDateParam, metaSchema } from "../schemas.ts";

/**
 * POST /api/v1/answer: an answer bound to evidence. Every sentence cites the provisions it comes
 * from; when none answers, the response says so instead of inventing (see services/answer).
 */

export const MAX_QUESTION_CHARS = 1000;
export const MAX_ANSWER_SOURCES = 10;
/** The largest answer request body: a question and a few options. */
export const MAX_BODY_BYTES = 64 * 1024;

/** An answer runs two searches and composes: it counts as this many requests against the rate limit. */
export const ANSWER_COST = 5;

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

const sourceSchema = z.object({
  id: z.string().meta({ example: "code-du-travail/L1221-19" }),
  document: z.object({ id: z.string(), title: z.string() }),
  number: z.string(),
  status: z.string(),
  effective_from: z.string().nullable(),
  effective_to: z.string().nullable(),
  cited: z.boolean().meta({ description: "True when an answer sentence cites it." }),
  excerpt: z
    .string()
    .meta({ description: "The cited sentences, verbatim; or the start of an uncited source." }),
  url: z.string(),
});

export const answerResponseSchema = z
  .object({
    data: z.object({
      question: z.string(),
      answer: z.object({
        text: z
          .string()
          .meta({ description: "The sentences, joined. Empty when the evidence is insufficient." }),
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
            description: "Each sentence with the provisions it comes from (extractive: copied verbatim).",
          }),
      }),
      evidence: z.enum(["sufficient", "insufficient"]),
      evidence_note: z
        .string()
        .nullable()
        .meta({ description: "When the evidence is insufficient: what that means and what to do." }),
      sources: z.array(sourceSchema),
      composer: z.enum(["extractive", "generative"]),
      fallback_reason: z
        .string()
        .nullable()
        .meta({ description: "Why a generative answer was refused and the extractive one given instead." }),
      as_of: z.string(),
    }),
    filter: filterSchema.optional(),
    meta: metaSchema,
  })
  .meta({ id: "AnswerResponse" });

export async function answerBody(
  ctx: AppContext,
  who: Principal,
  plan: PlanRow,
  input: z.output<typeof answerRequestSchema>,
  meta: Meta,
  channel: "http" | "mcp",
): Promise<z.infer<typeof answerResponseSchema>> {
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
    channel,
  );
  return {
    data: {
      question: outcome.question,
      answer: { text: outcome.sentences.map((s) => s.text).join(" "), sentences: outcome.sentences },
      evidence: outcome.evidence,
      evidence_note: outcome.evidence === "insufficient" ? INSUFFICIENT_NOTE : null,
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
    meta,
  };
}

export function answerRouter(ctx: AppContext, guard: ReturnType<typeof access>): Router {
  return Router().post(
    "/answer",
    // One request to be let in; the rest of an answer's cost once it is known to be served.
    guard("answer:write"),
    (_req, res, next) => {
      // The plan case of 403 comes before any look at the body.
      ensurePlanAllowsAnswers(res.locals.plan as PlanRow);
      next();
    },
    // The body is read after the key: a refused request never costs a parse, and every answer,
    // a malformed body's included, carries the rate-limit headers.
    express.json({ limit: MAX_BODY_BYTES }),
    noQuery(),
    validate("body", answerRequestSchema),
    async (_req, res) => {
      const refund = await chargeExtra(ctx, res, ANSWER_COST - 1);
      let body: Awaited<ReturnType<typeof answerBody>>;
      try {
        body = await answerBody(
          ctx,
          principal(res),
          res.locals.plan as PlanRow,
          parsed(res, "body", answerRequestSchema),
          meta(res),
          "http",
        );
      } catch (error) {
        // Refused by the service (403 domains) or failed: not an answer given.
        await refund().catch((failure: unknown) =>
          ctx.logger.warn({ err: failure }, "could not refund an answer's cost"),
        );
        throw error;
      }
      ctx.usage.count(principal(res).projectId, ANSWER_COST - 1);
      res.json(body);
    },
  );
}

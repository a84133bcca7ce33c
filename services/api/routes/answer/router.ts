import express, { Router } from "express";
import { ANSWER_COST, answerQuestion, ensurePlanAllowsAnswers } from "../../../answer/service.ts";
import type { Domain } from "../../../core/domains.ts";
import { presentAnswer } from "../../../presenters/answer.ts";
import type { AppContext } from "../../../runtime/context.ts";
import type { PlanRow } from "../../../store/access.ts";
import { meta } from "../../envelope.ts";
import { type access, chargeExtra, principal } from "../../middleware/access.ts";
import { noQuery, parsed, validate } from "../../middleware/validate.ts";
import { answerRequestSchema } from "./schema.ts";

/**
 * POST /api/v1/answer: an answer bound to evidence. Every sentence cites the provisions it comes
 * from; when none answers, the response says so instead of inventing (see services/answer).
 */

/** The largest answer request body: a question and a few options. */
export const MAX_BODY_BYTES = 64 * 1024;

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
      const input = parsed(res, "body", answerRequestSchema);
      const refund = await chargeExtra(ctx, res, ANSWER_COST - 1);
      let outcome: Awaited<ReturnType<typeof answerQuestion>>;
      try {
        outcome = await answerQuestion(
          ctx,
          principal(res),
          {
            question: input.question,
            domains: input.domains as Domain[] | undefined,
            maxSources: input.max_sources,
            asOf: input.as_of,
          },
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
      res.json(presentAnswer(outcome, meta(res)));
    },
  );
}

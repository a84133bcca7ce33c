import type { RequestHandler, Response } from "express";
import { KeyUse } from "../../access/key-use.ts";
import { authenticate, type Principal } from "../../access/keys.ts";
import { PlanCache } from "../../access/plans.ts";
import type { UsageDecision } from "../../access/rate-limits.ts";
import type { Scope } from "../../access/scopes.ts";
import { AppError } from "../../core/errors.ts";
import type { AppContext } from "../../runtime/context.ts";
import type { PlanRow } from "../../store/access.ts";

function setLimitHeaders(res: Response, decision: UsageDecision) {
  res.set("x-ratelimit-limit", String(decision.limit));
  res.set("x-ratelimit-remaining", String(decision.remaining));
  if (decision.monthlyLimit !== undefined) {
    res.set("x-ratelimit-monthly-limit", String(decision.monthlyLimit));
    res.set("x-ratelimit-monthly-remaining", String(decision.monthlyRemaining));
  }
  if (!decision.allowed) {
    res.set("retry-after", String(decision.retryAfterSeconds ?? 60));
    throw new AppError(
      "rate_limited",
      `Too many requests: retry after ${decision.retryAfterSeconds} seconds.`,
    );
  }
}

/**
 * Charges an admitted request what it costs beyond the one request its guard counted, once it
 * is known to be served (a valid body, a plan that allows it): refusals cost 1 like any request.
 * Sets the limit headers again (429 if the extra points exceed the limit); returns the refund
 * to call if the work then fails.
 */
export async function chargeExtra(
  ctx: AppContext,
  res: Response,
  extra: number,
): Promise<() => Promise<void>> {
  const who = principal(res);
  const plan = res.locals.plan as PlanRow;
  const refund = (windows: "both" | "minute" = "both") =>
    ctx.limiter.refundProject(who.projectId, plan, extra, windows);
  const decision = await ctx.limiter.consumeProject(who.projectId, plan, extra);
  // Refused for the limit: that refusal, too, costs only the request already counted (a refusal
  // by the minute's window took nothing from the month's).
  if (!decision.allowed) await refund(decision.monthlyLimit === undefined ? "minute" : "both");
  setLimitHeaders(res, decision);
  return () => refund();
}

export function principal(res: Response): Principal {
  return res.locals.principal as Principal;
}

/** Public pages and unknown paths are counted per client address, and carry the headers too. */
export function anonymousLimit(ctx: AppContext): RequestHandler {
  return async (req, res, next) => {
    setLimitHeaders(res, await ctx.limiter.consumeAnonymous(req.ip ?? "unknown"));
    next();
  };
}

/**
 * Bearer authentication, the project's rate limits (headers on every response, errors included),
 * then the scope. Requests without a valid key are limited per client address.
 */
export function access(ctx: AppContext) {
  const plans = new PlanCache(ctx.db);
  const keyUse = new KeyUse(ctx.db, ctx.logger);
  return (scope: Scope, cost = 1): RequestHandler =>
    async (req, res, next) => {
      let who: Principal;
      try {
        who = await authenticate(ctx.db, ctx.keyHashSecret, req.get("authorization"), ctx.keys);
      } catch (error) {
        setLimitHeaders(res, await ctx.limiter.consumeAnonymous(req.ip ?? "unknown"));
        throw error;
      }
      res.locals.principal = who;
      res.locals.logFields = { key: who.lookupId, project: who.projectName };
      const plan = await plans.get(who.plan);
      res.locals.plan = plan;
      setLimitHeaders(res, await ctx.limiter.consumeProject(who.projectId, plan, cost));
      ctx.usage.count(who.projectId, cost);
      if (!who.scopes.includes(scope)) {
        throw new AppError("forbidden", `This key lacks the ${scope} scope that this endpoint requires.`);
      }
      keyUse.seen(who.keyId);
      next();
    };
}

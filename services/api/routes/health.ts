import { Router } from "express";
import type { AppContext } from "../context.ts";

/**
 * Liveness and readiness, without authentication or rate limits. Readiness fails only when the
 * store cannot answer; a search engine or Redis outage is reported but the API keeps serving
 * what it can (documents and provisions come from Postgres; limits fall back to each process).
 */
export function healthRouter(ctx: AppContext): Router {
  return Router()
    .get("/healthz", (_req, res) => {
      res.json({ status: "ok" });
    })
    .get("/readyz", async (_req, res) => {
      const store = await ctx.db
        .query("SELECT 1")
        .then(() => "ok")
        .catch(() => "unreachable");
      const search = (await ctx.search.ping()) ? "ok" : "unreachable";
      const rateLimits =
        ctx.limiter.backend === "memory"
          ? "memory"
          : ctx.limiter.degraded
            ? "redis unreachable: counting per process"
            : "redis";
      res.status(store === "ok" ? 200 : 503).json({
        status:
          store === "ok" ? (search === "ok" && !ctx.limiter.degraded ? "ready" : "degraded") : "unavailable",
        checks: { store, search: `${ctx.search.name}: ${search}`, rate_limits: rateLimits },
      });
    });
}

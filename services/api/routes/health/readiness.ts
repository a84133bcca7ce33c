import { within } from "../../../core/within.ts";
import type { Readiness } from "../../../presenters/health.ts";
import type { AppContext } from "../../../runtime/context.ts";
import { READINESS_LIMITS, type StoreReadiness, storeReadiness } from "../../../store/readiness.ts";

/**
 * Whether this process can serve. Fails (503) only when the store cannot answer; a busy store, a
 * search engine or Redis outage is reported (`degraded`) but the API keeps serving what it can
 * (documents and provisions come from Postgres; limits fall back to each process). Waits at most
 * half a second (services/store/readiness.ts). `checks.api` is this process's own state: `ok`
 * here; the front (services/runtime/front.ts) says when the API process stopped reporting.
 */
export async function readiness(ctx: AppContext): Promise<Readiness> {
  const storeCheck = storeReadiness(ctx.db);
  const [store, search] = await Promise.all([storeCheck, searchState(ctx, storeCheck)]);
  const ready = store.state === "ok" || store.state === "busy";
  const rateLimits =
    ctx.limiter.backend === "memory"
      ? "memory"
      : ctx.limiter.degraded
        ? "redis unreachable: counting per process"
        : "redis";
  const healthy = store.state === "ok" && search === "ok" && !ctx.limiter.degraded;
  return {
    httpStatus: ready ? 200 : 503,
    body: {
      status: ready ? (healthy ? "ready" : "degraded") : "unavailable",
      checks: {
        api: "ok",
        store: store.detail,
        search: `${ctx.search.name}: ${search}${ctx.search.describe ? `, ${ctx.search.describe()}` : ""}`,
        rate_limits: rateLimits,
      },
    },
  };
}

async function searchState(ctx: AppContext, store: Promise<StoreReadiness>): Promise<string> {
  // The Postgres engine is the store: a probe of its own would queue behind the searches it serves.
  if (ctx.search.name === "postgres") return (await store).state;
  const pinged = await within(ctx.search.ping(), READINESS_LIMITS.probeWaitMs, undefined);
  if (pinged === undefined) return "unresponsive";
  return pinged ? "ok" : "unreachable";
}

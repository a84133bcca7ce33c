import { within } from "../core/within.ts";
import type { Database } from "./database.ts";

export interface ReadinessLimits {
  /** A store that answered any statement this recently is ready: nothing queues behind searches. */
  recentAnswerMs: number;
  /** How long a check waits for its own probe (under the 1 s of a Kubernetes probe's default). */
  probeWaitMs: number;
  /** A store silent this long is unresponsive, however much work it has under way. */
  stalledMs: number;
}

export const READINESS_LIMITS: ReadinessLimits = {
  recentAnswerMs: 5_000,
  probeWaitMs: 500,
  stalledMs: 60_000,
};

/**
 * `busy`: the probe waited behind statements under way (PGlite runs one at a time; a server pool
 * may be full), and the store answered something within `stalledMs`: alive, slow. `unresponsive`
 * and `unreachable` mean it cannot serve.
 */
export type StoreState = "ok" | "busy" | "unresponsive" | "unreachable";

export interface StoreReadiness {
  state: StoreState;
  /** What /readyz shows as `checks.store`. */
  detail: string;
}

const probes = new WeakMap<Database, Promise<"answered" | "failed">>();

/** One probe at a time per store: checks repeated while it waits share it rather than pile up. */
function probe(db: Database): Promise<"answered" | "failed"> {
  let running = probes.get(db);
  if (!running) {
    running = db.query("SELECT 1").then(
      () => "answered" as const,
      () => "failed" as const,
    );
    probes.set(db, running);
    void running.finally(() => probes.delete(db));
  }
  return running;
}

/** Whether the store can answer: at once when it answered lately, else within `probeWaitMs`. */
export async function storeReadiness(db: Database, limits = READINESS_LIMITS): Promise<StoreReadiness> {
  const { lastAnswerAt, inFlight } = db.activity();
  const silentFor = lastAnswerAt === undefined ? Number.POSITIVE_INFINITY : Date.now() - lastAnswerAt;
  if (silentFor < limits.recentAnswerMs) return { state: "ok", detail: "ok" };
  // The work ahead of the probe, not counting a probe still in flight from an earlier check.
  const ahead = inFlight - (probes.has(db) ? 1 : 0);
  const outcome = await within(probe(db), limits.probeWaitMs, "late");
  if (outcome === "answered") return { state: "ok", detail: "ok" };
  if (outcome === "failed") return { state: "unreachable", detail: "unreachable" };
  if (ahead > 0 && silentFor < limits.stalledMs) {
    return {
      state: "busy",
      detail:
        db.kind === "pg"
          ? `saturated: ${ahead} statements running or waiting for a connection`
          : `busy: ${ahead} statements queued or running`,
    };
  }
  return { state: "unresponsive", detail: `unresponsive: no answer within ${limits.probeWaitMs} ms` };
}

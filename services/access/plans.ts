import { findPlan, type PlanRow } from "../store/access.ts";
import type { Database } from "../store/database.ts";

/** Project plans by name. Plans change rarely; a short cache keeps them off the hot path. */
export class PlanCache {
  private readonly cache = new Map<string, { plan: PlanRow; until: number }>();

  constructor(
    private readonly db: Database,
    private readonly ttlMs = 30_000,
  ) {}

  async get(name: string): Promise<PlanRow> {
    const hit = this.cache.get(name);
    if (hit && hit.until > Date.now()) return hit.plan;
    const plan = await findPlan(this.db, name);
    if (!plan) throw new Error(`project plan ${name} does not exist`);
    this.cache.set(name, { plan, until: Date.now() + this.ttlMs });
    return plan;
  }
}

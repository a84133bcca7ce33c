import type { Logger } from "pino";
import { addDailyUsage } from "../store/accounts.ts";
import type { Database } from "../store/database.ts";

/**
 * Requests per project and UTC day, for the console's usage chart. Counting is in memory on the
 * request path; every few seconds the counts are added to `usage_daily` in one statement, so a busy
 * API costs the database one write per interval, not one per request. Counts not yet flushed when
 * a process is killed are lost (at most one interval's); the rate limits, which decide, are
 * counted elsewhere (services/access/rate-limits.ts).
 */
export class UsageMeter {
  private pending = new Map<string, { projectId: number; day: string; requests: number }>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    intervalMs = 5_000,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  /** `cost`: what the request counts for against the plan (an answer counts as 5), as the monthly limit counts it. */
  count(projectId: number, cost = 1, now = new Date()): void {
    const day = now.toISOString().slice(0, 10);
    const key = `${projectId}:${day}`;
    const entry = this.pending.get(key);
    if (entry) entry.requests += cost;
    else this.pending.set(key, { projectId, day, requests: cost });
  }

  /** Adds what was counted to the database; counts that fail to be written are kept for the next try. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = [...this.pending.values()];
      this.pending = new Map();
      try {
        await addDailyUsage(this.db, batch);
      } catch (error) {
        for (const entry of batch) {
          const key = `${entry.projectId}:${entry.day}`;
          const current = this.pending.get(key);
          if (current) current.requests += entry.requests;
          else this.pending.set(key, entry);
        }
        this.logger.warn({ err: error }, "could not record daily usage; will retry");
      }
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}

import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { PlanRow } from "../store/access.ts";
import { UsageLimiter } from "./rate-limits.ts";

const plan: PlanRow = {
  name: "tiny",
  requestsPerMinute: 100,
  requestsPerMonth: 2,
  answerEnabled: false,
  description: "two requests a month",
};

describe("the month's window, counted in memory", () => {
  // On the 1st of a 31-day month the window lasts 32 days (to the next month, and a day's grace),
  // longer than a Node timer can wait (2^31 − 1 ms, about 24.8 days): a counter expired by such a
  // timer is forgotten a millisecond later, and the month's quota is never reached.
  it.each([
    ["the first day of a 31-day month", "2026-12-01T08:00:00Z"],
    ["the last day of a month", "2026-11-30T22:00:00Z"],
  ])("refuses the request over the plan's month on %s", async (_, at) => {
    const now = new Date(at);
    const limiter = new UsageLimiter(null);
    for (const _ of [1, 2]) {
      expect((await limiter.consumeProject(7, plan, 1, now)).allowed).toBe(true);
      await sleep(5);
    }
    const over = await limiter.consumeProject(7, plan, 1, now);
    expect(over).toMatchObject({ allowed: false, monthlyLimit: 2, monthlyRemaining: 0 });
    expect(over.retryAfterSeconds).toBeGreaterThan(0);
    expect((await limiter.usage(7, plan, now)).month).toEqual({ used: 3, limit: 2, period: at.slice(0, 7) });
  });

  it("starts the next month afresh", async () => {
    const limiter = new UsageLimiter(null);
    const december = new Date("2026-12-01T08:00:00Z");
    for (const _ of [1, 2, 3]) await limiter.consumeProject(7, plan, 1, december);
    const january = new Date("2027-01-01T00:00:01Z");
    expect(await limiter.consumeProject(7, plan, 1, january)).toMatchObject({
      allowed: true,
      monthlyRemaining: 1,
    });
  });
});

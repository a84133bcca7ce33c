import type { Redis } from "ioredis";
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from "rate-limiter-flexible";
import type { PlanRow } from "../store/access.ts";

/**
 * Per-project request limits from the plan: a minute window and a calendar-month window.
 * In Redis (shared by every API process) when REDIS_URL is set, in memory when embedded.
 * Policy when Redis is unreachable: keep serving, each process counting in memory on its own
 * (rate-limiter-flexible's insurance limiter), and say so in logs and /readyz.
 */
export interface UsageDecision {
  allowed: boolean;
  /** The minute window: what x-ratelimit-limit and x-ratelimit-remaining describe. */
  limit: number;
  remaining: number;
  monthlyLimit?: number;
  monthlyRemaining?: number;
  retryAfterSeconds?: number;
}

/** Requests without a valid key are counted per client address, so guessing keys is slow too. */
export const ANONYMOUS_PER_MINUTE = 60;

/** Failed console sign-ins (and sign-ups, per address) allowed in SIGN_IN_WINDOW_SECONDS. */
export interface SignInLimits {
  /** From one client address, whatever the account. */
  address: number;
  /** For one account from one address: a person mistyping. */
  accountAddress: number;
  /** For one account from anywhere: slows guessing from many addresses. */
  account: number;
}
export const SIGN_IN_LIMITS: SignInLimits = { address: 30, accountAddress: 10, account: 100 };
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;

const month = (now: Date) => now.toISOString().slice(0, 7);
const secondsToNextMonth = (now: Date) =>
  Math.ceil((Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - now.getTime()) / 1000);

/**
 * The longest a Node timer waits (2^31 − 1 ms, about 24.8 days). rate-limiter-flexible's memory
 * store forgets each key with a timer, and Node fires a longer one at once: a month's counter (its
 * window lasts up to 32 days) would be forgotten a millisecond after it was written. A window that
 * long is kept in memory without a timer; its keys name the month, and the limiters of the other
 * months are dropped when a month's is made (monthLimiter).
 */
const LONGEST_TIMER_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

export class UsageLimiter {
  private readonly limiters = new Map<string, RateLimiterAbstract>();
  private redisFailures = 0;

  constructor(
    private readonly redis: Redis | null,
    private readonly onRedisError: (error: Error) => void = () => undefined,
    /** Prefix of every Redis key, so deployments (and tests) sharing a Redis never share counters. */
    readonly namespace = "lc",
    /** Limits other than the plans'; tests raise them to reach what lies behind. */
    private readonly limits: { signIn?: SignInLimits; anonymousPerMinute?: number } = {},
  ) {}

  private get signIn(): SignInLimits {
    return this.limits.signIn ?? SIGN_IN_LIMITS;
  }

  private get anonymousPerMinute(): number {
    return this.limits.anonymousPerMinute ?? ANONYMOUS_PER_MINUTE;
  }

  get backend(): "redis" | "memory" {
    return this.redis ? "redis" : "memory";
  }

  /** Redis is configured but the last command failed: counting falls back to each process. */
  get degraded(): boolean {
    return this.redis !== null && this.redisFailures > 0;
  }

  private limiter(keyPrefix: string, points: number, duration: number): RateLimiterAbstract {
    let limiter = this.limiters.get(keyPrefix);
    if (!limiter) {
      const prefixed = `${this.namespace}:${keyPrefix}`;
      const memory = new RateLimiterMemory({
        keyPrefix: prefixed,
        points,
        duration: duration > LONGEST_TIMER_SECONDS ? 0 : duration,
      });
      limiter = this.redis
        ? new RateLimiterRedis({
            storeClient: this.redis,
            keyPrefix: prefixed,
            points,
            duration,
            insuranceLimiter: memory,
          })
        : memory;
      this.limiters.set(keyPrefix, limiter);
    }
    return limiter;
  }

  /** The calendar month's window of a plan: one limiter a month, the other months' dropped. */
  private monthLimiter(plan: PlanRow, now: Date): RateLimiterAbstract {
    const thisMonth = `rl:month:${month(now)}:`;
    const keyPrefix = `${thisMonth}${plan.name}`;
    if (!this.limiters.has(keyPrefix))
      for (const known of [...this.limiters.keys()])
        if (known.startsWith("rl:month:") && !known.startsWith(thisMonth)) this.limiters.delete(known);
    return this.limiter(keyPrefix, plan.requestsPerMonth, secondsToNextMonth(now) + 86_400);
  }

  private async take(
    limiter: RateLimiterAbstract,
    key: string,
    cost: number,
  ): Promise<RateLimiterRes & { rejected: boolean }> {
    try {
      const result = await limiter.consume(key, cost);
      this.noteRedis(limiter);
      return Object.assign(result, { rejected: false });
    } catch (error) {
      if (error instanceof RateLimiterRes) {
        this.noteRedis(limiter);
        return Object.assign(error, { rejected: true });
      }
      throw error;
    }
  }

  /** rate-limiter-flexible answers from the insurance limiter when Redis fails; we notice by probing. */
  private noteRedis(limiter: RateLimiterAbstract) {
    if (!this.redis || !(limiter instanceof RateLimiterRedis)) return;
    if (this.redis.status === "ready") {
      this.redisFailures = 0;
    } else {
      if (this.redisFailures === 0) this.onRedisError(new Error(`Redis is ${this.redis.status}`));
      this.redisFailures += 1;
    }
  }

  async consumeProject(projectId: number, plan: PlanRow, cost = 1, now = new Date()): Promise<UsageDecision> {
    const minute = await this.take(
      this.limiter(`rl:min:${plan.name}`, plan.requestsPerMinute, 60),
      String(projectId),
      cost,
    );
    const base = { limit: plan.requestsPerMinute, remaining: Math.max(0, minute.remainingPoints) };
    if (minute.rejected) {
      return {
        ...base,
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil(minute.msBeforeNext / 1000)),
      };
    }
    const monthly = await this.take(this.monthLimiter(plan, now), String(projectId), cost);
    const decision = {
      ...base,
      monthlyLimit: plan.requestsPerMonth,
      monthlyRemaining: Math.max(0, monthly.remainingPoints),
    };
    if (monthly.rejected) return { ...decision, allowed: false, retryAfterSeconds: secondsToNextMonth(now) };
    return { ...decision, allowed: true };
  }

  /**
   * Gives back points consumeProject took for work that was not done (an answer that failed after
   * it was charged), in the windows it took them from: both, or only the minute's when that one
   * refused (consumeProject then leaves the month's untouched).
   */
  async refundProject(
    projectId: number,
    plan: PlanRow,
    points: number,
    windows: "both" | "minute" = "both",
    now = new Date(),
  ): Promise<void> {
    await this.limiter(`rl:min:${plan.name}`, plan.requestsPerMinute, 60).reward(String(projectId), points);
    if (windows === "minute") return;
    await this.monthLimiter(plan, now).reward(String(projectId), points);
  }

  /** What a project has used in the current windows, without consuming anything. */
  async usage(projectId: number, plan: PlanRow, now = new Date()) {
    const minute = await this.limiter(`rl:min:${plan.name}`, plan.requestsPerMinute, 60).get(
      String(projectId),
    );
    const monthly = await this.monthLimiter(plan, now).get(String(projectId));
    return {
      minute: { used: minute?.consumedPoints ?? 0, limit: plan.requestsPerMinute },
      month: { used: monthly?.consumedPoints ?? 0, limit: plan.requestsPerMonth, period: month(now) },
    };
  }

  /**
   * Console sign-in: whether failures so far allow another attempt. Failed sign-ins are counted per
   * client address, per account and address, and per account with a higher ceiling, so guessing
   * passwords is slow from one address or many, while a stranger cannot lock a person out of an
   * account from one address. Sign-ups count against their address too.
   */
  async signInAllowed(
    address: string,
    account: string,
  ): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
    const keys = this.signInKeys(address, account);
    let wait = 0;
    for (const [by, key] of keys) {
      const state = await this.signInLimiter(by).get(key);
      if (state && state.consumedPoints >= this.signIn[by]) wait = Math.max(wait, state.msBeforeNext);
    }
    return { allowed: wait === 0, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
  }

  /** Counts a failed sign-in against its address, its account from that address, and its account. */
  async signInFailed(address: string, account: string): Promise<void> {
    for (const [by, key] of this.signInKeys(address, account))
      await this.take(this.signInLimiter(by), key, 1);
  }

  /** Counts a sign-up against its address, as a failed sign-in would. */
  async signUpAttempted(address: string): Promise<void> {
    await this.take(this.signInLimiter("address"), address, 1);
  }

  /** A successful sign-in forgives the failures made for that account from that address. */
  async signInSucceeded(address: string, account: string): Promise<void> {
    await this.signInLimiter("accountAddress").delete(`${account} ${address}`);
  }

  private signInKeys(address: string, account = ""): Array<[keyof SignInLimits, string]> {
    return [
      ["address", address],
      ["accountAddress", `${account} ${address}`],
      ["account", account],
    ];
  }

  private signInLimiter(by: keyof SignInLimits) {
    return this.limiter(`rl:signin:${by}`, this.signIn[by], SIGN_IN_WINDOW_SECONDS);
  }

  async consumeAnonymous(address: string): Promise<UsageDecision> {
    const result = await this.take(this.limiter("rl:anon", this.anonymousPerMinute, 60), address, 1);
    return {
      allowed: !result.rejected,
      limit: this.anonymousPerMinute,
      remaining: Math.max(0, result.remainingPoints),
      ...(result.rejected ? { retryAfterSeconds: Math.max(1, Math.ceil(result.msBeforeNext / 1000)) } : {}),
    };
  }
}

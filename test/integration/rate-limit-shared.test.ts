import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { UsageLimiter } from "../../services/access/rate-limits.ts";
import { createApp } from "../../services/api/app.ts";
import { call, startTestApi, type TestApi } from "../helpers/api.ts";

/**
 * Limits are per project across every API process: two app instances sharing one Redis, 200
 * simultaneous requests with one beta key, exactly 60 admitted.
 */
describe("rate limits shared through Redis", () => {
  let first: TestApi;
  let secondUrl: string;
  let closeSecond: () => Promise<void>;

  beforeAll(async () => {
    first = await startTestApi("postgres", { redis: true, label: "shared_limits" });
    // A second instance: same store and same Redis namespace, its own process state.
    const namespace = first.ctx.limiter.namespace;
    const redis = new Redis(inject("redisUrl"), { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    await new Promise((resolve) => redis.once("ready", resolve));
    const server = createApp({ ...first.ctx, limiter: new UsageLimiter(redis, undefined, namespace) }).listen(
      0,
    );
    await new Promise((resolve) => server.once("listening", resolve));
    secondUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    closeSecond = async () => {
      await new Promise((resolve) => server.close(resolve));
      redis.disconnect();
    };
  });
  afterAll(async () => {
    await closeSecond?.();
    await first?.close();
  });

  it("admits exactly 60 of 200 simultaneous requests", async () => {
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        fetch(`${i % 2 === 0 ? first.baseUrl : secondUrl}/api/v1/domains`, {
          headers: { authorization: `Bearer ${first.keys.beta}` },
        }).then(async (r) => ({
          status: r.status,
          retryAfter: r.headers.get("retry-after"),
          body: (await r.json()) as { error: { code: string } },
        })),
      ),
    );
    const admitted = responses.filter((r) => r.status === 200);
    const limited = responses.filter((r) => r.status === 429);
    expect(admitted).toHaveLength(60);
    expect(limited).toHaveLength(140);
    for (const r of limited) {
      expect(r.body.error.code).toBe("rate_limited");
      expect(Number(r.retryAfter)).toBeGreaterThan(0);
    }
  });

  it("keeps refusing on either instance, with nothing remaining", async () => {
    const r = await call(first, "/api/v1/domains", { key: first.keys.beta });
    expect(r.status).toBe(429);
    expect(r.headers.get("x-ratelimit-remaining")).toBe("0");
  });
});

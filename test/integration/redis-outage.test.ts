import type { ChildProcess } from "node:child_process";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UsageLimiter } from "../../services/access/rate-limits.ts";
import { createApp } from "../../services/api/app.ts";
import { startTestApi, type TestApi } from "../helpers/api.ts";
import { freePort, redisServerAvailable, startRedis, stopProcess } from "../helpers/processes.ts";

/**
 * Policy when Redis is unreachable: the API keeps serving, each process counting limits in memory,
 * and /readyz says so. Redis here is a process of this test's own, killed and restarted.
 */
describe.skipIf(!redisServerAvailable())("Redis outage", () => {
  let api: TestApi;
  let redisProcess: ChildProcess;
  let port: number;
  let baseUrl: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    api = await startTestApi("pglite", { redis: false, label: "redis_outage" });
    port = await freePort();
    redisProcess = await startRedis(port);
    const redis = new Redis(`redis://127.0.0.1:${port}`, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      retryStrategy: () => 200,
    });
    redis.on("error", () => undefined);
    await new Promise((resolve) => redis.once("ready", resolve));
    const server = createApp({ ...api.ctx, limiter: new UsageLimiter(redis, undefined, "outage") }).listen(0);
    await new Promise((resolve) => server.once("listening", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = async () => {
      await new Promise((resolve) => server.close(resolve));
      redis.disconnect();
    };
  });
  afterAll(async () => {
    await close?.();
    if (redisProcess) await stopProcess(redisProcess);
    await api?.close();
  });

  const get = async (path: string) => {
    const r = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${api.keys.reader}` } });
    return {
      status: r.status,
      limit: r.headers.get("x-ratelimit-limit"),
      body: (await r.json()) as Record<string, any>,
    };
  };

  it("serves with Redis up, keeps serving with Redis down, and recovers", async () => {
    expect((await get("/api/v1/domains")).status).toBe(200);
    expect((await get("/readyz")).body.checks.rate_limits).toBe("redis");

    await stopProcess(redisProcess);
    for (let i = 0; i < 5; i++) {
      const r = await get("/api/v1/domains");
      expect(r.status).toBe(200);
      expect(r.limit).toBe("600");
    }
    const degraded = await get("/readyz");
    expect(degraded.status).toBe(200);
    expect(degraded.body.status).toBe("degraded");
    expect(degraded.body.checks.rate_limits).toMatch(/redis unreachable/);

    redisProcess = await startRedis(port);
    let ready = "";
    for (let i = 0; i < 50 && ready !== "redis"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await get("/api/v1/domains");
      ready = (await get("/readyz")).body.checks.rate_limits;
    }
    expect(ready).toBe("redis");
  });
});

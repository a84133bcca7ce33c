import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startTestApi, type TestApi } from "../helpers/api.ts";

/**
 * Anonymous limits count per client (issue 18, item 7): behind a proxy the connection's address is
 * the proxy's, so without TRUST_PROXY every client would share one bucket; with it, the client's
 * address comes from X-Forwarded-For, and only from a proxy it names. The docs page's scripts and
 * styles do not count against the limit: a visit costs one request, not six.
 */
describe("client addresses and the anonymous limit", () => {
  let direct: TestApi;
  let proxied: TestApi;
  beforeAll(async () => {
    const limits = { anonymousPerMinute: 50 };
    direct = await startTestApi("pglite", { redis: false, label: "addr-direct", limits });
    proxied = await startTestApi("pglite", {
      redis: false,
      label: "addr-proxied",
      limits,
      env: { TRUST_PROXY: "loopback" },
    });
  });
  afterAll(async () => {
    await direct?.close();
    await proxied?.close();
  });

  const remaining = async (api: TestApi, forwardedFor?: string) => {
    const r = await call(api, "/api/v1/openapi.json", {
      headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {},
    });
    expect(r.status).toBe(200);
    return Number(r.headers.get("x-ratelimit-remaining"));
  };

  it("without TRUST_PROXY, X-Forwarded-For is ignored: a client cannot pick another bucket", async () => {
    const first = await remaining(direct, "203.0.113.1");
    expect(await remaining(direct, "203.0.113.2")).toBe(first - 1);
  });

  it("with TRUST_PROXY naming the proxy, each forwarded client has its own bucket", async () => {
    const a = await remaining(proxied, "203.0.113.1");
    const b = await remaining(proxied, "203.0.113.2");
    expect(b).toBe(a);
    expect(await remaining(proxied, "203.0.113.1")).toBe(a - 1);
  });

  it("counts the docs page, not its scripts and styles", async () => {
    const before = await remaining(direct);
    const page = await call(direct, "/api/v1/docs/");
    expect(page.status).toBe(200);
    const assets = [...String(page.body).matchAll(/(?:src|href)="\.\/([\w.-]+\.(?:js|css|png))"/g)].map(
      (m) => m[1],
    );
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      const r = await call(direct, `/api/v1/docs/${asset}`);
      expect(r.status, asset).toBe(200);
    }
    // The page cost one; the assets nothing.
    expect(await remaining(direct)).toBe(before - 2);
  });
});

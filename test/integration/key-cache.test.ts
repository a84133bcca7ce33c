import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KeyCache } from "../../services/access/key-cache.ts";
import { createKey } from "../../services/access/keys.ts";
import { createApp } from "../../services/api/app.ts";
import { startTestApi, type TestApi } from "../helpers/api.ts";
import { runCli } from "../helpers/cli.ts";

/**
 * Keys are cached per API process, and revocation is still refused from the very next request on
 * every process: the CLI (another process) revokes, Postgres notifies, both instances evict.
 */
describe("key cache across API processes (server Postgres)", () => {
  let api: TestApi;
  const instances: Array<{ url: string; close: () => Promise<void> }> = [];

  beforeAll(async () => {
    api = await startTestApi("postgres", { redis: false, label: "key_cache" });
    for (let i = 0; i < 2; i++) {
      const keys = new KeyCache();
      const stop = await keys.attach(api.store.db);
      const server = createApp({ ...api.ctx, keys }).listen(0);
      await new Promise((resolve) => server.once("listening", resolve));
      instances.push({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: async () => {
          await new Promise((resolve) => server.close(resolve));
          await stop();
        },
      });
    }
  });
  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await api?.close();
  });

  const status = (url: string, key: string) =>
    fetch(`${url}/api/v1/domains`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);

  it("refuses a key revoked by the CLI from the next request on, on every instance", async () => {
    const { key, lookupId } = await createKey(api.store.db, api.ctx.keyHashSecret, { project: "pro-app" });
    for (const instance of instances) expect(await status(instance.url, key)).toBe(200);
    const revoked = await runCli(["keys", "revoke", lookupId], {
      DATABASE_URL: api.store.url!,
      KEY_HASH_SECRET: api.ctx.keyHashSecret,
    });
    expect(revoked.code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const instance of instances) expect(await status(instance.url, key)).toBe(401);
  });

  it("stops trusting the cache while its listener is down", async () => {
    const { key, lookupId } = await createKey(api.store.db, api.ctx.keyHashSecret, { project: "pro-app" });
    expect(await status(instances[0]!.url, key)).toBe(200);
    // Kill the LISTEN connections, then revoke without a notification reaching anyone.
    await api.store.db.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'",
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    await api.store.db.query("UPDATE api_keys SET revoked_at = now() WHERE lookup_id = $1", [lookupId]);
    expect(await status(instances[0]!.url, key)).toBe(401);
  });
});

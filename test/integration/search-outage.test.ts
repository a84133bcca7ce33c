import type { AddressInfo } from "node:net";
import { Client } from "@opensearch-project/opensearch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../services/api/app.ts";
import { OpenSearchEngine } from "../../services/search/opensearch-engine.ts";
import { startTestApi, type TestApi } from "../helpers/api.ts";
import { freePort } from "../helpers/processes.ts";

/**
 * The search engine unreachable (nothing listens where SEARCH_URL points): search fails with the
 * spec's envelope and says what still works; provisions and documents are served from Postgres;
 * readiness reports the engine down.
 */
describe("search engine unreachable", () => {
  let api: TestApi;
  let baseUrl: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    api = await startTestApi("postgres", { redis: false, label: "search_outage" });
    const dead = new OpenSearchEngine(
      new Client({ node: `http://127.0.0.1:${await freePort()}`, requestTimeout: 2000, maxRetries: 1 }),
      "nowhere",
    );
    const server = createApp({ ...api.ctx, search: dead }).listen(0);
    await new Promise((resolve) => server.once("listening", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = async () => {
      await new Promise((resolve) => server.close(resolve));
      await dead.close();
    };
  });
  afterAll(async () => {
    await close?.();
    await api?.close();
  });

  const get = async (path: string) => {
    const r = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${api.keys.reader}` } });
    return {
      status: r.status,
      requestId: r.headers.get("x-request-id"),
      body: (await r.json()) as Record<string, any>,
    };
  };

  it("fails search with the envelope and a message that says what still works", async () => {
    const r = await get("/api/v1/search?q=travail");
    expect(r.status).toBe(500);
    expect(r.body).toEqual({
      error: {
        code: "internal_error",
        message: expect.stringMatching(
          /^Search is temporarily unavailable \(opensearch\)\. Provisions and documents can still be fetched by id/,
        ),
        request_id: r.requestId,
      },
    });
    expect(r.body.error.message).toContain(r.requestId);
    expect(r.body.error.message).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
  });

  it("still serves provisions and documents from Postgres", async () => {
    expect((await get("/api/v1/provisions/code-du-travail/L1221-19")).status).toBe(200);
    expect((await get("/api/v1/documents/code-du-travail")).status).toBe(200);
  });

  it("reports the engine down in readiness, the service still ready to serve the rest", async () => {
    const r = await fetch(`${baseUrl}/readyz`);
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({
      status: "degraded",
      checks: { store: "ok", search: "opensearch: unreachable" },
    });
  });
});

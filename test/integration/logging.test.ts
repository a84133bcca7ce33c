import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../services/api/app.ts";
import { startTestApi, type TestApi } from "../helpers/api.ts";

/** Structured logs carry the request id and the key's lookup id, and never a secret. */
describe("request logs", () => {
  let api: TestApi;
  const lines: Array<Record<string, unknown>> = [];
  let baseUrl: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    api = await startTestApi("pglite", { redis: false, label: "logging" });
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const server = createApp({ ...api.ctx, logger: pino({ level: "info" }, sink) }).listen(0);
    await new Promise((resolve) => server.once("listening", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });
  afterAll(async () => {
    await close?.();
    await api?.close();
  });

  it("logs one JSON line per request with its id and the key's lookup id, never the key", async () => {
    const key = api.keys.reader!;
    const ok = await fetch(`${baseUrl}/api/v1/search?q=secret+question`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const denied = await fetch(`${baseUrl}/api/v1/domains`, { headers: { authorization: `Bearer ${key}x` } });
    await new Promise((resolve) => setTimeout(resolve, 50));

    const okLine = lines.find((l) => l.requestId === ok.headers.get("x-request-id"));
    expect(okLine).toMatchObject({ key: key.split("_")[2], project: "pro-app", res: { status: 200 } });
    expect(okLine?.req).toEqual({ method: "GET", path: "/api/v1/search" });
    expect(lines.find((l) => l.requestId === denied.headers.get("x-request-id"))).toMatchObject({
      res: { status: 401 },
    });

    const everything = JSON.stringify(lines);
    expect(everything).not.toContain(key.split("_")[3]);
    expect(everything.toLowerCase()).not.toContain("authorization");
    expect(everything).not.toContain("secret+question");
  });

  it("logs an unexpected error with the request id, and the client sees only the id", async () => {
    await api.store.db.exec("ALTER TABLE documents RENAME TO documents_away");
    try {
      const r = await fetch(`${baseUrl}/api/v1/coverage`, {
        headers: { authorization: `Bearer ${api.keys.reader}` },
      });
      expect(r.status).toBe(500);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const logged = lines.find(
        (l) => l.requestId === r.headers.get("x-request-id") && l.msg === "unhandled error",
      );
      expect(JSON.stringify(logged)).toMatch(/documents/);
    } finally {
      await api.store.db.exec("ALTER TABLE documents_away RENAME TO documents");
    }
  });
});

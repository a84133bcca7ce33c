import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { pino } from "pino";
import { expect, inject } from "vitest";
import { ingestCanonicalFile, ingestLegi } from "../../ingest/load.ts";
import { createKey, createProject, revokeKey } from "../../services/access/keys.ts";
import type { SignInLimits } from "../../services/access/rate-limits.ts";
import type { Scope } from "../../services/access/scopes.ts";
import { createApp } from "../../services/api/app.ts";
import { answerClientErrors } from "../../services/api/client-errors.ts";
import { parseConfig, repoRoot } from "../../services/core/config.ts";
import type { Domain } from "../../services/core/domains.ts";
import { changeSink, dispatchChanges } from "../../services/jobs/change-log-job.ts";
import { inProcessExecutor } from "../../services/jobs/ingest-run-job.ts";
import { buildContext } from "../../services/runtime/build-context.ts";
import type { AppContext } from "../../services/runtime/context.ts";
import { openTestStore, type StoreKind, type TestStore } from "./stores.ts";

export const PUBLIC_URL = "http://api.test";

/** The two set-ups the API contract holds on: PGlite with in-memory limits, and Postgres with Redis. */
export const API_SETUPS = [
  { name: "embedded (PGlite, in-memory limits)", kind: "pglite", redis: false },
  { name: "server (Postgres, Redis)", kind: "postgres", redis: true },
] as const;

/** A small real corpus: the Code du travail excerpt (classified) and a hand-written act (unclassified). */
export async function seedSmallCorpus(store: TestStore, config: AppContext["config"]) {
  const legiDir = mkdtempSync(path.join(tmpdir(), "lc-legi-"));
  const { copyFileSync } = await import("node:fs");
  copyFileSync(
    path.join(repoRoot, "test/fixtures/legi/code-du-travail-excerpt.json"),
    path.join(legiDir, "LEGITEXT000006072050.json"),
  );
  await ingestLegi(store.db, config, { path: legiDir });
  await ingestCanonicalFile(
    store.db,
    config,
    path.join(repoRoot, "test/fixtures/canonical/loi-exemple.json"),
  );
  // Their change events, written by the change-log writer in this process: no worker runs in the
  // tests, also when the API counts its limits in Redis.
  await dispatchChanges(store.db, changeSink(store.db));
}

export interface TestApi {
  baseUrl: string;
  ctx: AppContext & { close(): Promise<void> };
  store: TestStore;
  redis: Redis | null;
  keys: Record<string, string>;
  close(): Promise<void>;
}

const KEYS: Array<[name: string, project: string, scopes?: Scope[], domains?: Domain[]]> = [
  ["all", "pro-app", ["search:read", "corpus:read", "changes:read", "answer:write"]],
  ["reader", "pro-app"],
  ["searchOnly", "pro-app", ["search:read"]],
  ["labourOnly", "pro-app", undefined, ["labour"]],
  ["revoked", "pro-app"],
  ["beta", "beta-app"],
];

/** A real app on a real store (and Redis when asked), listening on a free port. */
export async function startTestApi(
  kind: StoreKind,
  options: {
    redis: boolean;
    label: string;
    limits?: { signIn?: SignInLimits; anonymousPerMinute?: number };
    /** More configuration (e.g. TRUST_PROXY). */
    env?: Record<string, string>;
  },
): Promise<TestApi> {
  const store = await openTestStore(kind, options.label);
  const config = parseConfig({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "lc-api-")),
    KEY_HASH_SECRET: randomBytes(32).toString("hex"),
    PUBLIC_URL,
    LOG_LEVEL: "silent",
    // Counters of their own, so that test files sharing a Redis never share them.
    ...(options.redis
      ? { REDIS_URL: inject("redisUrl"), REDIS_PREFIX: `lc-test-${randomBytes(4).toString("hex")}` }
      : {}),
    ...options.env,
  });
  const redis = options.redis
    ? new Redis(inject("redisUrl"), { enableOfflineQueue: false, maxRetriesPerRequest: 1 })
    : null;
  if (redis) await new Promise((resolve) => redis.once("ready", resolve));
  const logger = pino({ level: "silent" });
  // As `npm start` builds it (services/runtime/build-context.ts): the engine, the key cache and the
  // limiter the configuration names. Submitted ingest runs run in this process: no worker runs here.
  const ctx = await buildContext(config, store.db, logger, {
    limits: options.limits,
    runs: inProcessExecutor(store.db, config, logger),
  });
  await seedSmallCorpus(store, config);
  await createProject(store.db, "pro-app", "pro");
  await createProject(store.db, "beta-app", "beta");
  const keys: Record<string, string> = {};
  for (const [name, project, scopes, domains] of KEYS) {
    keys[name] = (await createKey(store.db, ctx.keyHashSecret, { project, scopes, domains })).key;
  }
  await revokeKey(store.db, keys.revoked!.split("_")[2]!);

  const server = createApp(ctx).listen(0);
  answerClientErrors(server, ctx.coverageUrl);
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    ctx,
    store,
    redis,
    keys,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await ctx.close();
      redis?.disconnect();
      await store.dispose();
    },
  };
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
}

export async function call(
  api: TestApi,
  pathAndQuery: string,
  init: { key?: string; method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const response = await fetch(`${api.baseUrl}${pathAndQuery}`, {
    method: init.method ?? "GET",
    headers: { ...(init.key ? { authorization: `Bearer ${init.key}` } : {}), ...init.headers },
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: response.status, headers: response.headers, body };
}

/** The spec's error envelope, exactly: one key `error` with code, message and request id. */
export function expectEnvelope(response: ApiResponse, status: number, code: string, field?: string) {
  expect(response.status).toBe(status);
  expect(Object.keys(response.body)).toEqual(["error"]);
  expect(Object.keys(response.body.error).sort()).toEqual(["code", "message", "request_id"]);
  expect(response.body.error.code).toBe(code);
  expect(response.body.error.request_id).toBe(response.headers.get("x-request-id"));
  if (field) expect(response.body.error.message).toContain(field);
}

/** Headers every response carries. */
export function expectCommonHeaders(response: ApiResponse) {
  expect(response.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
  expect(response.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
  expect(response.headers.get("x-request-id")).toBeTruthy();
  expect(response.headers.get("x-coverage-url")).toBe(`${PUBLIC_URL}/coverage`);
  expect(response.headers.get("access-control-allow-origin")).toBeNull();
}

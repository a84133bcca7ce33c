import { isIP } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

/** Repository root, so that defaults do not depend on the current directory of the caller. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const emptyAsUndefined = (value: unknown) => (value === "" ? undefined : value);

/**
 * Every environment variable the service reads, with its default.
 * The README's configuration table is checked against this list by a test.
 */
export const configSchema = z.object({
  /** Server Postgres connection string. Unset: embedded PGlite under DATA_DIR. */
  DATABASE_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  /** Where embedded data lives (PGlite files, downloaded source snapshots). */
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default("./data")),
  /** Domain classification rules applied at ingest. */
  DOMAIN_RULES: z.preprocess(
    emptyAsUndefined,
    z.string().default(path.join(repoRoot, "ingest/rules/domains.yaml")),
  ),
  /** Synonym groups applied to every search query (ingest/rules/synonyms.yaml format). */
  SEARCH_SYNONYMS: z.preprocess(
    emptyAsUndefined,
    z.string().default(path.join(repoRoot, "ingest/rules/synonyms.yaml")),
  ),
  /**
   * Secret under which API key secrets are hashed; every API process of a deployment shares it.
   * Unset: made once and kept in DATA_DIR/key-hash.secret.
   */
  KEY_HASH_SECRET: z.preprocess(emptyAsUndefined, z.string().min(32, "at least 32 characters").optional()),
  /** HTTP port of the API. */
  PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  /** The address clients use to reach the service (links, coverage URL). Default: http://localhost:PORT. */
  PUBLIC_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  /**
   * Which proxies in front of the API to believe about the client's address (X-Forwarded-For), so
   * that anonymous and sign-in limits count per client, not per proxy. Unset or `false`: none (the
   * connection's address counts). A number: that many hops (`1` behind one load balancer).
   * Otherwise a comma list of the proxies' addresses or subnets, or `loopback`, `linklocal`,
   * `uniquelocal`. `true` (believe anyone) is refused: any client could then choose its bucket.
   */
  TRUST_PROXY: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .optional()
      .transform((value, context): false | number | string[] => {
        if (value === undefined || value === "false") return false;
        if (/^\d+$/.test(value)) return Number.parseInt(value, 10);
        const entries = value.split(",").map((entry) => entry.trim());
        const bad = entries.find(
          (entry) =>
            !["loopback", "linklocal", "uniquelocal"].includes(entry) &&
            !(isIP(entry.split("/")[0]!) && /^[^/]+(\/\d{1,3})?$/.test(entry)),
        );
        if (bad !== undefined) {
          context.addIssue({
            code: "custom",
            message: `"${bad}" is not a hop count, an address, a subnet (10.0.0.0/8) or loopback, linklocal, uniquelocal${value === "true" ? " (true would believe any client about its address)" : ""}`,
          });
          return z.NEVER;
        }
        return entries;
      }),
  ),
  /** Redis for shared rate-limit counters (and, later, queues). Unset: in memory, per process. */
  REDIS_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^rediss?$/ }).optional()),
  /** Prefix of this deployment's Redis keys. */
  REDIS_PREFIX: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9:_-]+$/)
      .default("lc"),
  ),
  /** Which search engine answers /search: Postgres full-text search, or an index kept in step with Postgres. */
  SEARCH_ENGINE: z.preprocess(
    emptyAsUndefined,
    z.enum(["postgres", "elasticsearch", "opensearch"]).default("postgres"),
  ),
  /**
   * With SEARCH_ENGINE=postgres: rank in memory (a copy of the search model built from the store,
   * refreshed when the corpus changes; about 300 MB for the four codes) instead of in SQL. Same
   * results. `auto`: on with the embedded store, where SQL ranking costs 100–300 ms a question;
   * off with a Postgres server, where each API process would hold its own copy.
   */
  SEARCH_MEMORY_INDEX: z.preprocess(emptyAsUndefined, z.enum(["auto", "on", "off"]).default("auto")),
  /**
   * A query word no provision uses, and no French word, is read as the most used word a keystroke
   * away (services/search/spelling.ts); `off` searches every word as typed.
   */
  SEARCH_SPELLING: z.preprocess(emptyAsUndefined, z.enum(["on", "off"]).default("on")),
  /** Elasticsearch or OpenSearch address(es), comma-separated. Required with those engines. */
  SEARCH_URL: z.preprocess(emptyAsUndefined, z.string().optional()),
  /** The alias searches go through; indexes are `<alias>-<timestamp>` behind it. */
  SEARCH_INDEX: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9_-]*$/)
      .default("legal-corpus-provisions"),
  ),
  /** Primary shards of a new index. */
  SEARCH_SHARDS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(64).default(1)),
  /** Replicas of each shard in a new index (0 on a single node). */
  SEARCH_REPLICAS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(5).default(0)),
  /**
   * Seconds the API process may go without reporting to the front (it reports every second from
   * its event loop) before GET /healthz answers 503 `unresponsive` (services/runtime/front.ts).
   */
  HEALTH_STALL_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().min(1).max(3600).default(10)),
  /**
   * Milliseconds a Postgres search may run (a server statement timeout) and wait for a connection
   * before it fails with the API's error envelope. Server Postgres only: PGlite cannot cancel a query.
   */
  SEARCH_TIMEOUT_MS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(100).max(600_000).default(5_000),
  ),
  /**
   * Milliseconds any other statement the API runs for a request may take (reads by id, listings,
   * changes, coverage, keys) before the server cancels it: a client that left cannot keep a backend
   * busy longer than this. Ingest runs without it. Server Postgres only, as SEARCH_TIMEOUT_MS.
   */
  READ_TIMEOUT_MS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(100).max(600_000).default(30_000),
  ),
  /**
   * Seconds a queue worker holds a job's lock (renewed while it runs); a job whose worker died is
   * run again within about twice this. BullMQ's default is 30.
   */
  QUEUE_LOCK_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(600).default(30)),
  /**
   * Seconds after which outbox entries handed to the queue but never confirmed (their job lost with
   * a killed worker or a Redis that lost its data) are handed out again. Jobs are idempotent.
   */
  OUTBOX_REDISPATCH_SECONDS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(1).max(86_400).default(300),
  ),
  /** On first start with an empty store, load the bundled LEGI corpus (set to false to start empty). */
  INGEST_ON_FIRST_START: z.preprocess(
    emptyAsUndefined,
    z
      .enum(["true", "false"])
      .default("true")
      .transform((v) => v === "true"),
  ),
  /** An OpenAI-compatible chat API (base URL, e.g. http://localhost:8080/v1) for the generative answer composer; unset: extractive only. */
  ANSWER_LLM_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  /** Its API key, if it needs one (a secret: never logged). */
  ANSWER_LLM_API_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
  /** The model name sent to it. */
  ANSWER_LLM_MODEL: z.preprocess(emptyAsUndefined, z.string().default("gpt-4o-mini")),
  /** How long to wait for it before answering extractively, in milliseconds. */
  ANSWER_LLM_TIMEOUT_MS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(100).max(120_000).default(15_000),
  ),
  /** pino log level. */
  LOG_LEVEL: z.preprocess(
    emptyAsUndefined,
    z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  ),
});

/** PUBLIC_URL always has a value once parsed (http://localhost:PORT by default). */
export type Config = Omit<z.infer<typeof configSchema>, "PUBLIC_URL"> & { PUBLIC_URL: string };

export class ConfigError extends Error {
  constructor(public readonly issues: string[]) {
    super(`Invalid configuration:\n${issues.map((issue) => `  - ${issue}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Parses an environment; lists every bad variable at once rather than failing on the first. */
export function parseConfig(env: NodeJS.ProcessEnv): Config {
  const parsed = configSchema
    .refine((c) => c.SEARCH_ENGINE === "postgres" || c.SEARCH_URL, {
      path: ["SEARCH_URL"],
      message: "required when SEARCH_ENGINE is elasticsearch or opensearch",
    })
    .safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
  }
  return {
    ...parsed.data,
    DATA_DIR: path.resolve(parsed.data.DATA_DIR),
    PUBLIC_URL: (parsed.data.PUBLIC_URL ?? `http://localhost:${parsed.data.PORT}`).replace(/\/+$/, ""),
  };
}

let cached: Config | undefined;

export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/** Redacts the password of a connection URL before it is shown or logged. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "<unparseable url>";
  }
}

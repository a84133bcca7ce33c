import { Redis } from "ioredis";
import type { Logger } from "pino";
import { KeyCache } from "../access/key-cache.ts";
import { keyHashSecret } from "../access/key-hash-secret.ts";
import { UsageLimiter } from "../access/rate-limits.ts";
import { UsageMeter } from "../access/usage-meter.ts";
import type { Config } from "../core/config.ts";
import { inProcessExecutor, queueExecutor, type RunExecutor } from "../jobs/ingest-run-job.ts";
import { queueSettings } from "../jobs/queues.ts";
import { createSearchEngine } from "../search/engines.ts";
import { Synonyms } from "../search/synonyms.ts";
import { rulesLoader, TitleClassifier } from "../search/title-classifier.ts";
import type { Database } from "../store/database.ts";
import type { AppContext } from "./context.ts";

/**
 * The rate-limit counters the configuration names: in Redis (shared by every process of a
 * deployment), else in this process. `failFast` (servers): while Redis is down, a request is
 * counted in memory at once rather than waiting; a command line waits for Redis instead.
 */
export function createLimiter(
  config: Config,
  logger: Logger,
  options: { limits?: ConstructorParameters<typeof UsageLimiter>[3]; failFast?: boolean } = {},
): { limiter: UsageLimiter; close(): void } {
  const failFast = options.failFast ?? true;
  const redis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, {
        enableOfflineQueue: !failFast,
        maxRetriesPerRequest: 1,
        lazyConnect: false,
      })
    : null;
  redis?.on("error", (error) =>
    logger.warn({ err: error }, "Redis error: rate limits are counted per process until it is back"),
  );
  const limiter = new UsageLimiter(
    redis,
    (error) => logger.warn({ err: error }, "rate limits fell back to per-process memory"),
    config.REDIS_PREFIX,
    options.limits,
  );
  return { limiter, close: () => redis?.disconnect() };
}

/**
 * Builds the request context from configuration: the one place that picks implementations, for
 * the server and for the integration tests' servers alike.
 */
export async function buildContext(
  config: Config,
  db: Database,
  logger: Logger,
  options: {
    /** Rate limits other than the plans' (tests raise them to reach what lies behind). */
    limits?: ConstructorParameters<typeof UsageLimiter>[3];
    /** Who runs submitted ingest runs, when not the one the configuration implies. */
    runs?: RunExecutor;
  } = {},
): Promise<AppContext & { close: () => Promise<void> }> {
  const rateLimits = createLimiter(config, logger, { limits: options.limits });
  const limiter = rateLimits.limiter;
  const synonyms = Synonyms.load(config.SEARCH_SYNONYMS);
  // Searches run under a statement timeout (server Postgres), on connections of their own.
  const search = await createSearchEngine(
    config,
    db.withStatementTimeout(config.SEARCH_TIMEOUT_MS),
    synonyms,
    logger,
  );
  // Keys are cached (a minute) and dropped at once when revoked: the revocation notifies every
  // process listening (server Postgres), or this one (embedded, where the console and the CLI,
  // through the admin socket, revoke in this process). Embedded, the cache spares each request a
  // round trip to the store's thread, where searches queue.
  const keys = new KeyCache();
  const stopListening = await keys.attach(db);
  const usage = new UsageMeter(db, logger);
  const settings = queueSettings(config);
  const runs = options.runs ?? (settings ? queueExecutor(settings) : inProcessExecutor(db, config, logger));
  return {
    config,
    // Requests read under a statement timeout (server Postgres); ingest (runs above) without one.
    db: db.withStatementTimeout(config.READ_TIMEOUT_MS),
    search,
    limiter,
    usage,
    runs,
    keys,
    titles: new TitleClassifier(db, rulesLoader(config.DOMAIN_RULES)),
    synonyms,
    keyHashSecret: keyHashSecret(config),
    logger,
    coverageUrl: `${config.PUBLIC_URL}/coverage`,
    close: async () => {
      await usage.close();
      await stopListening();
      await runs.close();
      await search.close();
      rateLimits.close();
    },
  };
}

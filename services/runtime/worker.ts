import { config } from "../core/config.ts";
import { logger } from "../core/logger.ts";
import { within } from "../core/within.ts";
import { openStore } from "../store/open.ts";
import { startWorkerJobs } from "./jobs.ts";

/** How long a stopping worker waits for its jobs and connections to close. */
const STOP_GRACE_MS = 10_000;

/**
 * `npm run worker`: the production topology's background process. It runs submitted ingest runs
 * (`ingest` queue), turns the change outbox into jobs for the change-log writer (`changes`
 * queue) and, with Elasticsearch/OpenSearch, the search outbox into indexing jobs (`index`
 * queue). Any number may run: the outboxes hand each entry to one of them, and jobs are
 * idempotent.
 */
async function main() {
  const cfg = config();
  if (!cfg.DATABASE_URL || !cfg.REDIS_URL) {
    throw new Error(
      "The worker serves the production topology: set DATABASE_URL and REDIS_URL (and SEARCH_ENGINE and SEARCH_URL for Elasticsearch/OpenSearch). " +
        "Embedded, `npm start` runs the same jobs in its own process.",
    );
  }
  const db = await openStore(cfg);
  const jobs = await startWorkerJobs(cfg, db, logger);
  logger.info(
    { queues: jobs.queues, engine: jobs.engine?.name, alias: jobs.engine?.alias },
    "worker started",
  );

  const stop = async (signal: string) => {
    logger.info({ signal }, "worker stopping: finishing jobs in flight");
    const closed = (async () => {
      await jobs.stop();
      await db.close();
      return true;
    })();
    // Closing can wait on a Redis connection that is still being re-made (seen right after a Redis
    // restart). Jobs are idempotent and another worker takes up an unfinished one, so the stop is
    // bounded rather than left to hang.
    const inTime = await within(closed, STOP_GRACE_MS, false);
    if (!inTime) logger.warn({ seconds: STOP_GRACE_MS / 1000 }, "worker stopped before its jobs closed");
    process.exit(inTime ? 0 : 1);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}

main().catch((error) => {
  console.error(`error: ${(error as Error).message}`);
  process.exit(1);
});

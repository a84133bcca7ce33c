import { Queue } from "bullmq";
import { config } from "../services/core/config.ts";
import { logger } from "../services/core/logger.ts";
import { within } from "../services/core/within.ts";
import { createIndexedEngine } from "../services/search/engines.ts";
import { openStore } from "../services/store/open.ts";
import { CHANGES_QUEUE, changePump, changeQueueSink, startChangeWriter } from "./queue/change-queue.ts";
import { queueSettings } from "./queue/connection.ts";
import { type OutboxPump, startDispatcher } from "./queue/dispatcher.ts";
import { INDEX_QUEUE, indexPump, queueSink, startIndexWorker } from "./queue/index-queue.ts";
import { INGEST_QUEUE, runRequeuePump, startIngestWorker } from "./runs/executors.ts";

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
  const settings = queueSettings(cfg)!;
  const queues: Queue[] = [];
  const openQueue = (name: string) => {
    const queue = new Queue(name, settings);
    queue.on("error", (error) =>
      logger.warn({ err: error, queue: name }, "queue: Redis unreachable; outbox entries wait"),
    );
    queues.push(queue);
    return queue;
  };

  const workers = [startIngestWorker(db, cfg, settings, logger), startChangeWriter(db, settings, logger)];
  const redispatch = cfg.OUTBOX_REDISPATCH_SECONDS;
  const pumps: OutboxPump[] = [
    runRequeuePump(db, openQueue(INGEST_QUEUE), logger),
    changePump(db, changeQueueSink(openQueue(CHANGES_QUEUE), db), redispatch),
  ];
  const engine = cfg.SEARCH_ENGINE === "postgres" ? undefined : await createIndexedEngine(cfg);
  if (engine) {
    workers.push(startIndexWorker(db, engine, settings, logger));
    pumps.push(indexPump(db, queueSink(openQueue(INDEX_QUEUE), db), redispatch));
  }
  const dispatcher = startDispatcher(pumps, logger);
  logger.info(
    { queues: queues.map((q) => q.name), engine: engine?.name, alias: engine?.alias },
    "worker started",
  );

  const stop = async (signal: string) => {
    logger.info({ signal }, "worker stopping: finishing jobs in flight");
    const closed = (async () => {
      await dispatcher.stop();
      for (const worker of workers) await worker.close();
      for (const queue of queues) await queue.close();
      await engine?.close();
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

import { Queue } from "bullmq";
import { config } from "../services/core/config.ts";
import { logger } from "../services/core/logger.ts";
import { createIndexedEngine } from "../services/search/engines.ts";
import { openStore } from "../services/store/open.ts";
import { queueSettings } from "./queue/connection.ts";
import { INDEX_QUEUE, queueSink, startDispatcher, startIndexWorker } from "./queue/index-queue.ts";
import { startIngestWorker } from "./runs/executors.ts";

/**
 * `npm run worker`: the production topology's background process. It runs submitted ingest runs
 * (`ingest` queue), turns the search outbox into BullMQ jobs and indexes them into
 * Elasticsearch/OpenSearch (`index` queue). Any number may run: the outbox
 * hands each entry to one of them, and jobs are idempotent.
 */
async function main() {
  const cfg = config();
  if (!cfg.DATABASE_URL || !cfg.REDIS_URL || cfg.SEARCH_ENGINE === "postgres") {
    throw new Error(
      "The worker serves the production topology: set DATABASE_URL, REDIS_URL, SEARCH_ENGINE (opensearch or elasticsearch) and SEARCH_URL. " +
        "Embedded, `npm start` runs the same jobs in its own process.",
    );
  }
  const db = await openStore(cfg);
  const engine = await createIndexedEngine(cfg);
  const settings = queueSettings(cfg)!;
  const queue = new Queue(INDEX_QUEUE, settings);
  queue.on("error", (error) =>
    logger.warn({ err: error }, "index queue: Redis unreachable; outbox entries wait"),
  );
  const worker = startIndexWorker(db, engine, settings, logger);
  const ingestWorker = startIngestWorker(db, cfg, settings, logger);
  const dispatcher = startDispatcher(db, queueSink(queue, db), logger);
  logger.info(
    { engine: engine.name, alias: engine.alias },
    "worker started: search outbox → index queue → index",
  );

  const stop = async (signal: string) => {
    logger.info({ signal }, "worker stopping: finishing jobs in flight");
    await dispatcher.stop();
    await ingestWorker.close();
    await worker.close();
    await queue.close();
    await engine.close();
    await db.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}

main().catch((error) => {
  console.error(`error: ${(error as Error).message}`);
  process.exit(1);
});

import { type Queue, Worker } from "bullmq";
import type { Logger } from "pino";
import type { IndexStore } from "../../services/search/index-store.ts";
import type { Database } from "../../services/store/database.ts";
import {
  type OutboxBatch,
  pruneIndexed,
  redispatchStale,
  releaseBatch,
} from "../../services/store/search-outbox.ts";
import type { QueueSettings } from "./connection.ts";
import type { OutboxPump } from "./dispatcher.ts";
import { dispatchOutbox, indexProvisions, type OutboxSink } from "./index-jobs.ts";

/**
 * Indexing through BullMQ on Redis: the dispatcher turns search-outbox entries into jobs, workers
 * index them. Jobs are small (ids only), named after their outbox range so the same range is
 * never queued twice, and retried with exponential backoff.
 */
export const INDEX_QUEUE = "index";

export const INDEX_JOB_OPTIONS = {
  /** Attempts before a job is left failed for a person to look at (default 10). */
  attempts: 10,
  /** Waits 1 s, 2 s, 4 s… between attempts. */
  backoff: { type: "exponential" as const, delay: 1000 },
  removeOnComplete: 1000,
  removeOnFail: false,
};

export function queueSink(queue: Queue, db: Database): OutboxSink {
  return async (batch: OutboxBatch) => {
    try {
      await queue.add("index-provisions", batch, {
        ...INDEX_JOB_OPTIONS,
        jobId: `outbox-${batch.firstId}-${batch.lastId}`,
      });
    } catch (error) {
      await releaseBatch(db, batch.firstId, batch.lastId);
      throw error;
    }
  };
}

/** In embedded mode (no Redis) the same jobs run in this process. */
export function inProcessSink(db: Database, index: IndexStore): OutboxSink {
  return (batch) => indexProvisions(db, index, batch);
}

export function startIndexWorker(
  db: Database,
  index: IndexStore,
  settings: QueueSettings,
  logger: Logger,
): Worker {
  const worker = new Worker<OutboxBatch>(INDEX_QUEUE, (job) => indexProvisions(db, index, job.data), {
    connection: settings.connection,
    prefix: settings.prefix,
    concurrency: 2,
    lockDuration: settings.lockMs,
    stalledInterval: settings.lockMs,
  });
  worker.on("failed", (job, error) =>
    logger.warn({ err: error, job: job?.id, attempts: job?.attemptsMade }, "index job failed"),
  );
  worker.on("error", (error) => logger.warn({ err: error }, "index worker error"));
  return worker;
}

/** The search outbox's pump, for startDispatcher (dispatcher.ts). */
/**
 * `redispatchAfterSeconds`: entries handed to the queue but never confirmed (a worker killed between
 * marking them and adding their job) are handed out again after this long; jobs are idempotent, so
 * a batch merely slow in a long queue is indexed twice at worst.
 */
export function indexPump(db: Database, sink: OutboxSink, redispatchAfterSeconds = 300): OutboxPump {
  return {
    name: "search",
    dispatch: () => dispatchOutbox(db, sink),
    maintain: async () => {
      await redispatchStale(db, redispatchAfterSeconds);
      await pruneIndexed(db);
    },
  };
}

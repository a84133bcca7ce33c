import { Queue, Worker } from "bullmq";
import type { Logger } from "pino";
import type { Config } from "../../services/core/config.ts";
import { writeChangeBatch } from "../../services/store/change-log.ts";
import {
  type ChangeBatch,
  pruneWrittenChanges,
  redispatchStaleChanges,
  releaseChanges,
  takeUndispatchedChanges,
} from "../../services/store/change-outbox.ts";
import type { Database } from "../../services/store/database.ts";
import type { QueueSettings } from "./connection.ts";
import { queueSettings } from "./connection.ts";
import type { OutboxPump } from "./dispatcher.ts";

/**
 * Change events travel from ingest to the change-log writer: ingest writes them to the change
 * outbox in each document's transaction; the dispatcher sends outbox ranges, events included, as
 * BullMQ jobs on the `changes` queue; the writer inserts them into the change log. Embedded (no
 * Redis), the same batches go straight to the writer in this process.
 *
 * Nothing is lost: an entry leaves the outbox only in the writer's transaction. Nothing is
 * doubled: a job is named after its range (never queued twice) and every event carries an
 * idempotency key the log is unique on, so a retried or replayed job inserts nothing again.
 */
export const CHANGES_QUEUE = "changes";

export const CHANGE_JOB_OPTIONS = {
  attempts: 10,
  backoff: { type: "exponential" as const, delay: 1000 },
  removeOnComplete: 1000,
  removeOnFail: false,
};

/** Where change batches go. */
export type ChangeSink = (batch: ChangeBatch) => Promise<void>;

export function changeQueueSink(queue: Queue, db: Database): ChangeSink {
  return async (batch) => {
    try {
      await queue.add("write-changes", batch, {
        ...CHANGE_JOB_OPTIONS,
        jobId: `changes-${batch.firstId}-${batch.lastId}`,
      });
    } catch (error) {
      await releaseChanges(db, batch.firstId, batch.lastId);
      throw error;
    }
  };
}

export function inProcessChangeSink(db: Database): ChangeSink {
  return async (batch) => {
    await writeChangeBatch(db, batch);
  };
}

/** Hands every waiting change event to the sink, oldest first; returns how many went. */
export async function dispatchChanges(db: Database, sink: ChangeSink, batchSize = 1000): Promise<number> {
  let n = 0;
  for (
    let batch = await takeUndispatchedChanges(db, batchSize);
    batch;
    batch = await takeUndispatchedChanges(db, batchSize)
  ) {
    await sink(batch);
    n += batch.events.length;
  }
  return n;
}

/** `redispatchAfterSeconds`: as for the index pump (index-queue.ts); change-log writes are idempotent. */
export function changePump(db: Database, sink: ChangeSink, redispatchAfterSeconds = 300): OutboxPump {
  return {
    name: "changes",
    dispatch: () => dispatchChanges(db, sink),
    maintain: async () => {
      await redispatchStaleChanges(db, redispatchAfterSeconds);
      await pruneWrittenChanges(db);
    },
  };
}

/** The change-log writer, consuming the `changes` queue (`npm run worker`). */
export function startChangeWriter(db: Database, settings: QueueSettings, logger: Logger): Worker {
  const worker = new Worker<ChangeBatch>(
    CHANGES_QUEUE,
    async (job) => {
      const written = await writeChangeBatch(db, job.data);
      logger.debug({ job: job.id, events: job.data.events.length, written }, "change log written");
    },
    {
      connection: settings.connection,
      prefix: settings.prefix,
      concurrency: 1,
      lockDuration: settings.lockMs,
      stalledInterval: settings.lockMs,
    },
  );
  worker.on("failed", (job, error) =>
    logger.warn({ err: error, job: job?.id, attempts: job?.attemptsMade }, "change-log job failed"),
  );
  worker.on("error", (error) => logger.warn({ err: error }, "change-log worker error"));
  return worker;
}

/**
 * After an ingest run: hand its change events over at once, to the queue when Redis is
 * configured, else to the writer in this process. Returns how many events went.
 */
export async function deliverChanges(db: Database, config: Config, logger: Logger): Promise<number> {
  const settings = queueSettings(config);
  if (!settings) return dispatchChanges(db, inProcessChangeSink(db));
  const queue = new Queue(CHANGES_QUEUE, settings);
  queue.on("error", () => undefined);
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<number>((resolve) => {
    timer = setTimeout(() => resolve(-1), DELIVERY_TIMEOUT_MS);
  });
  try {
    const n = await Promise.race([dispatchChanges(db, changeQueueSink(queue, db)), gaveUp]);
    if (n < 0) throw new Error(`Redis did not answer within ${DELIVERY_TIMEOUT_MS / 1000} s`);
    return n;
  } catch (error) {
    // The ingest stands; its events wait in the outbox for a worker's dispatcher.
    logger.warn({ err: error }, "change events not handed to the queue; they wait in the change outbox");
    return 0;
  } finally {
    clearTimeout(timer);
    void queue.close().catch(() => undefined);
  }
}

const DELIVERY_TIMEOUT_MS = 10_000;

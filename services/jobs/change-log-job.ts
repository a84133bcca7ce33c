import { Queue, Worker } from "bullmq";
import type { Logger } from "pino";
import type { Config } from "../core/config.ts";
import { logger } from "../core/logger.ts";
import { writeChangeBatch } from "../store/change-log.ts";
import { CHANGE_OUTBOX, type ChangeEvent } from "../store/change-outbox.ts";
import type { Database } from "../store/database.ts";
import type { OutboxRange } from "../store/outbox.ts";
import {
  dispatchOutbox,
  type OutboxPump,
  type OutboxSink,
  outboxPump,
  queueSink,
} from "./outbox-dispatcher.ts";
import { type QueueSettings, queueSettings, workerOptions } from "./queues.ts";

/**
 * Change events travel from ingest to the change-log writer: ingest writes them to the change
 * outbox in each document's transaction; the pump sends outbox ranges, events included, as
 * BullMQ jobs on the `changes` queue; the writer inserts them into the change log. Embedded (no
 * Redis), the same ranges go straight to the writer in this process.
 *
 * Nothing is lost: an entry leaves the outbox only in the writer's transaction. Nothing is
 * doubled: a job is named after its range (never queued twice) and every event carries an
 * idempotency key the log is unique on, so a retried or replayed job inserts nothing again.
 */
export const CHANGES_QUEUE = "changes";

const CHANGE_JOB = {
  name: "write-changes",
  options: {
    attempts: 10,
    backoff: { type: "exponential" as const, delay: 1000 },
    removeOnComplete: 1000,
    removeOnFail: false,
  },
};

const BATCH_SIZE = 1000;

/** Where the change outbox's ranges go: the `changes` queue, or the writer in this process (no queue). */
export function changeSink(db: Database, queue?: Queue): OutboxSink<ChangeEvent> {
  return queue
    ? queueSink(queue, db, CHANGE_OUTBOX, CHANGE_JOB)
    : async (range) => {
        await writeChangeBatch(db, range);
      };
}

/** Hands every waiting change event to the sink, oldest first; returns how many went. */
export const dispatchChanges = (db: Database, sink: OutboxSink<ChangeEvent>) =>
  dispatchOutbox(db, CHANGE_OUTBOX, sink, BATCH_SIZE);

/** The change outbox's pump, for startDispatcher; change-log writes are idempotent. */
export const changePump = (
  db: Database,
  sink: OutboxSink<ChangeEvent>,
  redispatchAfterSeconds?: number,
): OutboxPump =>
  outboxPump(db, CHANGE_OUTBOX, sink, { name: "changes", batchSize: BATCH_SIZE, redispatchAfterSeconds });

/** The change-log writer, consuming the `changes` queue (`npm run worker`). */
export function startChangeWriter(db: Database, settings: QueueSettings, logger: Logger): Worker {
  const worker = new Worker<OutboxRange<ChangeEvent>>(
    CHANGES_QUEUE,
    async (job) => {
      const written = await writeChangeBatch(db, job.data);
      logger.debug({ job: job.id, events: job.data.items.length, written }, "change log written");
    },
    workerOptions(settings, 1),
  );
  worker.on("failed", (job, error) =>
    logger.warn({ err: error, job: job?.id, attempts: job?.attemptsMade }, "change-log job failed"),
  );
  worker.on("error", (error) => logger.warn({ err: error }, "change-log worker error"));
  return worker;
}

const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * After an ingest run: hand its change events over at once, to the queue when Redis is
 * configured, else to the writer in this process. Returns how many events went.
 */
async function deliverChanges(db: Database, config: Config, logger: Logger): Promise<number> {
  const settings = queueSettings(config);
  if (!settings) return dispatchChanges(db, changeSink(db));
  const queue = new Queue(CHANGES_QUEUE, settings);
  queue.on("error", () => undefined);
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<number>((resolve) => {
    timer = setTimeout(() => resolve(-1), DELIVERY_TIMEOUT_MS);
  });
  try {
    const n = await Promise.race([dispatchChanges(db, changeSink(db, queue)), gaveUp]);
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

/**
 * Runs an ingest, then hands its change events to the change log at once (also when the run
 * stopped on a bad document: the documents before it are loaded, and so are their changes).
 */
export async function withChangesDelivered<T>(
  db: Database,
  config: Config,
  run: () => Promise<T>,
  log: Logger = logger,
): Promise<T> {
  try {
    return await run();
  } finally {
    await deliverChanges(db, config, log);
  }
}

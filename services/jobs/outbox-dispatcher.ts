import type { JobsOptions, Queue } from "bullmq";
import type { Logger } from "pino";
import type { Database } from "../store/database.ts";
import {
  type Outbox,
  type OutboxRange,
  pruneDone,
  redispatchStale,
  releaseRange,
  takeUndispatched,
} from "../store/outbox.ts";

/**
 * Outboxes to jobs. Ingest writes outbox entries in its transactions; a pump hands ranges of
 * them to a sink (a BullMQ queue, or the job itself run in this process when embedded); the
 * dispatcher runs every pump each second. The search outbox and the change outbox each have one
 * pump, and submitted ingest runs a sweep of their own (ingest-run-job.ts).
 */

/** Where outbox ranges go: a queue (queueSink), or the job run in this process. */
export type OutboxSink<T> = (range: OutboxRange<T>) => Promise<void>;

export interface OutboxPump {
  name: string;
  /** Hands every waiting entry over; returns how many went. */
  dispatch(): Promise<number>;
  /** Now and then: hand over again what a lost job never confirmed, and prune old entries. */
  maintain(): Promise<void>;
}

/** Hands every undispatched entry to the sink, in ranges of `batchSize`, oldest first. */
export async function dispatchOutbox<T>(
  db: Database,
  outbox: Outbox<T>,
  sink: OutboxSink<T>,
  batchSize: number,
): Promise<number> {
  let dispatched = 0;
  for (
    let range = await takeUndispatched(db, outbox, batchSize);
    range;
    range = await takeUndispatched(db, outbox, batchSize)
  ) {
    await sink(range);
    dispatched += range.items.length;
  }
  return dispatched;
}

/**
 * A ranges' sink that adds one job per range, named after the range so that the same range is
 * never queued twice. A range the queue did not take goes back to waiting in the outbox.
 */
export function queueSink<T>(
  queue: Queue,
  db: Database,
  outbox: Outbox<T>,
  job: { name: string; options: JobsOptions },
): OutboxSink<T> {
  return async (range) => {
    try {
      await queue.add(job.name, range, {
        ...job.options,
        jobId: `${job.name}-${range.firstId}-${range.lastId}`,
      });
    } catch (error) {
      await releaseRange(db, outbox, range.firstId, range.lastId);
      throw error;
    }
  };
}

/**
 * An outbox's pump. `redispatchAfterSeconds`: entries handed to the queue but never confirmed
 * (a worker killed between marking them and adding their job) are handed out again after this
 * long; jobs are idempotent, so a range merely slow in a long queue is handled twice at worst.
 */
export function outboxPump<T>(
  db: Database,
  outbox: Outbox<T>,
  sink: OutboxSink<T>,
  {
    name,
    batchSize,
    redispatchAfterSeconds = 300,
  }: { name: string; batchSize: number; redispatchAfterSeconds?: number },
): OutboxPump {
  return {
    name,
    dispatch: () => dispatchOutbox(db, outbox, sink, batchSize),
    maintain: async () => {
      await redispatchStale(db, outbox, redispatchAfterSeconds);
      await pruneDone(db, outbox);
    },
  };
}

/** Polls the pumps every `intervalMs` until stop(). A failed round is logged and retried next round. */
export function startDispatcher(pumps: OutboxPump[], logger: Logger, intervalMs = 1000) {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let rounds = 0;
  const round = async () => {
    const maintain = rounds++ % 60 === 0;
    for (const pump of pumps) {
      try {
        if (maintain) await pump.maintain();
        const n = await pump.dispatch();
        if (n > 0) logger.debug({ outbox: pump.name, entries: n }, "outbox entries dispatched");
      } catch (error) {
        logger.warn(
          { err: error, outbox: pump.name },
          "outbox dispatch failed; entries wait for the next round",
        );
      }
    }
  };
  const timer = setInterval(() => {
    if (!stopped) running = running.then(round);
  }, intervalMs);
  return {
    /** One round now (tests, or after an ingest). */
    flush: () => (running = running.then(round)),
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

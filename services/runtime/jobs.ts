import { Queue, type Worker } from "bullmq";
import type { Logger } from "pino";
import type { Config } from "../core/config.ts";
import { CHANGES_QUEUE, changePump, changeSink, startChangeWriter } from "../jobs/change-log-job.ts";
import { INDEX_QUEUE, indexPump, indexSink, startIndexWorker } from "../jobs/index-job.ts";
import { INGEST_QUEUE, runRequeuePump, startIngestWorker } from "../jobs/ingest-run-job.ts";
import { type OutboxPump, startDispatcher } from "../jobs/outbox-dispatcher.ts";
import { queueSettings } from "../jobs/queues.ts";
import { createIndexedEngine, type IndexedEngine } from "../search/engines.ts";
import type { Database } from "../store/database.ts";

/**
 * The background jobs a process runs, from the configuration. The same jobs (ingest runs, the
 * change-log writer, indexing) run in one of two places:
 * - the worker (`npm run worker`, production topology): BullMQ workers on the queues, and the
 *   pumps that turn the outboxes into jobs on them;
 * - the embedded server (no Redis): no queue, the pumps hand outbox entries to the jobs in the
 *   server's own process (ingest runs are run by the server's in-process executor, build-context.ts).
 */
export interface RunningJobs {
  /** The index engine the indexing jobs write to, when one follows the store. */
  engine: IndexedEngine | undefined;
  /** Queue names this process feeds (worker only). */
  queues: string[];
  stop(): Promise<void>;
}

/** The worker's jobs: every queue's worker, and every outbox's pump onto its queue. */
export async function startWorkerJobs(config: Config, db: Database, logger: Logger): Promise<RunningJobs> {
  const settings = queueSettings(config);
  if (!settings) throw new Error("the worker needs REDIS_URL");
  const queues: Queue[] = [];
  const openQueue = (name: string) => {
    const queue = new Queue(name, settings);
    queue.on("error", (error) =>
      logger.warn({ err: error, queue: name }, "queue: Redis unreachable; outbox entries wait"),
    );
    queues.push(queue);
    return queue;
  };
  const workers: Worker[] = [
    startIngestWorker(db, config, settings, logger),
    startChangeWriter(db, settings, logger),
  ];
  const redispatch = config.OUTBOX_REDISPATCH_SECONDS;
  const pumps: OutboxPump[] = [
    runRequeuePump(db, openQueue(INGEST_QUEUE), logger),
    changePump(db, changeSink(db, openQueue(CHANGES_QUEUE)), redispatch),
  ];
  const engine = config.SEARCH_ENGINE === "postgres" ? undefined : await createIndexedEngine(config);
  if (engine) {
    workers.push(startIndexWorker(db, engine, settings, logger));
    pumps.push(indexPump(db, indexSink(db, { queue: openQueue(INDEX_QUEUE) }), redispatch));
  }
  const dispatcher = startDispatcher(pumps, logger);
  return {
    engine,
    queues: queues.map((q) => q.name),
    stop: async () => {
      await dispatcher.stop();
      for (const worker of workers) await worker.close();
      for (const queue of queues) await queue.close();
      await engine?.close();
    },
  };
}

/**
 * The embedded server's jobs: without Redis there is no worker, so this process writes the change
 * log and, with an index engine, indexes. With Redis, the worker does both and this starts nothing.
 */
export async function startEmbeddedJobs(config: Config, db: Database, logger: Logger): Promise<RunningJobs> {
  if (config.REDIS_URL) return { engine: undefined, queues: [], stop: async () => {} };
  const engine = config.SEARCH_ENGINE === "postgres" ? undefined : await createIndexedEngine(config);
  const pumps: OutboxPump[] = [changePump(db, changeSink(db))];
  if (engine) pumps.push(indexPump(db, indexSink(db, { index: engine })));
  const dispatcher = startDispatcher(pumps, logger);
  return {
    engine,
    queues: [],
    stop: async () => {
      await dispatcher.stop();
      await engine?.close();
    },
  };
}

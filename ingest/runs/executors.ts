import { type ConnectionOptions, Queue, UnrecoverableError, Worker } from "bullmq";
import type { Logger } from "pino";
import type { Config } from "../../services/core/config.ts";
import { InputError } from "../../services/core/errors.ts";
import type { Database } from "../../services/store/database.ts";
import type { QueueSettings } from "../queue/connection.ts";
import { executeIngestRun } from "./execute.ts";

/** Who runs a submitted ingest run: the worker through BullMQ, or the embedded server itself. */
export interface RunExecutor {
  readonly kind: "queue" | "in-process";
  submit(runId: number): Promise<void>;
  close(): Promise<void>;
}

export const INGEST_QUEUE = "ingest";

export const INGEST_JOB_OPTIONS = {
  /** A run that fails on bad input fails at once; one that dies with its worker is retried (default 3). */
  attempts: 3,
  backoff: { type: "exponential" as const, delay: 5000 },
  removeOnComplete: 100,
  removeOnFail: false,
};

export function queueExecutor(settings: { connection: ConnectionOptions; prefix: string }): RunExecutor {
  const queue = new Queue(INGEST_QUEUE, settings);
  queue.on("error", () => undefined);
  return {
    kind: "queue",
    submit: async (runId) => {
      await queue.add("ingest-run", { runId }, { ...INGEST_JOB_OPTIONS, jobId: `run-${runId}` });
    },
    close: () => queue.close(),
  };
}

/** Embedded: runs one at a time in this process, in submission order. */
export function inProcessExecutor(db: Database, config: Config, logger: Logger): RunExecutor {
  let chain: Promise<void> = Promise.resolve();
  return {
    kind: "in-process",
    submit: async (runId) => {
      chain = chain.then(() =>
        executeIngestRun(db, config, runId).catch((error) =>
          logger.warn({ err: error, runId }, "ingest run failed"),
        ),
      );
    },
    close: () => chain,
  };
}

export function startIngestWorker(
  db: Database,
  config: Config,
  settings: QueueSettings,
  logger: Logger,
): Worker {
  const worker = new Worker<{ runId: number }>(
    INGEST_QUEUE,
    async (job) => {
      try {
        // Progress is saved on the job and, per document, on the run itself (ingest_runs).
        await executeIngestRun(db, config, job.data.runId, (progress) => {
          void job.updateProgress({
            documentsDone: progress.documentsDone,
            documentsTotal: progress.documentsTotal,
          });
        });
      } catch (error) {
        // Bad input will not get better by retrying.
        if (error instanceof InputError) throw new UnrecoverableError(error.message);
        throw error;
      }
    },
    // One run at a time per worker: a run is one big job, and its documents are written in order.
    {
      connection: settings.connection,
      prefix: settings.prefix,
      concurrency: 1,
      lockDuration: settings.lockMs,
      stalledInterval: settings.lockMs,
    },
  );
  worker.on("failed", (job, error) => logger.warn({ err: error, job: job?.id }, "ingest job failed"));
  worker.on("error", (error) => logger.warn({ err: error }, "ingest worker error"));
  return worker;
}

import { type ConnectionOptions, Queue, UnrecoverableError, Worker } from "bullmq";
import type { Logger } from "pino";
import { ingestCanonicalContent, ingestKali, ingestLegi } from "../../ingest/load.ts";
import type { IngestProgress } from "../../ingest/pipeline/ingest.ts";
import type { Config } from "../core/config.ts";
import { InputError } from "../core/errors.ts";
import { within } from "../core/within.ts";
import type { Database } from "../store/database.ts";
import {
  findIngestRun,
  finishIngestRun,
  type IngestRun,
  queueIngestRun,
  unfinishedSubmittedRuns,
  waitingRuns,
} from "../store/ingest-runs.ts";
import { withChangesDelivered } from "./change-log-job.ts";
import { type IngestRunRequest, ingestRunRequestSchema } from "./ingest-run-request.ts";
import type { OutboxPump } from "./outbox-dispatcher.ts";
import { type QueueSettings, workerOptions } from "./queues.ts";

/**
 * The ingest-run job: a run a corpus editor submitted (POST /admin/ingest-runs, `corpus runs
 * submit`), recorded in ingest_runs, executed by the worker through the `ingest` queue or, when
 * embedded, by the server itself.
 */

/** Who runs a submitted ingest run: the worker through BullMQ, or the embedded server itself. */
export interface RunExecutor {
  readonly kind: "queue" | "in-process";
  /**
   * Hands a recorded run over. False when the queue did not take it in time (Redis unreachable):
   * the run stays recorded as queued, and the worker queues it once Redis answers again
   * (see runRequeuePump).
   */
  submit(runId: number): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Records a run a corpus editor asked for and hands it to the executor. Recorded first: if the
 * queue does not take it now (Redis unreachable), the worker's sweep queues it later
 * (runRequeuePump). `handedOver` says whether the executor took it now.
 */
export async function submitIngestRun(
  db: Database,
  executor: RunExecutor,
  request: IngestRunRequest,
  requestedBy: string,
): Promise<{ run: IngestRun; handedOver: boolean }> {
  const id = await queueIngestRun(db, { source: request.source, request, requestedBy });
  const handedOver = await executor.submit(id);
  return { run: (await findIngestRun(db, id))!, handedOver };
}

/** How long a submission waits for Redis before it leaves the run to the worker's sweep. */
const SUBMIT_WAIT_MS = 3000;

export const INGEST_QUEUE = "ingest";

const INGEST_JOB_OPTIONS = {
  /** A run that fails on bad input fails at once; one that dies with its worker is retried (default 3). */
  attempts: 3,
  backoff: { type: "exponential" as const, delay: 5000 },
  removeOnComplete: 100,
  removeOnFail: false,
};

/** The run's job; its id makes adding it twice a no-op. */
export const addRunJob = (queue: Queue, runId: number) =>
  queue.add("ingest-run", { runId }, { ...INGEST_JOB_OPTIONS, jobId: `run-${runId}` });

export function queueExecutor(
  settings: { connection: ConnectionOptions; prefix: string },
  waitMs = SUBMIT_WAIT_MS,
): RunExecutor {
  const queue = new Queue(INGEST_QUEUE, settings);
  queue.on("error", () => undefined);
  return {
    kind: "queue",
    submit: async (runId) => {
      // While Redis is down the command waits in ioredis's offline queue and may still go through
      // later; the sweep covers the case where it never does. Either way the job id is the same.
      const added = addRunJob(queue, runId).then(
        () => true,
        () => false,
      );
      return within(added, waitMs, false);
    },
    // Closing waits for Redis; when it is unreachable the connection is dropped instead.
    close: async () => {
      if (
        !(await within(
          queue.close().then(() => true),
          waitMs,
          false,
        ))
      )
        await queue.disconnect();
    },
  };
}

/**
 * The worker's sweep of the ingest_runs table, which is the outbox of submitted runs: a run still
 * queued after `afterSeconds` whose job the queue does not hold is queued again, and one whose job
 * the queue gave up on before the run could start (its attempts spent, say on a database that did
 * not answer) is recorded as failed with the queue's reason, so that its status does not stay
 * `queued`. Looked at every `everySeconds` at most (the dispatcher calls it every second).
 */
export function runRequeuePump(
  db: Database,
  queue: Queue,
  logger: Logger,
  { afterSeconds = 30, everySeconds = 15 } = {},
): OutboxPump {
  let next = 0;
  return {
    name: "ingest-runs",
    dispatch: async () => {
      if (Date.now() < next) return 0;
      next = Date.now() + everySeconds * 1000;
      let requeued = 0;
      for (const runId of await waitingRuns(db, afterSeconds)) {
        const job = await queue.getJob(`run-${runId}`);
        if (job && (await job.isFailed())) {
          await finishIngestRun(
            db,
            runId,
            {},
            `the queue gave up on the run before it started: ${job.failedReason}`,
          );
          logger.warn(
            { runId, reason: job.failedReason },
            "ingest run failed in the queue before it started",
          );
          continue;
        }
        if (job) continue;
        await addRunJob(queue, runId);
        requeued += 1;
        logger.info(
          { runId },
          "ingest run had no job (Redis was unreachable when it was submitted): queued it",
        );
      }
      return requeued;
    },
    maintain: async () => {},
  };
}

/**
 * Embedded, this process alone runs submitted runs: those it was running or had not started when
 * it stopped are submitted again when it starts (a run executed again reaches the same state).
 */
export async function resumeSubmittedRuns(db: Database, executor: RunExecutor): Promise<number[]> {
  const ids = await unfinishedSubmittedRuns(db);
  for (const id of ids) await executor.submit(id);
  return ids;
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
      return true;
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
    workerOptions(settings, 1),
  );
  worker.on("failed", (job, error) => logger.warn({ err: error, job: job?.id }, "ingest job failed"));
  worker.on("error", (error) => logger.warn({ err: error }, "ingest worker error"));
  return worker;
}

/**
 * Executes a queued run, whoever runs it (the worker, the embedded server). Running it again after
 * a crash reaches the same final state: documents already written are unchanged the second time.
 */
async function executeIngestRun(
  db: Database,
  config: Config,
  runId: number,
  onProgress?: (progress: IngestProgress) => void,
): Promise<void> {
  const run = await findIngestRun(db, runId);
  if (!run) throw new Error(`no ingest run ${runId}`);
  if (run.status === "succeeded") return;
  const parsed = ingestRunRequestSchema.safeParse(run.request);
  if (!parsed.success) {
    await finishIngestRun(db, runId, {}, `invalid request: ${parsed.error.issues[0]?.message}`);
    return;
  }
  const request = parsed.data;
  try {
    await withChangesDelivered(db, config, () =>
      request.source === "legi"
        ? ingestLegi(db, config, { version: request.version, codes: request.codes, runId, onProgress })
        : request.source === "kali"
          ? ingestKali(db, config, { version: request.version, idcc: request.idcc, runId, onProgress })
          : ingestCanonicalContent(db, config, request.file, request.name, { runId, onProgress }),
    );
  } catch (error) {
    // ingest() records its own failures; this covers what fails before it starts (bad file, fetch).
    const current = await findIngestRun(db, runId);
    if (current?.status !== "failed") await finishIngestRun(db, runId, {}, (error as Error).message);
    throw error;
  }
}

import { type Queue, Worker } from "bullmq";
import type { Logger } from "pino";
import type { IndexStore } from "../search/index-store.ts";
import type { Database } from "../store/database.ts";
import { provisionHashesOf, provisionsByPublicId } from "../store/index-source.ts";
import { markDone, type OutboxRange } from "../store/outbox.ts";
import { SEARCH_OUTBOX } from "../store/search-outbox.ts";
import { type OutboxPump, type OutboxSink, outboxPump, queueSink } from "./outbox-dispatcher.ts";
import { type QueueSettings, workerOptions } from "./queues.ts";

/**
 * The indexing job (Elasticsearch, OpenSearch): make the index hold these provisions exactly as
 * Postgres has them now. The search outbox's pump turns entries into jobs on the `index` queue;
 * jobs are small (ids only) and retried with exponential backoff. Embedded, the same job runs in
 * the server's process.
 */
export const INDEX_QUEUE = "index";

const INDEX_JOB = {
  name: "index-provisions",
  options: {
    /** Attempts before a job is left failed for a person to look at (default 10). */
    attempts: 10,
    /** Waits 1 s, 2 s, 4 s… between attempts. */
    backoff: { type: "exponential" as const, delay: 1000 },
    removeOnComplete: 1000,
    removeOnFail: false,
  },
};

/** Rounds of write-then-check before a job gives up and is retried by the queue. */
const WRITE_ROUNDS = 5;

/**
 * Idempotent by construction (it reads current rows, and the same row always yields the same
 * index document), so a retry, a duplicate or a replay after a crash converges on one state.
 *
 * Two jobs may hold the same provision (the run's own entry, then the one the priors' refresh
 * queued after it): one that read the row before a change committed could write after one that
 * read it since, leaving the index a step behind with no entry left to mend it. So after writing,
 * a job reads the rows' hashes again and writes anew whatever changed meanwhile: the last write
 * of a provision is then always of what Postgres held after its last change.
 */
export async function indexProvisions(
  db: Database,
  index: IndexStore,
  range: OutboxRange<string>,
): Promise<void> {
  const [target] = await index.aliasTargets();
  if (!target) throw new Error(`no index behind ${index.alias}: run \`corpus index rebuild\``);
  let publicIds = [...new Set(range.items)];
  for (let round = 1; publicIds.length > 0; round++) {
    if (round > WRITE_ROUNDS)
      throw new Error(
        `${publicIds.length} provisions kept changing while being indexed, e.g. ${publicIds[0]}`,
      );
    const rows = await provisionsByPublicId(db, publicIds);
    const written = new Map(rows.map((r) => [r.id, r.hash]));
    const failed = await index.bulk(
      target,
      rows,
      publicIds.filter((id) => !written.has(id)),
    );
    if (failed.length > 0)
      throw new Error(`indexing failed for ${failed.length} provisions, e.g. ${failed[0]}`);
    const now = await provisionHashesOf(db, publicIds);
    publicIds = publicIds.filter((id) => now.get(id) !== written.get(id));
  }
  await markDone(db, SEARCH_OUTBOX, range.firstId, range.lastId);
}

/** Where the search outbox's ranges go: the `index` queue, or the job run in this process (no queue). */
export function indexSink(db: Database, to: { queue: Queue } | { index: IndexStore }): OutboxSink<string> {
  return "queue" in to
    ? queueSink(to.queue, db, SEARCH_OUTBOX, INDEX_JOB)
    : (range) => indexProvisions(db, to.index, range);
}

/** The search outbox's pump, for startDispatcher. */
export const indexPump = (
  db: Database,
  sink: OutboxSink<string>,
  redispatchAfterSeconds?: number,
): OutboxPump =>
  outboxPump(db, SEARCH_OUTBOX, sink, { name: "search", batchSize: 500, redispatchAfterSeconds });

export function startIndexWorker(
  db: Database,
  index: IndexStore,
  settings: QueueSettings,
  logger: Logger,
): Worker {
  const worker = new Worker<OutboxRange<string>>(
    INDEX_QUEUE,
    (job) => indexProvisions(db, index, job.data),
    workerOptions(settings, 2),
  );
  worker.on("failed", (job, error) =>
    logger.warn({ err: error, job: job?.id, attempts: job?.attemptsMade }, "index job failed"),
  );
  worker.on("error", (error) => logger.warn({ err: error }, "index worker error"));
  return worker;
}

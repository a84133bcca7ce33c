import { randomBytes } from "node:crypto";
import { Queue, Worker } from "bullmq";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { addRunJob, INGEST_QUEUE, runRequeuePump } from "../../services/jobs/ingest-run-job.ts";
import { findIngestRun, queueIngestRun } from "../../services/store/ingest-runs.ts";
import { openTestStore, type TestStore } from "../helpers/stores.ts";

/**
 * The worker's sweep of submitted runs, on server Postgres and the test Redis: a queued run whose
 * job never reached the queue is queued once; one whose job the queue gave up on is recorded as
 * failed. (test/integration/worker-process.test.ts runs the whole story with processes.)
 */
describe("the sweep of submitted ingest runs", () => {
  let store: TestStore;
  let queue: Queue;
  const url = new URL(inject("redisUrl"));
  const settings = {
    connection: { host: url.hostname, port: Number(url.port || 6379), maxRetriesPerRequest: null },
    prefix: `lc-requeue-${randomBytes(3).toString("hex")}:bull`,
  };
  const logger = pino({ level: "silent" });
  const submit = (requestedBy = "cli") =>
    queueIngestRun(store.db, { source: "legi", request: { source: "legi" }, requestedBy });
  // As the worker runs it, without the waits: every queued run is old enough, every call looks.
  const sweep = () =>
    runRequeuePump(store.db, queue, logger, { afterSeconds: 0, everySeconds: 0 }).dispatch();

  beforeAll(async () => {
    store = await openTestStore("postgres", "requeue");
    queue = new Queue(INGEST_QUEUE, settings);
  });
  afterAll(async () => {
    await queue?.obliterate({ force: true });
    await queue?.close();
    await store?.dispose();
  });

  it("queues a run whose job never arrived, once, and leaves runs whose job is there", async () => {
    const lost = await submit();
    const arrived = await submit();
    await addRunJob(queue, arrived);
    expect(await sweep()).toBe(1);
    expect(await queue.getJob(`run-${lost}`)).toBeDefined();
    expect(await sweep()).toBe(0);
    expect((await queue.getJobs(["waiting"])).map((j) => j.id).sort()).toEqual(
      [`run-${arrived}`, `run-${lost}`].sort(),
    );
    await queue.drain();
  });

  it("records as failed a run whose job the queue gave up on before it started, with the reason", async () => {
    const doomed = await submit();
    await queue.add("ingest-run", { runId: doomed }, { jobId: `run-${doomed}`, attempts: 1 });
    const worker = new Worker(
      INGEST_QUEUE,
      async () => {
        throw new Error("the database did not answer");
      },
      settings,
    );
    try {
      for (let i = 0; i < 100 && !(await (await queue.getJob(`run-${doomed}`))?.isFailed()); i++)
        await new Promise((r) => setTimeout(r, 100));
    } finally {
      await worker.close();
    }
    expect((await findIngestRun(store.db, doomed))!.status).toBe("queued");
    await sweep();
    const run = (await findIngestRun(store.db, doomed))!;
    expect(run.status).toBe("failed");
    expect(run.error).toBe("the queue gave up on the run before it started: the database did not answer");
  });
});

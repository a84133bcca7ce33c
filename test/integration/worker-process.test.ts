import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { Client } from "@opensearch-project/opensearch";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { repoRoot } from "../../services/core/config.ts";
import { rebuildIndex, verifyIndex } from "../../services/search/indexer.ts";
import { OpenSearchEngine } from "../../services/search/opensearch-engine.ts";
import { pendingCount } from "../../services/store/outbox.ts";
import { SEARCH_OUTBOX } from "../../services/store/search-outbox.ts";
import { runCli } from "../helpers/cli.ts";
import { freePort, startRedis, stopProcess } from "../helpers/processes.ts";
import { openTestStore, type TestStore } from "../helpers/stores.ts";

/**
 * The production topology's worker as a real process: the CLI ingests the four codes into server
 * Postgres, the worker indexes them through Redis into OpenSearch; killed with SIGKILL in the
 * middle, a new worker finishes the work and the index equals Postgres.
 */
describe("the indexing worker process (npm run worker)", () => {
  let store: TestStore;
  let engine: OpenSearchEngine;
  let redis: ChildProcess;
  let env: Record<string, string>;
  const workers: ChildProcess[] = [];

  const startWorker = () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(repoRoot, "services/runtime/worker.ts")],
      {
        cwd: repoRoot,
        env: { ...process.env, ...env, LOG_LEVEL: "warn" },
        stdio: ["ignore", "inherit", "inherit"],
      },
    );
    workers.push(child);
    return child;
  };

  beforeAll(async () => {
    store = await openTestStore("postgres", "worker");
    const alias = `lc-worker-${randomBytes(4).toString("hex")}`;
    engine = new OpenSearchEngine(new Client({ node: inject("opensearchUrl") }), alias);
    await rebuildIndex(store.db, engine, { shards: 1, replicas: 0 });
    const port = await freePort();
    redis = await startRedis(port);
    env = {
      DATABASE_URL: store.url!,
      REDIS_URL: `redis://127.0.0.1:${port}`,
      REDIS_PREFIX: `lc-worker-${randomBytes(3).toString("hex")}`,
      SEARCH_ENGINE: "opensearch",
      SEARCH_URL: inject("opensearchUrl"),
      SEARCH_INDEX: alias,
    };
  });
  afterAll(async () => {
    for (const worker of workers) if (worker.exitCode === null) worker.kill("SIGKILL");
    if (redis) await stopProcess(redis);
    for (const index of (await engine?.aliasTargets()) ?? []) await engine.deleteIndex(index);
    await engine?.close();
    await store?.dispose();
  });

  it("refuses to run without the production topology, saying what is missing", async () => {
    const lonely = spawn(
      process.execPath,
      ["--import", "tsx", path.join(repoRoot, "services/runtime/worker.ts")],
      {
        cwd: repoRoot,
        env: { ...process.env, DATABASE_URL: "", REDIS_URL: "", SEARCH_ENGINE: "postgres" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    lonely.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    const code = await new Promise((resolve) => lonely.once("exit", resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/set DATABASE_URL and REDIS_URL/);
  });

  it("runs an ingest submitted from the CLI, with status and progress visible", async () => {
    const worker = startWorker();
    const submitted = await runCli(
      ["runs", "submit", "legi", "--codes", "LEGITEXT000031366350", "--wait"],
      env,
    );
    expect(submitted.stdout).toMatch(/Run \d+ queued \(the worker will run it\)/);
    expect(submitted.stdout).toMatch(/run \d+: succeeded, 1\/1 documents/);
    expect(submitted.code).toBe(0);
    const id = /Run (\d+) queued/.exec(submitted.stdout)![1]!;
    const shown = JSON.parse((await runCli(["runs", "show", id, "--json"], env)).stdout);
    expect(shown).toMatchObject({
      status: "succeeded",
      documentsDone: 1,
      documentsTotal: 1,
      requestedBy: "cli",
    });
    worker.kill("SIGTERM");
    await new Promise((resolve) => worker.once("exit", resolve));
    await store.db.exec(
      "TRUNCATE documents, provisions, sections, provision_versions, provision_links, search_outbox CASCADE",
    );
    await rebuildIndex(store.db, engine, { shards: 1, replicas: 0 });
  });

  it("indexes a full ingest, survives SIGKILL mid-run, and ends equal to Postgres", async () => {
    const first = startWorker();
    const ingested = await runCli(["ingest", "legi"], env);
    expect(ingested.code).toBe(0);
    const total = await pendingCount(store.db, SEARCH_OUTBOX);
    expect(total).toBeGreaterThan(0);

    // Kill the worker once it has indexed part of the corpus, but not all of it.
    for (let i = 0; i < 600 && (await pendingCount(store.db, SEARCH_OUTBOX)) > total * 0.7; i++)
      await new Promise((r) => setTimeout(r, 100));
    const left = await pendingCount(store.db, SEARCH_OUTBOX);
    first.kill("SIGKILL");
    await new Promise((resolve) => first.once("exit", resolve));
    console.log(`worker killed with ${left} of ${total} outbox entries still to index`);
    expect(left).toBeGreaterThan(0);

    startWorker();
    // A bound, not a timing: a busy CI machine has taken more than twice a quiet one's 130 s.
    const deadline = Date.now() + 480_000;
    while ((await pendingCount(store.db, SEARCH_OUTBOX)) > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 500));
    expect(await pendingCount(store.db, SEARCH_OUTBOX)).toBe(0);
    await engine.refresh((await engine.aliasTargets())[0]!);
    expect(await verifyIndex(store.db, engine)).toMatchObject({ missing: [], stale: [], extra: [] });
  }, 600_000);

  it("records a run submitted while Redis is down, and a worker queues and runs it once Redis is back", async () => {
    // A process killed by a signal has no exit code, only a signal code.
    const running = workers.filter((w) => w.exitCode === null && w.signalCode === null);
    for (const worker of running) worker.kill("SIGTERM");
    await Promise.all(running.map((w) => new Promise((r) => w.once("exit", r))));
    await stopProcess(redis);

    const started = Date.now();
    const submitted = await runCli(["runs", "submit", "legi", "--codes", "LEGITEXT000031366350"], env);
    expect(submitted.code).toBe(0);
    expect(submitted.stdout).toMatch(/Run \d+ recorded, but Redis did not answer: the worker queues it/);
    // Bounded: the submission waits 3 s for Redis, closing 3 s more; then the CLI exits.
    expect(Date.now() - started).toBeLessThan(30_000);
    const id = Number(/Run (\d+) recorded/.exec(submitted.stdout)![1]);
    const status = async () =>
      (await store.db.query<{ status: string }>("SELECT status FROM ingest_runs WHERE id = $1", [id]))
        .rows[0]!.status;
    expect(await status()).toBe("queued");

    redis = await startRedis(Number(new URL(env.REDIS_URL!).port));
    // As if submitted a minute ago: the sweep leaves younger runs to whoever is still submitting them.
    await store.db.query("UPDATE ingest_runs SET started_at = now() - interval '1 minute' WHERE id = $1", [
      id,
    ]);
    startWorker();
    const deadline = Date.now() + 90_000;
    while ((await status()) !== "succeeded" && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 500));
    expect(await status()).toBe("succeeded");
  });
});

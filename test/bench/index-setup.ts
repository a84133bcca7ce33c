import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startElasticsearch } from "../../infra/elasticsearch/start.ts";
import type { JvmCluster } from "../../infra/jvm-cluster.ts";
import { startOpenSearch } from "../../infra/opensearch/start.ts";
import type { Database } from "../../services/store/database.ts";
import { openStore } from "../../services/store/open.ts";
import { freePortPair } from "../helpers/processes.ts";
import { freshTarget } from "./targets.ts";
import { runInWorker } from "./variants.ts";

/**
 * What to undo, last made first undone. Running it again while it runs waits for the same run; once
 * it has run, it does nothing more, except for what was added since (a set-up step that finished
 * after a signal had started the cleanups): that is undone at once.
 */
export class Cleanups {
  private readonly stack: Array<() => Promise<unknown>> = [];
  private started = false;
  private draining: Promise<void> | undefined;

  add(cleanup: () => Promise<unknown>): void {
    this.stack.push(cleanup);
    if (this.started) void this.run();
  }

  run(): Promise<void> {
    this.started = true;
    this.draining ??= this.drain().finally(() => {
      this.draining = undefined;
    });
    return this.draining;
  }

  private async drain(): Promise<void> {
    // One failing cleanup does not keep the others from running.
    for (let cleanup = this.stack.pop(); cleanup; cleanup = this.stack.pop())
      await cleanup().catch((error) => console.error(error));
  }
}

/**
 * The set-up of the indexing benchmark, made once: a real OpenSearch node (Maven Central jars, no
 * Docker) and a temporary database on server Postgres holding the full corpus. Everything it makes
 * is registered in `cleanups` as soon as it exists: running them stops the node, drops the database
 * and removes the temporary folders, also after a failure or a signal half-way through.
 */
export interface IndexBenchSetup {
  openSearchUrl: string;
  /** The store's environment (DATA_DIR, DATABASE_URL), for the engine's configuration. */
  env: { DATA_DIR: string; DATABASE_URL: string };
  /** The store, opened (and migrated) in this process: both variants read it from here. */
  db: Database;
  /** Provisions stored by the ingest (what the index must end up holding). */
  provisions: number;
  loadSeconds: number;
  openSearchSeconds: number;
}

const secondsSince = (start: number) => (performance.now() - start) / 1000;

/**
 * A real OpenSearch node (1 GB heap, a free pair of ports) on a data folder of our own. startOpenSearch
 * removes a temporary folder it made itself only when it stops the node itself: one whose JVM has
 * already exited (killed with the benchmark's process group by Ctrl-C, say) would leave it behind.
 */
export type IndexEngineKind = "opensearch" | "elasticsearch";

/** A node of the engine from Maven Central jars (infra/), 1 GB of heap, removed with the cleanups. */
export async function startNode(
  cleanups: Cleanups,
  engine: IndexEngineKind = "opensearch",
): Promise<{ cluster: JvmCluster; seconds: number }> {
  const started = performance.now();
  const basePath = await mkdtemp(path.join(os.tmpdir(), `lc-bench-${engine}-`));
  cleanups.add(() => rm(basePath, { recursive: true, force: true }));
  const start = engine === "opensearch" ? startOpenSearch : startElasticsearch;
  const cluster = await start({ httpPort: await freePortPair(100), heap: "1g", basePath });
  cleanups.add(() => cluster.stop());
  return { cluster, seconds: secondsSince(started) };
}

/** Starts the node and loads the corpus side by side (neither is timed), then opens the store. */
export async function prepareIndexBench(cleanups: Cleanups): Promise<IndexBenchSetup> {
  const [node, loaded] = await Promise.allSettled([
    startNode(cleanups),
    (async () => {
      const target = await freshTarget("pg");
      cleanups.add(() => target.dispose());
      // `ingestLegi` with a configuration from parseConfig, in the ingest benchmark's worker process
      // (test/bench/worker.ts), so that the gigabyte the load allocates is not in this process.
      // SEARCH_ENGINE is pinned so a shell that sets it cannot change what is loaded.
      const result = await runInWorker(
        { method: "ingest", database: "pg", label: "load the corpus" },
        { ...target.env, SEARCH_ENGINE: "postgres" },
      );
      return { target, result };
    })(),
  ]);
  if (node.status === "rejected") throw node.reason;
  if (loaded.status === "rejected") throw loaded.reason;
  const { target, result } = loaded.value;
  const db = await openStore({ DATA_DIR: target.env.DATA_DIR, DATABASE_URL: target.env.DATABASE_URL });
  cleanups.add(() => db.close());
  return {
    openSearchUrl: node.value.cluster.url,
    env: target.env,
    db,
    provisions: result.provisions,
    loadSeconds: result.seconds,
    openSearchSeconds: node.value.seconds,
  };
}

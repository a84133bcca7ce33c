import { randomBytes } from "node:crypto";
import { createKey, createProject } from "../../services/access/keys.ts";
import { parseConfig } from "../../services/core/config.ts";
import { createIndexedEngine } from "../../services/search/engines.ts";
import { rebuildIndex } from "../../services/search/indexer.ts";
import { openStore } from "../../services/store/open.ts";
import { findEnginePid } from "./index-cpu.ts";
import { type Cleanups, type IndexEngineKind, startNode } from "./index-setup.ts";
import { freshTarget } from "./targets.ts";
import { runInWorker } from "./variants.ts";

/** The set-ups of the API benchmark, as BENCH_SETUPS names them, in the order they run. */
export const SETUP_KINDS = ["embedded", "postgres", "opensearch", "elasticsearch"] as const;
export type SetupKind = (typeof SETUP_KINDS)[number];

export const SETUP_LABELS: Record<SetupKind, string> = {
  embedded: "embedded PGlite",
  postgres: "server Postgres",
  opensearch: "server Postgres + OpenSearch",
  elasticsearch: "server Postgres + Elasticsearch",
};

/** The node an index engine's set-up searches, and the alias its index is behind. */
export interface EngineNode {
  /** "OpenSearch" or "Elasticsearch". */
  name: string;
  url: string;
  alias: string;
  /** The node's JVM, whose CPU time is counted (undefined where /proc cannot tell). */
  pid: number | undefined;
  version: string;
  startSeconds: number;
  indexSeconds: number;
}

/** One set-up of the API benchmark: a store holding the full corpus, and a key to query it with. */
export interface ApiSetup {
  kind: SetupKind;
  label: string;
  database: "pglite" | "pg";
  /** What the server process needs: the store (DATA_DIR, DATABASE_URL), KEY_HASH_SECRET and the engine. */
  env: Record<string, string>;
  /** The temporary database on server Postgres, whose backends' CPU time is counted. */
  postgresDatabase: string | undefined;
  /** Set for the index engines' set-ups only. */
  engineNode: EngineNode | undefined;
  apiKey: string;
  provisions: number;
  loadSeconds: number;
  /** Stops the node, drops the database, removes the temporary folders (also what a failed set-up made). */
  dispose(): Promise<void>;
}

/** The plan with the highest minute limit (60,000), so the limiter never refuses the benchmark. */
const PLAN = "scale";

/**
 * Loads the corpus into a fresh store, in the ingest benchmark's worker process: the gigabyte the
 * load allocates is then not in this process's heap when it later measures the raw engine.
 * SEARCH_ENGINE is pinned so that a shell which sets it cannot change what is loaded (with an index
 * engine the ingest would also fill the search outbox, which the server would then work through).
 */
async function loadCorpus(database: "pglite" | "pg", label: string, cleanups: Cleanups) {
  const target = await freshTarget(database);
  cleanups.add(async () => {
    // pg's Pool.end() resolves before its connections have said goodbye; dropping the database
    // (WITH FORCE) at once would cut them off, and the store would log a warning about it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await target.dispose();
  });
  const loaded = await runInWorker(
    { method: "ingest", database, label },
    { ...target.env, SEARCH_ENGINE: "postgres" },
  );
  return { target, loaded };
}

/**
 * Builds the index the way `corpus index rebuild` does (rebuildIndex with the engine the
 * configuration makes), behind a fresh alias, 1 shard and 0 replicas as on one node.
 */
async function buildIndex(
  env: { DATA_DIR: string; DATABASE_URL: string },
  engine: IndexEngineKind,
  url: string,
  alias: string,
) {
  const config = parseConfig({
    ...env,
    SEARCH_ENGINE: engine,
    SEARCH_URL: url,
    SEARCH_INDEX: alias,
    SEARCH_SHARDS: "1",
    SEARCH_REPLICAS: "0",
    LOG_LEVEL: "silent",
  });
  const db = await openStore(config);
  try {
    const engine = await createIndexedEngine(config);
    try {
      return await rebuildIndex(db, engine, {
        shards: config.SEARCH_SHARDS,
        replicas: config.SEARCH_REPLICAS,
      });
    } finally {
      await engine.close();
    }
  } finally {
    await db.close();
  }
}

/**
 * Prepares one set-up. Everything it makes is registered in `cleanups` as soon as it exists, so
 * that running them (dispose, a failure half-way, or a signal) leaves nothing behind.
 */
export async function prepareSetup(kind: SetupKind, cleanups: Cleanups): Promise<ApiSetup> {
  const label = SETUP_LABELS[kind];
  const database = kind === "embedded" ? "pglite" : "pg";
  let engineNode: EngineNode | undefined;
  let engineEnv: Record<string, string> = { SEARCH_ENGINE: "postgres" };
  let corpus: Awaited<ReturnType<typeof loadCorpus>>;

  if (kind === "opensearch" || kind === "elasticsearch") {
    // The node starts (a JVM) while the corpus loads; neither is timed.
    const [node, loaded] = await Promise.allSettled([
      startNode(cleanups, kind),
      loadCorpus(database, label, cleanups),
    ]);
    if (node.status === "rejected") throw node.reason;
    if (loaded.status === "rejected") throw loaded.reason;
    corpus = loaded.value;
    const url = node.value.cluster.url;
    const alias = `lc-bench-api-${randomBytes(4).toString("hex")}`;
    const indexed = await buildIndex(corpus.target.env, kind, url, alias);
    if (indexed.documents !== corpus.loaded.provisions)
      throw new Error(`the index holds ${indexed.documents} documents, not ${corpus.loaded.provisions}`);
    const about = (await (await fetch(url)).json()) as { version: { number: string } };
    const pid = findEnginePid(Number(new URL(url).port));
    engineNode = {
      name: kind === "opensearch" ? "OpenSearch" : "Elasticsearch",
      url,
      alias,
      pid: pid === undefined ? undefined : Number(pid),
      version: about.version.number,
      startSeconds: node.value.seconds,
      indexSeconds: indexed.seconds,
    };
    engineEnv = { SEARCH_ENGINE: kind, SEARCH_URL: url, SEARCH_INDEX: alias };
  } else {
    corpus = await loadCorpus(database, label, cleanups);
  }

  const { target, loaded } = corpus;
  const keyHashSecret = randomBytes(32).toString("hex");
  const db = await openStore({
    DATA_DIR: target.env.DATA_DIR,
    DATABASE_URL: target.env.DATABASE_URL || undefined,
  });
  let apiKey: string;
  try {
    await createProject(db, "api-bench", PLAN);
    apiKey = (await createKey(db, keyHashSecret, { project: "api-bench", label: "npm run bench:api" })).key;
  } finally {
    await db.close();
  }
  return {
    kind,
    label,
    database,
    env: { ...target.env, ...engineEnv, KEY_HASH_SECRET: keyHashSecret },
    postgresDatabase: target.env.DATABASE_URL
      ? new URL(target.env.DATABASE_URL).pathname.slice(1)
      : undefined,
    engineNode,
    apiKey,
    provisions: loaded.provisions,
    loadSeconds: loaded.seconds,
    dispose: () => cleanups.run(),
  };
}

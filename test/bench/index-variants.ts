import { parseConfig } from "../../services/core/config.ts";
import type { IndexLayout } from "../../services/search/dsl.ts";
import { indexBody } from "../../services/search/dsl.ts";
import { createIndexedEngine, type IndexedEngine } from "../../services/search/engines.ts";
import type { IndexStore } from "../../services/search/index-store.ts";
import { rebuildIndex } from "../../services/search/indexer.ts";
import type { Database } from "../../services/store/database.ts";
import type { IndexDocumentJson } from "../../services/store/index-source.ts";
import { provisionsForIndex } from "../../services/store/index-source.ts";
import type { RunCpu } from "./index-cpu.ts";

/**
 * The two ways of filling an index that the benchmark compares:
 * - ours: `rebuildIndex` — the code path of `corpus index rebuild` — with the engine the
 *   configuration makes (createIndexedEngine: the OpenSearch client, OpenSearchEngine);
 * - raw: the same documents, already in memory, sent with plain fetch to `/_bulk` as NDJSON in
 *   batches of the same size, into an index made from the same body.
 */

export type Method = "ours" | "raw";

export const LAYOUT: IndexLayout = { shards: 1, replicas: 0 };
/** provisionsForIndex's page size, hence the size of our _bulk requests. */
export const BATCH = 2000;

export interface IndexRun {
  seconds: number;
  /** Documents the variant sent (ours: what rebuildIndex reports). */
  documents: number;
  /** _count of the index after the run's refresh. */
  indexed: number;
  /** CPU seconds of Node, OpenSearch and Postgres during the timed part (Linux only). */
  cpu: RunCpu | undefined;
  /** Where the wall time went; the phases add up to `seconds`. */
  phases: Record<string, number>;
}

const now = () => performance.now();
const seconds = (ms: number) => ms / 1000;
/** Starts a CPU measurement; calling what it returns ends it. */
export type CpuWindow = () => () => RunCpu | undefined;

/** Every provision as an index document, read the way rebuildIndex reads them, before any timing. */
export async function readDocuments(db: Database): Promise<IndexDocumentJson[]> {
  const documents: IndexDocumentJson[] = [];
  for await (const page of provisionsForIndex(db, BATCH)) documents.push(...page);
  return documents;
}

/** Times each call our indexer makes to the engine; what is left is reading Postgres and building documents. */
class TimedStore implements IndexStore {
  readonly spent = { create: 0, bulk: 0, refresh: 0, alias: 0 };

  constructor(private readonly inner: IndexedEngine) {}

  get alias() {
    return this.inner.alias;
  }

  private async time<T>(phase: keyof TimedStore["spent"], work: () => Promise<T>): Promise<T> {
    const start = now();
    try {
      return await work();
    } finally {
      this.spent[phase] += now() - start;
    }
  }

  createIndex(name: string, layout: IndexLayout) {
    return this.time("create", () => this.inner.createIndex(name, layout));
  }
  deleteIndex(name: string) {
    return this.time("alias", () => this.inner.deleteIndex(name));
  }
  aliasTargets() {
    return this.time("alias", () => this.inner.aliasTargets());
  }
  swapAlias(index: string, previous: string[]) {
    return this.time("alias", () => this.inner.swapAlias(index, previous));
  }
  bulk(index: string, upserts: IndexDocumentJson[], deletes: string[]) {
    return this.time("bulk", () => this.inner.bulk(index, upserts, deletes));
  }
  refresh(index: string) {
    return this.time("refresh", () => this.inner.refresh(index));
  }
  hashes(index: string) {
    return this.inner.hashes(index);
  }
}

/** Plain HTTP to the node, for the raw variant and for the checks of both. */
export async function call(url: string, method: string, body?: string, ndjson = false): Promise<unknown> {
  const response = await fetch(url, {
    method,
    ...(body === undefined
      ? {}
      : { body, headers: { "content-type": ndjson ? "application/x-ndjson" : "application/json" } }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as unknown;
}

async function countOf(node: string, index: string): Promise<number> {
  return ((await call(`${node}/${index}/_count`, "GET")) as { count: number }).count;
}

/** Our code path, timed as one call; the engine's client is made (and closed) outside the timing. */
export async function runOurs(
  db: Database,
  env: { DATA_DIR: string; DATABASE_URL: string },
  node: string,
  alias: string,
  cpuWindow: CpuWindow,
): Promise<IndexRun> {
  const config = parseConfig({
    ...env,
    SEARCH_ENGINE: "opensearch",
    SEARCH_URL: node,
    SEARCH_INDEX: alias,
    SEARCH_SHARDS: String(LAYOUT.shards),
    SEARCH_REPLICAS: String(LAYOUT.replicas),
    LOG_LEVEL: "silent",
  });
  const engine = await createIndexedEngine(config);
  const store = new TimedStore(engine);
  try {
    const endCpu = cpuWindow();
    const start = now();
    const outcome = await rebuildIndex(db, store, {
      shards: config.SEARCH_SHARDS,
      replicas: config.SEARCH_REPLICAS,
    });
    const wall = now() - start;
    const cpu = endCpu();
    const { create, bulk, refresh, alias: aliasSwap } = store.spent;
    return {
      seconds: seconds(wall),
      documents: outcome.documents,
      indexed: await countOf(node, outcome.index),
      cpu,
      phases: {
        "create index": seconds(create),
        "read Postgres + build documents": seconds(wall - create - bulk - refresh - aliasSwap),
        _bulk: seconds(bulk),
        _refresh: seconds(refresh),
        "alias swap": seconds(aliasSwap),
      },
    };
  } finally {
    for (const index of await engine.aliasTargets().catch(() => [])) await engine.deleteIndex(index);
    await engine.close();
  }
}

/** The same documents, the same index body, plain fetch to /_bulk in NDJSON batches, then _refresh. */
export async function runRaw(
  documents: IndexDocumentJson[],
  node: string,
  index: string,
  cpuWindow: CpuWindow,
): Promise<IndexRun> {
  let created = false;
  try {
    const endCpu = cpuWindow();
    const start = now();
    await call(`${node}/${index}`, "PUT", JSON.stringify(indexBody(LAYOUT)));
    created = true;
    const afterCreate = now();
    let serialise = 0;
    for (let i = 0; i < documents.length; i += BATCH) {
      const before = now();
      let body = "";
      for (const doc of documents.slice(i, i + BATCH)) {
        body += `${JSON.stringify({ index: { _index: index, _id: doc.id } })}\n${doc.json}\n`;
      }
      serialise += now() - before;
      const answer = (await call(`${node}/_bulk`, "POST", body, true)) as {
        errors: boolean;
        items: unknown[];
      };
      if (answer.errors) {
        const failed = answer.items.find((item) => Object.values(item as object)[0]?.error);
        throw new Error(`raw _bulk: some documents failed, e.g. ${JSON.stringify(failed)}`);
      }
    }
    const afterBulk = now();
    await call(`${node}/${index}/_refresh`, "POST");
    const end = now();
    const cpu = endCpu();
    return {
      seconds: seconds(end - start),
      documents: documents.length,
      indexed: await countOf(node, index),
      cpu,
      phases: {
        "create index": seconds(afterCreate - start),
        "NDJSON serialisation": seconds(serialise),
        _bulk: seconds(afterBulk - afterCreate - serialise),
        _refresh: seconds(end - afterBulk),
      },
    };
  } finally {
    if (created) await call(`${node}/${index}`, "DELETE");
  }
}

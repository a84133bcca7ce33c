import { randomBytes } from "node:crypto";
import { Client as ElasticsearchClient } from "@elastic/elasticsearch";
import { Client as OpenSearchClient } from "@opensearch-project/opensearch";
import { inject } from "vitest";
import { ElasticsearchEngine } from "../../services/search/elasticsearch-engine.ts";
import type { SearchEngine } from "../../services/search/engine.ts";
import type { IndexedEngine } from "../../services/search/engines.ts";
import { rebuildIndex } from "../../services/search/indexer.ts";
import { OpenSearchEngine } from "../../services/search/opensearch-engine.ts";
import { PostgresSearchEngine } from "../../services/search/postgres-engine.ts";
import type { Database } from "../../services/store/database.ts";

/**
 * `postgres` ranks in SQL (a Postgres server's default); `postgres-memory` is the same engine
 * ranking in memory (the embedded default, services/search/memory-index.ts).
 */
export const ENGINE_KINDS = ["postgres", "postgres-memory", "opensearch", "elasticsearch"] as const;
export type EngineKind = (typeof ENGINE_KINDS)[number];

/** Says plainly what each engine run exercised. */
export function describeEngine(kind: EngineKind): string {
  if (kind === "postgres") return "Postgres full-text search, ranked in SQL";
  if (kind === "postgres-memory") return "Postgres full-text search, ranked in memory";
  if (kind === "opensearch") return "OpenSearch (a real node from Maven Central jars)";
  return process.env.TEST_ELASTICSEARCH_URL
    ? `Elasticsearch at ${process.env.TEST_ELASTICSEARCH_URL}`
    : "Elasticsearch (a real node: from Maven Central jars, or the distribution's image where Docker runs)";
}

/** The engine over a store, with a fresh index (its own alias) built from that store. */
export async function openEngine(
  kind: EngineKind,
  db: Database,
): Promise<{ engine: SearchEngine; indexed?: IndexedEngine; close: () => Promise<void> }> {
  if (kind === "postgres") return { engine: new PostgresSearchEngine(db), close: async () => undefined };
  if (kind === "postgres-memory") {
    const engine = new PostgresSearchEngine(db, undefined, { memory: true });
    await engine.ready();
    return { engine, close: () => engine.close() };
  }
  const alias = `lc-test-${randomBytes(4).toString("hex")}`;
  const engine = connectIndexEngine(kind, alias);
  await rebuildIndex(db, engine, { shards: 1, replicas: 0 });
  return {
    engine,
    indexed: engine,
    close: async () => {
      for (const index of await engine.aliasTargets()) await engine.deleteIndex(index);
      await engine.close();
    },
  };
}

/** The engines that keep an index beside Postgres, each a real node the test setup started. */
export const INDEX_ENGINES = ["opensearch", "elasticsearch"] as const;
export type IndexEngineKind = (typeof INDEX_ENGINES)[number];

/** Where the test setup's node of that engine answers. */
export const indexEngineUrl = (kind: IndexEngineKind) =>
  kind === "opensearch" ? inject("opensearchUrl") : inject("elasticsearchUrl");

/** A client of that engine's node, for an index behind `alias` (no index built). */
export function connectIndexEngine(kind: IndexEngineKind, alias: string): IndexedEngine {
  return kind === "opensearch"
    ? new OpenSearchEngine(new OpenSearchClient({ node: indexEngineUrl(kind) }), alias)
    : new ElasticsearchEngine(new ElasticsearchClient({ node: indexEngineUrl(kind) }), alias);
}

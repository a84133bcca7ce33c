import type { Config } from "../core/config.ts";
import type { Database } from "../store/database.ts";
import type { SearchEngine } from "./engine.ts";
import type { IndexStore } from "./index-store.ts";
import { PostgresSearchEngine } from "./postgres-engine.ts";

export type IndexedEngine = SearchEngine & IndexStore;

/** The search engine the configuration names; the only place that imports a search client. */
export async function createSearchEngine(config: Config, db: Database): Promise<SearchEngine> {
  if (config.SEARCH_ENGINE === "postgres") return new PostgresSearchEngine(db);
  return createIndexedEngine(config);
}

export async function createIndexedEngine(config: Config): Promise<IndexedEngine> {
  const nodes = (config.SEARCH_URL ?? "")
    .split(",")
    .map((url) => url.trim())
    .filter(Boolean);
  if (config.SEARCH_ENGINE === "opensearch") {
    const [{ Client }, { OpenSearchEngine }] = await Promise.all([
      import("@opensearch-project/opensearch"),
      import("./opensearch-engine.ts"),
    ]);
    return new OpenSearchEngine(new Client({ nodes, requestTimeout: 10_000 }), config.SEARCH_INDEX);
  }
  if (config.SEARCH_ENGINE === "elasticsearch") {
    const [{ Client }, { ElasticsearchEngine }] = await Promise.all([
      import("@elastic/elasticsearch"),
      import("./elasticsearch-engine.ts"),
    ]);
    return new ElasticsearchEngine(new Client({ nodes, requestTimeout: 10_000 }), config.SEARCH_INDEX);
  }
  throw new Error(`SEARCH_ENGINE=${config.SEARCH_ENGINE} has no index`);
}

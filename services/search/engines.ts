import type { Logger } from "pino";
import type { Config } from "../core/config.ts";
import type { Database } from "../store/database.ts";
import type { SearchEngine } from "./engine.ts";
import type { IndexStore } from "./index-store.ts";
import { PostgresSearchEngine } from "./postgres-engine.ts";
import { Synonyms } from "./synonyms.ts";

export type IndexedEngine = SearchEngine & IndexStore;

/** The search engine the configuration names; the only place that imports a search client. */
export async function createSearchEngine(
  config: Config,
  db: Database,
  synonyms = Synonyms.load(config.SEARCH_SYNONYMS),
  logger?: Logger,
): Promise<SearchEngine> {
  if (config.SEARCH_ENGINE === "postgres") {
    const memory =
      config.SEARCH_MEMORY_INDEX === "on" || (config.SEARCH_MEMORY_INDEX === "auto" && db.kind === "pglite");
    return new PostgresSearchEngine(db, synonyms, {
      memory,
      memoryEvents: {
        built: (info) => logger?.info(info, "search model built in memory"),
        failed: (error) =>
          logger?.error({ err: error }, "in-memory search model unavailable; searching in SQL"),
      },
    });
  }
  return createIndexedEngine(config, synonyms);
}

export async function createIndexedEngine(
  config: Config,
  synonyms = Synonyms.load(config.SEARCH_SYNONYMS),
): Promise<IndexedEngine> {
  const nodes = (config.SEARCH_URL ?? "")
    .split(",")
    .map((url) => url.trim())
    .filter(Boolean);
  if (config.SEARCH_ENGINE === "opensearch") {
    const [{ Client }, { OpenSearchEngine }] = await Promise.all([
      import("@opensearch-project/opensearch"),
      import("./opensearch-engine.ts"),
    ]);
    return new OpenSearchEngine(new Client({ nodes, requestTimeout: 10_000 }), config.SEARCH_INDEX, synonyms);
  }
  if (config.SEARCH_ENGINE === "elasticsearch") {
    const [{ Client }, { ElasticsearchEngine }] = await Promise.all([
      import("@elastic/elasticsearch"),
      import("./elasticsearch-engine.ts"),
    ]);
    return new ElasticsearchEngine(
      new Client({ nodes, requestTimeout: 10_000 }),
      config.SEARCH_INDEX,
      synonyms,
    );
  }
  throw new Error(`SEARCH_ENGINE=${config.SEARCH_ENGINE} has no index`);
}

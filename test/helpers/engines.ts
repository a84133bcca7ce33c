import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
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

/**
 * Where no Docker engine can run Elasticsearch, the Elasticsearch client still runs for real:
 * against the OpenSearch node, through this proxy that supplies what the client checks (the
 * `x-elastic-product` header) and turns its versioned media types into plain JSON. Everything
 * else — requests, responses, the client's own parsing — is the real thing.
 */
export async function startElasticsearchCompatibilityProxy(
  target: string,
): Promise<{ url: string; close: () => Promise<void> }> {
  const upstream = new URL(target);
  const plain = (value: string | string[] | undefined) =>
    typeof value === "string"
      ? value.replace(/application\/vnd\.elasticsearch\+(x-ndjson|json)[^,]*/g, "application/$1")
      : value;
  const server = http.createServer((req, res) => {
    const headers = {
      ...req.headers,
      host: upstream.host,
      accept: plain(req.headers.accept),
      "content-type": plain(req.headers["content-type"]),
    };
    const forward = http.request(
      { hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, "x-elastic-product": "Elasticsearch" });
        answer.pipe(res);
      },
    );
    forward.on("error", (error) => {
      res.writeHead(502).end(String(error));
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Says plainly what each engine run exercised. */
export function describeEngine(kind: EngineKind): string {
  if (kind === "postgres") return "Postgres full-text search, ranked in SQL";
  if (kind === "postgres-memory") return "Postgres full-text search, ranked in memory";
  if (kind === "opensearch") return "OpenSearch (a real node from Maven Central jars)";
  return inject("elasticsearchUrl")
    ? "Elasticsearch (a real node in a testcontainers container)"
    : "the Elasticsearch client path (@elastic/elasticsearch against the OpenSearch node through a compatibility proxy: no Docker engine here to run Elasticsearch itself)";
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
  const openSearchUrl = inject("opensearchUrl");
  let closeProxy: () => Promise<void> = async () => {};
  let engine: IndexedEngine;
  if (kind === "opensearch") {
    engine = new OpenSearchEngine(new OpenSearchClient({ node: openSearchUrl }), alias);
  } else if (inject("elasticsearchUrl")) {
    engine = new ElasticsearchEngine(new ElasticsearchClient({ node: inject("elasticsearchUrl") }), alias);
  } else {
    const proxy = await startElasticsearchCompatibilityProxy(openSearchUrl);
    closeProxy = proxy.close;
    engine = new ElasticsearchEngine(new ElasticsearchClient({ node: proxy.url }), alias);
  }
  await rebuildIndex(db, engine, { shards: 1, replicas: 0 });
  return {
    engine,
    indexed: engine,
    close: async () => {
      for (const index of await engine.aliasTargets()) await engine.deleteIndex(index);
      await engine.close();
      await closeProxy();
    },
  };
}

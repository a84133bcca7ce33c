import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client as ElasticsearchClient } from "@elastic/elasticsearch";
import { Client as OpenSearchClient } from "@opensearch-project/opensearch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startElasticsearch } from "../../infra/elasticsearch/start.ts";
import type { JvmCluster } from "../../infra/jvm-cluster.ts";
import { startOpenSearch } from "../../infra/opensearch/start.ts";
import { parseConfig } from "../../services/core/config.ts";
import { ElasticsearchEngine } from "../../services/search/elasticsearch-engine.ts";
import type { IndexedEngine } from "../../services/search/engines.ts";
import { rebuildIndex, verifyIndex } from "../../services/search/indexer.ts";
import { OpenSearchEngine } from "../../services/search/opensearch-engine.ts";
import { provisionsByPublicId } from "../../services/store/index-source.ts";
import { seedSmallCorpus } from "../helpers/api.ts";
import { INDEX_ENGINES, type IndexEngineKind } from "../helpers/engines.ts";
import { freePortPair } from "../helpers/processes.ts";
import { searchQuery } from "../helpers/search-query.ts";
import { openTestStore, type TestStore } from "../helpers/stores.ts";

const start = (kind: IndexEngineKind) => (kind === "opensearch" ? startOpenSearch : startElasticsearch);

/** A client that knows every node, as a production client would. */
const connect = (kind: IndexEngineKind, urls: string[], alias: string): IndexedEngine =>
  kind === "opensearch"
    ? new OpenSearchEngine(new OpenSearchClient({ nodes: urls }), alias)
    : new ElasticsearchEngine(new ElasticsearchClient({ nodes: urls }), alias);

/** Distributed operation: three nodes, one replica per shard, one node stopped, on each index engine. */
describe.each(INDEX_ENGINES)(
  "a three-node %s cluster with replicas keeps answering with a node down",
  (kind) => {
    let cluster: JvmCluster;
    let store: TestStore;
    let engine: IndexedEngine;
    const query = searchQuery("salarié");

    /** The cluster green with its three nodes: every shard has its primary and its replica again. */
    const green = () =>
      fetch(`${cluster.url}/_cluster/health?wait_for_status=green&wait_for_nodes=3&timeout=120s`).then(
        (r) => r.json() as Promise<{ status: string; number_of_nodes: number }>,
      );

    beforeAll(async () => {
      cluster = await start(kind)({
        nodes: 3,
        httpPort: await freePortPair(100, 3),
        clusterName: `lc-${randomBytes(3).toString("hex")}`,
      });
      store = await openTestStore("pglite", `cluster_${kind}`);
      await seedSmallCorpus(
        store,
        parseConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "lc-cluster-")) }),
      );
      engine = connect(kind, cluster.urls, "lc-cluster");
      await rebuildIndex(store.db, engine, { shards: 3, replicas: 1 });
      expect(await green()).toMatchObject({ status: "green", number_of_nodes: 3 });
    }, 240_000);
    afterAll(async () => {
      await engine?.close();
      await cluster?.stop();
      await store?.dispose();
    });

    it("returns the same results before and while node 2 is stopped, and after it returns", async () => {
      const before = await engine.search(query);
      expect(before.total).toBeGreaterThan(0);
      await cluster.stopNode(2);
      for (let i = 0; i < 20; i++) {
        const during = await engine.search(query);
        expect(during.hits.map((h) => h.publicId)).toEqual(before.hits.map((h) => h.publicId));
        expect(during.total).toBe(before.total);
      }
      await cluster.startNode(2);
      const after = await engine.search(query);
      expect(after.hits.map((h) => h.publicId)).toEqual(before.hits.map((h) => h.publicId));
      // Node 2's copies are recovered before the next test takes another node away: otherwise a
      // shard whose only active copy was on that node would have none.
      expect(await green()).toMatchObject({ status: "green", number_of_nodes: 3 });
    }, 180_000);

    it("loses nothing written while a node is down: the index still matches Postgres once it is back", async () => {
      expect(await green()).toMatchObject({ status: "green", number_of_nodes: 3 });
      const [index] = await engine.aliasTargets();
      const documents = await provisionsByPublicId(store.db, ["code-du-travail/L1221-19"]);
      expect(documents).toHaveLength(1);
      await cluster.stopNode(3);
      // Written while node 3 is away: deleted, then indexed again, on the two nodes left.
      expect(await engine.bulk(index!, [], ["code-du-travail/L1221-19"])).toEqual([]);
      expect(await engine.bulk(index!, documents, [])).toEqual([]);
      await cluster.startNode(3);
      expect(await green()).toMatchObject({ status: "green", number_of_nodes: 3 });
      await engine.refresh(index!);
      expect(await verifyIndex(store.db, engine)).toMatchObject({ missing: [], stale: [], extra: [] });
    }, 180_000);
  },
);

import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@opensearch-project/opensearch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OpenSearchCluster, startOpenSearch } from "../../infra/opensearch/start.ts";
import { parseConfig } from "../../services/core/config.ts";
import { rebuildIndex } from "../../services/search/indexer.ts";
import { OpenSearchEngine } from "../../services/search/opensearch-engine.ts";
import { seedSmallCorpus } from "../helpers/api.ts";
import { freePortPair } from "../helpers/processes.ts";
import { searchQuery } from "../helpers/search-query.ts";
import { openTestStore, type TestStore } from "../helpers/stores.ts";

/** Distributed operation: three OpenSearch nodes, one replica per shard, one node stopped. */
describe("a three-node OpenSearch cluster with replicas keeps answering with a node down", () => {
  let cluster: OpenSearchCluster;
  let store: TestStore;
  let engine: OpenSearchEngine;
  const query = searchQuery("salarié");

  beforeAll(async () => {
    cluster = await startOpenSearch({
      nodes: 3,
      httpPort: await freePortPair(100, 3),
      clusterName: `lc-${randomBytes(3).toString("hex")}`,
    });
    store = await openTestStore("pglite", "cluster");
    await seedSmallCorpus(store, parseConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "lc-cluster-")) }));
    // The client knows every node, as a production client would.
    engine = new OpenSearchEngine(new Client({ nodes: cluster.urls }), "lc-cluster");
    await rebuildIndex(store.db, engine, { shards: 3, replicas: 1 });
    const health = await fetch(`${cluster.url}/_cluster/health?wait_for_status=green&timeout=60s`).then(
      (r) => r.json() as Promise<{ status: string; number_of_nodes: number }>,
    );
    expect(health).toMatchObject({ status: "green", number_of_nodes: 3 });
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
  });
});

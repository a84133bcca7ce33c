import type { Client } from "@elastic/elasticsearch";
import type { IndexDocumentJson } from "../store/index-source.ts";
import { type IndexLayout, indexBody, type RawHit, readHits, searchBody } from "./dsl.ts";
import type { SearchEngine, SearchQuery, SearchResult } from "./engine.ts";
import { type IndexStore, WRITE_TIMEOUT_MS } from "./index-store.ts";
import { type BulkItem, collectHashes, failedIds, type HashHit, hashPage } from "./opensearch-engine.ts";
import { queryTerms } from "./query-text.ts";
import { Synonyms } from "./synonyms.ts";

/** Elasticsearch glue: the same request bodies (dsl.ts) through the Elasticsearch client. */
export class ElasticsearchEngine implements SearchEngine, IndexStore {
  readonly name = "elasticsearch" as const;

  constructor(
    private readonly client: Client,
    readonly alias: string,
    private readonly synonyms: Synonyms = Synonyms.bundled(),
  ) {}

  async search(query: SearchQuery): Promise<SearchResult> {
    const response = await this.client.search({
      index: this.alias,
      ...(searchBody(query, query.synonyms ?? this.synonyms) as object),
    });
    return {
      ...readHits(
        response.hits.hits as unknown as RawHit[],
        response.hits.total as number | { value: number },
        queryTerms(query.q, query.synonyms ?? this.synonyms),
        response.aggregations as Record<string, unknown> | undefined,
      ),
      filterMode: "exact",
    };
  }

  async ping(): Promise<boolean> {
    return this.client.ping().then(
      () => true,
      () => false,
    );
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  async createIndex(name: string, layout: IndexLayout): Promise<void> {
    await this.client.indices.create({ index: name, ...(indexBody(layout) as object) });
  }

  async deleteIndex(name: string): Promise<void> {
    await this.client.indices.delete({ index: name });
  }

  async aliasTargets(): Promise<string[]> {
    const exists = await this.client.indices.existsAlias({ name: this.alias });
    return exists ? Object.keys(await this.client.indices.getAlias({ name: this.alias })) : [];
  }

  async swapAlias(index: string, previous: string[]): Promise<void> {
    const actions = [
      { add: { index, alias: this.alias } },
      ...previous.map((old) => ({ remove: { index: old, alias: this.alias } })),
    ];
    await this.client.indices.updateAliases({ actions });
  }

  async bulk(index: string, upserts: IndexDocumentJson[], deletes: string[]): Promise<string[]> {
    if (upserts.length + deletes.length === 0) return [];
    const operations = [
      // The clients send strings as they are: Postgres's JSON goes out untouched.
      ...upserts.flatMap((doc) => [{ index: { _index: index, _id: doc.id } }, doc.json]),
      ...deletes.map((id) => ({ delete: { _index: index, _id: id } })),
    ];
    const response = await this.client.bulk({ operations }, { requestTimeout: WRITE_TIMEOUT_MS });
    return failedIds(response.items as unknown as BulkItem[]);
  }

  async refresh(index: string): Promise<void> {
    await this.client.indices.refresh({ index }, { requestTimeout: WRITE_TIMEOUT_MS });
  }

  async hashes(index: string): Promise<Map<string, string>> {
    return collectHashes(async (after) => {
      const response = await this.client.search({ index, ...(hashPage(after) as object) });
      return response.hits.hits as unknown as HashHit[];
    });
  }
}

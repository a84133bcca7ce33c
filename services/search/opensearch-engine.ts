import type { Client } from "@opensearch-project/opensearch";
import type { IndexDocumentJson } from "../store/index-source.ts";
import { type IndexLayout, indexBody, type RawHit, readHits, searchBody } from "./dsl.ts";
import type { SearchEngine, SearchQuery, SearchResult } from "./engine.ts";
import { type IndexStore, WRITE_TIMEOUT_MS } from "./index-store.ts";
import { queryTerms } from "./query-text.ts";
import { Synonyms } from "./synonyms.ts";

/** OpenSearch glue: sends the shared request bodies (dsl.ts) through the OpenSearch client. */
export class OpenSearchEngine implements SearchEngine, IndexStore {
  readonly name = "opensearch" as const;

  constructor(
    private readonly client: Client,
    readonly alias: string,
    private readonly synonyms: Synonyms = Synonyms.bundled(),
  ) {}

  async search(query: SearchQuery): Promise<SearchResult> {
    const { body } = await this.client.search({
      index: this.alias,
      body: searchBody(query, query.synonyms ?? this.synonyms) as never,
    });
    return {
      ...readHits(
        body.hits.hits as unknown as RawHit[],
        body.hits.total as number | { value: number },
        queryTerms(query.q, query.synonyms ?? this.synonyms),
        body.aggregations as Record<string, unknown> | undefined,
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
    await this.client.indices.create({ index: name, body: indexBody(layout) as never });
  }

  async deleteIndex(name: string): Promise<void> {
    await this.client.indices.delete({ index: name });
  }

  async aliasTargets(): Promise<string[]> {
    const { body, statusCode } = await this.client.indices.getAlias({ name: this.alias }, { ignore: [404] });
    return statusCode === 404 ? [] : Object.keys(body as object);
  }

  async swapAlias(index: string, previous: string[]): Promise<void> {
    const actions = [
      { add: { index, alias: this.alias } },
      ...previous.map((old) => ({ remove: { index: old, alias: this.alias } })),
    ];
    await this.client.indices.updateAliases({ body: { actions } });
  }

  async bulk(index: string, upserts: IndexDocumentJson[], deletes: string[]): Promise<string[]> {
    if (upserts.length + deletes.length === 0) return [];
    const body = [
      // The clients send strings as they are: Postgres's JSON goes out untouched.
      ...upserts.flatMap((doc) => [{ index: { _index: index, _id: doc.id } }, doc.json]),
      ...deletes.map((id) => ({ delete: { _index: index, _id: id } })),
    ];
    const response = await this.client.bulk({ body: body as never }, { requestTimeout: WRITE_TIMEOUT_MS });
    return failedIds(response.body.items as BulkItem[]);
  }

  async refresh(index: string): Promise<void> {
    await this.client.indices.refresh({ index }, { requestTimeout: WRITE_TIMEOUT_MS });
  }

  async hashes(index: string): Promise<Map<string, string>> {
    return collectHashes(async (after) => {
      const { body } = await this.client.search({ index, body: hashPage(after) as never });
      return body.hits.hits as unknown as HashHit[];
    });
  }
}

export type BulkItem = Record<string, { _id: string; status: number; error?: unknown }>;
export type HashHit = { _id: string; _source: { content_hash: string }; sort: unknown[] };

/** Ids whose operation failed; a delete of a document that is already gone is not a failure. */
export function failedIds(items: BulkItem[]): string[] {
  return items
    .map((item) => Object.entries(item)[0]!)
    .filter(([op, result]) => result.error && !(op === "delete" && result.status === 404))
    .map(([, result]) => result._id);
}

export function hashPage(after: unknown[] | undefined) {
  return {
    size: 5000,
    _source: ["content_hash"],
    sort: [{ public_id: "asc" }],
    query: { match_all: {} },
    ...(after ? { search_after: after } : {}),
  };
}

/** Reads every document's content hash, page after page (search_after on the public id). */
export async function collectHashes(
  page: (after: unknown[] | undefined) => Promise<HashHit[]>,
): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  let after: unknown[] | undefined;
  for (;;) {
    const hits = await page(after);
    for (const hit of hits) hashes.set(hit._id, hit._source.content_hash);
    if (hits.length === 0) return hashes;
    after = hits[hits.length - 1]!.sort;
  }
}

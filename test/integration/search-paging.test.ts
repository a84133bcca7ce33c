import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SearchEngine } from "../../services/search/engine.ts";
import { RANKING } from "../../services/search/ranking.ts";
import { describeEngine, ENGINE_KINDS, openEngine } from "../helpers/engines.ts";
import { ingestInline, lawOf } from "../helpers/inline-acts.ts";
import { searchQuery as query } from "../helpers/search-query.ts";
import { openTestStore, type TestStore } from "../helpers/stores.ts";

/**
 * Paging past the second pass's window (RANKING.rescoreWindow), on every engine: a client that
 * walks a result page after page sees each provision once. 130 provisions hold « aubépine » and
 * « taillé »: the decree's articles (R…) apart and in short texts, so they lead on words alone;
 * the law's (L…) side by side in longer texts, after them on words, and far ahead once proximity
 * and the legislative prior count. A window that grew with the page re-scored the law's articles
 * for the third page only, which then repeated decree articles of the first two and left the
 * law's unseen.
 */
const DECREES = RANKING.rescoreWindow + 5;
const LAWS = 25;

const hedgeAct = lawOf("HEDGES", "code-des-haies", "Code des haies", [
  ...Array.from({ length: DECREES }, (_, i) => [
    `R${i + 1}`,
    `L'aubépine de la haie numéro ${i + 1} est bien souvent taillé.`,
  ]),
  ...Array.from({ length: LAWS }, (_, i) => [
    `L${i + 1}`,
    `L'aubépine taillé de la haie numéro ${i + 1} est bien souvent belle en hiver.`,
  ]),
]);

describe.each(ENGINE_KINDS)("search paging: %s", (kind) => {
  let store: TestStore;
  let engine: SearchEngine;
  let close: () => Promise<void>;

  beforeAll(async () => {
    console.log(`search paging on ${describeEngine(kind)}`);
    store = await openTestStore("pglite", `paging_${kind}`);
    await ingestInline(store.db, [hedgeAct]);
    ({ engine, close } = await openEngine(kind, store.db));
  });
  afterAll(async () => {
    await close?.();
    await store?.dispose();
  });

  it("shows each provision once, page after page, past the second pass's window", async () => {
    const seen: string[] = [];
    let total = 0;
    for (let offset = 0; offset < DECREES + LAWS; offset += 50) {
      const page = await engine.search(query("aubépine taillé", { limit: 50, offset }));
      total = page.total;
      seen.push(...page.hits.map((hit) => hit.publicId));
    }
    expect(total).toBe(DECREES + LAWS);
    expect(seen).toHaveLength(DECREES + LAWS);
    expect(new Set(seen).size).toBe(DECREES + LAWS);
    // The window holds decree articles only (the law's come after them on words), and the law's
    // articles follow it on words alone, on every page.
    expect(seen.slice(0, RANKING.rescoreWindow).filter((id) => id.includes("/L"))).toHaveLength(0);
    expect(seen.slice(-LAWS).every((id) => id.includes("/L"))).toBe(true);
  });

  it("gives a page the same provisions whatever page size reaches it", async () => {
    const big = await engine.search(query("aubépine taillé", { limit: 50, offset: 100 }));
    const small = await engine.search(query("aubépine taillé", { limit: 10, offset: 120 }));
    expect(small.hits.map((h) => h.publicId)).toEqual(big.hits.slice(20, 30).map((h) => h.publicId));
  });
});

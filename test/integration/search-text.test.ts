import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SearchEngine } from "../../services/search/engine.ts";
import { PostgresSearchEngine } from "../../services/search/postgres-engine.ts";
import { migrate } from "../../services/store/migrate.ts";
import { searchStatisticsDrift } from "../../services/store/search-statistics.ts";
import { describeEngine, ENGINE_KINDS, openEngine } from "../helpers/engines.ts";
import { ingestInline, lawOf } from "../helpers/inline-acts.ts";
import { searchQuery } from "../helpers/search-query.ts";
import { openTestStore, STORE_KINDS, type TestStore } from "../helpers/stores.ts";

/**
 * Search reads the same words from a text on the embedded store (PGlite) and on a Postgres server
 * (migration 025): the characters the two read differently — the micro sign, « º », a zero-width
 * space — and the ones that split a word on both (a decomposed accent, a soft hyphen) are read
 * through corpus_search_text, by the vectors and by every query; the index engines read them
 * alike (their corpus_characters filter), and also a narrow no-break space, which their tokenizer
 * would read as joining « du » and « lendemain ». The texts are the codes' own cases (R4412-160's
 * « µg », R4453-3's « nº », D131-6-1's zero-width space, the codes' U+202F).
 */
const act = lawOf("TEXT", "code-des-caracteres", "Code des caractères", [
  ["L1", "La valeur limite est fixée à 10 µg par mètre cube d'air."],
  ["L2", "Le registre prévu par l'arrêté nº 3 est tenu à jour."],
  ["L3", "Le plafond\u200bannuel est révisé chaque année."],
  ["L4", "La re\u0301siliation du bail est notifiée par écrit."],
  ["L5", "Les responsa\u00adbilités du gérant sont fixées par les statuts."],
  ["L6", "Le délai court à compter du\u202flendemain de la notification."],
]);

/** Query → the article it must find: the word alone, typed either way. */
const QUERIES: [string, string][] = [
  ["µg", "L1"], // micro sign
  ["μg", "L1"], // Greek mu
  ["annuel", "L3"],
  ["résiliation", "L4"],
  ["re\u0301siliation", "L4"],
  ["responsabilités", "L5"],
  ["lendemain", "L6"],
];

/** The characters from one code point to another, both included. */
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i));

/** The number of the first article found. */
const first = async (engine: SearchEngine, q: string) =>
  (await engine.search(searchQuery(q))).hits[0]?.publicId.replace("code-des-caracteres/", "");

describe("the same words on the embedded store and on a server", () => {
  const stores = new Map<string, TestStore>();

  beforeAll(async () => {
    for (const kind of STORE_KINDS) {
      const store = await openTestStore(kind, `search_text_${kind}`);
      stores.set(kind, store);
      await ingestInline(store.db, [act]);
    }
  });
  afterAll(async () => {
    for (const store of stores.values()) await store.dispose();
  });

  it("stores the same search vectors on both", async () => {
    const vectors = async (store: TestStore) =>
      (
        await store.db.query<{ number: string; vector: string }>(
          "SELECT number, search_vector::text AS vector FROM provisions ORDER BY number",
        )
      ).rows;
    const embedded = await vectors(stores.get("pglite")!);
    const server = await vectors(stores.get("postgres")!);
    expect(embedded).toHaveLength(6);
    expect(embedded).toEqual(server);
    const text = embedded.map((r) => r.vector).join(" ");
    // One lexeme each: the word unsplit, the micro sign as the Greek letter, no « nº ».
    expect(text).toContain("'μg'");
    expect(text).not.toContain("µ");
    expect(text).not.toMatch(/'no'|nº/);
    expect(text).toContain("'resili'");
    expect(text).toContain("'responsabilit'");
    expect(text).toContain("'annuel'");
    expect(text).not.toContain("\u200b");
  });

  it("reads every character the rule names alike, translating and composing only where needed", async () => {
    // migration 025's translate lists, and migration 026's character class that guards them.
    const spaces = ["\u200b", ...range(0x2000, 0x200a), "\u202f", "\u205f", "\u3000"];
    const dropped = ["\u00ad", "\u200c", "\u200d", "\u2060", "\ufeff"];
    const cases: [string, string][] = [
      ...spaces.map((c): [string, string] => [`a${c}b`, "a b"]),
      ...dropped.map((c): [string, string] => [`a${c}b`, "ab"]),
      ["10 \u00b5g", "10 \u03bcg"],
      ["n\u00ba 3", "n\u00b0 3"],
      ["re\u0301siliation", "r\u00e9siliation"],
      ["re\u00ad\u0301siliation", "r\u00e9siliation"],
      ["r\u00e9siliation du bail", "r\u00e9siliation du bail"],
    ];
    for (const [kind, store] of stores) {
      const { rows } = await store.db.query<{ read: string }>(
        "SELECT corpus_search_text(value) AS read FROM unnest($1::text[]) WITH ORDINALITY AS t(value, n) ORDER BY n",
        [cases.map(([text]) => text)],
      );
      expect(
        rows.map((r) => r.read),
        kind,
      ).toEqual(cases.map(([, read]) => read));
    }
  });

  it("finds each article however the query writes the character, on the server", async () => {
    const engine = new PostgresSearchEngine(stores.get("postgres")!.db);
    try {
      for (const [q, number] of QUERIES) expect(await first(engine, q), q).toBe(number);
    } finally {
      await engine.close();
    }
  });
});

/** The index engines read the same words through their analyzer's character filter (dsl.ts). */
describe.each(ENGINE_KINDS)("characters read the same: %s", (kind) => {
  let store: TestStore;
  let engine: SearchEngine;
  let close: () => Promise<void>;

  beforeAll(async () => {
    console.log(`characters read the same on ${describeEngine(kind)}`);
    store = await openTestStore("pglite", `search_text_${kind}`);
    await ingestInline(store.db, [act]);
    ({ engine, close } = await openEngine(kind, store.db));
  });
  afterAll(async () => {
    await close?.();
    await store?.dispose();
  });

  it("finds each article however the query writes the character", async () => {
    for (const [q, number] of QUERIES) expect(await first(engine, q), q).toBe(number);
  });
});

describe.each(STORE_KINDS)("a %s store written before migration 025", (kind) => {
  let store: TestStore;

  beforeAll(async () => {
    store = await openTestStore(kind, `search_text_upgrade_${kind}`, "024");
    await ingestInline(store.db, [act]);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it("is indexed again where its vectors change, and its statistics equal a recount", async () => {
    const generation = async () =>
      Number((await store.db.query<{ value: string }>("SELECT value FROM search_generation")).rows[0]!.value);
    const before = await generation();
    expect((await migrate(store.db, "025")).map((file) => path.basename(file))).toEqual([
      "025.do.search-text.sql",
    ]);
    expect(await generation()).toBe(before + 1);
    expect(await searchStatisticsDrift(store.db)).toMatchObject({
      missingPostings: 0,
      extraPostings: 0,
      wrongFrequencies: 0,
      wrongTotals: false,
    });
    const { rows } = await store.db.query<{ df: number }>(
      "SELECT df FROM search_lexemes WHERE lexeme IN ('resili', 'responsabilit', 'μg') ORDER BY lexeme",
    );
    expect(rows).toEqual([{ df: 1 }, { df: 1 }, { df: 1 }]);
    const engine = new PostgresSearchEngine(store.db);
    try {
      expect(await first(engine, "résiliation")).toBe("L4");
    } finally {
      await engine.close();
    }
  });

  it("keeps every vector through migration 026, which only reads the same text faster", async () => {
    const vectors = async () =>
      (await store.db.query<{ v: string }>("SELECT search_vector::text AS v FROM provisions ORDER BY id"))
        .rows;
    const generation = async () =>
      (await store.db.query<{ value: string }>("SELECT value FROM search_generation")).rows[0]!.value;
    await migrate(store.db, "025");
    const [before, generationBefore] = [await vectors(), await generation()];
    expect((await migrate(store.db, "026")).map((file) => path.basename(file))).toEqual([
      "026.do.search-text-nfc-check.sql",
    ]);
    expect(await generation()).toBe(generationBefore);
    // Replacing the function recomputes nothing; writing the rows again makes 026 compute them.
    await store.db.query("UPDATE provisions SET text = text");
    expect(await vectors()).toEqual(before);
  });
});

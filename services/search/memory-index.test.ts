import { describe, expect, it } from "vitest";
import type { IndexedProvision } from "../store/search-snapshot.ts";
import type { AnalysedQuery } from "./memory-index.ts";
import { MemoryIndexBuilder } from "./memory-index-builder.ts";
import { NUMBER_BONUS, RANKING } from "./ranking.ts";
import { parseTsvector } from "./tsvector.ts";

describe("parseTsvector", () => {
  it("reads lexemes, positions and weights as Postgres prints them", () => {
    expect(parseTsvector("'accord':3B,7C 'l1237-11':1A 'salari':9 'l''x\\\\y':2")).toEqual([
      { lexeme: "accord", positions: [3 * 4 + 2, 7 * 4 + 1] },
      { lexeme: "l1237-11", positions: [1 * 4 + 3] },
      { lexeme: "salari", positions: [9 * 4] },
      { lexeme: "l'x\\y", positions: [2 * 4] },
    ]);
    expect(parseTsvector("")).toEqual([]);
  });
});

let nextId = 1;
function provision(vector: string, more: Partial<IndexedProvision> = {}): IndexedProvision {
  const id = nextId++;
  return {
    id,
    publicId: `code/L${id}`,
    documentPublicId: "code",
    documentKind: "code",
    numberKey: `L${id}`,
    domains: ["labour"],
    status: "in_force",
    inForceFrom: null,
    inForceTo: null,
    citedBy: 0,
    opensSection: false,
    vector,
    ...more,
  };
}

const NO_PRIORS = { ...RANKING, authority: 0, legislative: 0, opening: 0, proximity: 0 };

function query(words: string[][], more: Partial<AnalysedQuery> = {}): AnalysedQuery {
  return {
    // Each inner list: one term's alternatives, each a vector of one or more words in order.
    alternatives: words.flatMap((alternatives, term) =>
      alternatives.map((alternative) => ({
        term,
        vector: parseTsvector(
          alternative
            .split(" ")
            .map((word, i) => `'${word}':${i + 1}`)
            .join(" "),
        ),
        inOrder: true,
      })),
    ),
    numberKey: null,
    matchAny: false,
    domains: null,
    unclassifiedDocuments: [],
    document: null,
    inForce: true,
    asOf: "2026-01-01",
    limit: 10,
    offset: 0,
    ...more,
  };
}

describe("MemoryIndex", () => {
  it("scores BM25F: headings and text as one field, saturated once, by the word's rarity", () => {
    const builder = new MemoryIndexBuilder();
    const a = provision("'essai':1B,3C 'period':2C");
    const b = provision("'essai':2C 'contrat':1C,3C,4C");
    const c = provision("'contrat':1C");
    for (const p of [a, b, c]) builder.add(p);
    const index = builder.finish("1", NO_PRIORS);
    const page = index.search(query([["essai"]]));
    // N 3, df 2: idf = ln(1 + (3 - 2 + 0.5) / 2.5). Lengths: a 2 + 2×1 = 4, b 4; average (7 + 2×1) / 3.
    const idf = Math.log(1 + 1.5 / 2.5);
    const average = (7 + 2 * 1) / 3;
    const bm25 = (tf: number, length: number) => (tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * length) / average));
    expect(page.total).toBe(2);
    expect(page.hits.map((h) => h.id)).toEqual([a.id, b.id]);
    expect(page.hits[0]!.score).toBeCloseTo(idf * bm25(1 + 2, 4), 12);
    expect(page.hits[1]!.score).toBeCloseTo(idf * bm25(1, 4), 12);
  });

  it("takes a word's rarity per field: the larger of text and headings, and the guides' own", () => {
    const builder = new MemoryIndexBuilder();
    // « patron »: in the guides of one of the two guided provisions, in the text of three others.
    const guided = provision("'essai':1C 'patron':5D 'remerci':6D");
    const otherGuided = provision("'essai':1C 'salari':4D");
    const texts = [1, 2, 3].map(() => provision("'patron':1C 'essai':2B"));
    for (const p of [guided, otherGuided, ...texts]) builder.add(p);
    const index = builder.finish("1", NO_PRIORS);
    const score = new Map(index.search(query([["patron"]])).hits.map((h) => [h.id, h.score]));
    const k1 = RANKING.k1;
    const idf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
    // Guides: 2 provisions have them, 1 holds « patron »; lengths 2 and 1, average 1.5.
    const guides = (tf: number, length: number) =>
      (tf * (k1 + 1)) / (tf + k1 * (1 - RANKING.guidesB + (RANKING.guidesB * length) / 1.5));
    expect(score.get(guided.id)).toBeCloseTo(RANKING.fields.guides * idf(2, 1) * guides(1, 2), 12);
    // Text: 5 provisions, 3 hold it in their text, none in their headings. Body lengths: 1, 1, and
    // 1 + 2×1 for each of the three.
    const average = (1 + 1 + 3 * (1 + RANKING.fields.headings)) / 5;
    const body = (tf: number, length: number) =>
      (tf * (k1 + 1)) / (tf + k1 * (1 - RANKING.b + (RANKING.b * length) / average));
    expect(score.get(texts[0]!.id)).toBeCloseTo(idf(5, 3) * body(1, 1 + RANKING.fields.headings), 12);
    // « essai »: text for two, headings for three: the larger, 3 of 5.
    const essai = new Map(index.search(query([["essai"]])).hits.map((h) => [h.id, h.score]));
    expect(essai.get(guided.id)).toBeCloseTo(idf(5, 3) * body(1, 1), 12);
  });

  it("requires one of two terms, both first, half of more, one with matchAny; says whether one holds all", () => {
    const builder = new MemoryIndexBuilder();
    const both = provision("'conge':1C 'pai':2C");
    const one = provision("'conge':1C");
    const other = provision("'pai':1C 'essai':2C 'period':3C");
    for (const p of [both, one, other]) builder.add(p);
    const index = builder.finish("1", NO_PRIORS);
    const two = index.search(query([["conge"], ["pai"]]));
    expect(two.hits.map((h) => h.id).sort()).toEqual([both.id, one.id, other.id].sort());
    expect(two.hits[0]!.id).toBe(both.id);
    expect(two).toMatchObject({ total: 3, holdsEveryTerm: true });
    expect(index.search(query([["conge"], ["essai"]]))).toMatchObject({ total: 3, holdsEveryTerm: false });
    expect(index.search(query([["conge"], ["pai"]], { matchAny: true })).total).toBe(3);
    expect(index.search(query([["conge"], ["pai"], ["absent"]])).total).toBe(3);
    // Four terms: two required (both, other); none holds all four.
    expect(index.search(query([["pai"], ["essai"], ["period"], ["conge"]]))).toMatchObject({
      total: 2,
      holdsEveryTerm: false,
    });
  });

  it("requires both of two terms when one is the number the query names, which holds every term", () => {
    const builder = new MemoryIndexBuilder();
    const word = provision("'abandon':1C");
    const named = provision("'autr':1C", { numberKey: "L1237-19" });
    for (const p of [word, named]) builder.add(p);
    const index = builder.finish("1", NO_PRIORS);
    // « abandon L1237-19 »: the number's words ('l1237', '-19') are in no text.
    const page = index.search(query([["abandon"], ["l1237 -19"]], { numberKey: "L1237-19" }));
    expect(page.hits.map((h) => h.id)).toEqual([named.id]);
    expect(page).toMatchObject({ total: 1, holdsEveryTerm: true });
  });

  it("scores a phrase alternative only where its words stand in order, as its rarest word", () => {
    const builder = new MemoryIndexBuilder();
    const phrase = provision("'contrat':1C 'travail':3C");
    const apart = provision("'travail':1C 'contrat':5C");
    const filler = provision("'travail':1C");
    for (const p of [phrase, apart, filler]) builder.add(p);
    const index = builder.finish("1", NO_PRIORS);
    const q = query([["contrat travail"]]);
    // "contrat de travail": the stop word keeps its place (position 2).
    q.alternatives[0]!.vector = parseTsvector("'contrat':1 'travail':3");
    expect(index.search(q).hits.map((h) => h.id)).toEqual([phrase.id]);
    // A hyphenated word's parts (withHyphensApart): every word, anywhere, scored as the rarest.
    q.alternatives[0]!.inOrder = false;
    const anywhere = index.search(q).hits;
    expect(anywhere.map((h) => h.id).sort()).toEqual([phrase.id, apart.id].sort());
    // Same length, the rarest word ('contrat') once in each: the same score.
    expect(anywhere[0]!.score).toBeCloseTo(anywhere[1]!.score, 12);
  });

  it("adds proximity for consecutive words close in the text, and priors multiply", () => {
    const builder = new MemoryIndexBuilder();
    const close = provision("'harcel':1C 'moral':2C 'x':3C 'y':4C");
    const far = provision("'harcel':1C 'x':2C 'y':3C 'moral':9C", { citedBy: 3 });
    for (const p of [close, far]) builder.add(p);
    const plain = builder.finish("1", NO_PRIORS).search(query([["harcel"], ["moral"]]));
    expect(plain.hits[0]!.score).toBeCloseTo(plain.hits[1]!.score, 12);

    const withProximity = new MemoryIndexBuilder();
    for (const p of [close, far]) withProximity.add(p);
    const scored = withProximity.finish("1", { ...NO_PRIORS, proximity: 1, authority: 0.1 });
    const page = scored.search(query([["harcel"], ["moral"]]));
    const idf = Math.log(1 + 0.5 / 2.5);
    const words = plain.hits[0]!.score;
    const byId = new Map(page.hits.map((h) => [h.id, h.score]));
    expect(byId.get(close.id)).toBeCloseTo(words + 2 * idf, 12);
    expect(byId.get(far.id)).toBeCloseTo(words * (1 + 0.1 * Math.log(4)), 12);
  });

  it("puts the article opening its division before the others among equals, by the opening prior", () => {
    const builder = new MemoryIndexBuilder();
    // « Section 3 : Rupture conventionnelle »: its first article and the one after it, alike by words.
    const after = provision("'ruptur':1B 'conventionnel':2B 'homolog':3C");
    const opening = provision("'ruptur':1B 'conventionnel':2B 'convient':3C", { opensSection: true });
    for (const p of [after, opening]) builder.add(p);
    const page = builder
      .finish("1", { ...NO_PRIORS, opening: 0.1 })
      .search(query([["ruptur"], ["conventionnel"]]));
    expect(page.hits.map((h) => h.id)).toEqual([opening.id, after.id]);
    expect(page.hits[0]!.score).toBeCloseTo(page.hits[1]!.score * 1.1, 12);
  });

  it("scores a pair as a phrase with slop 3 in its better field: frequency, distance, length", () => {
    // The same pair, adjacent: once in a long text, once in short headings.
    const filler = Array.from({ length: 20 }, (_, i) => `'f${i}':${i + 3}C`).join(" ");
    const inText = provision(`'harcel':1C 'moral':2C ${filler}`);
    const inHeadings = provision(`'harcel':1B 'moral':2B ${filler}`);
    const twice = provision(`'harcel':1C,5C 'moral':2C,6C ${filler}`);
    const apart = provision(`'harcel':1C 'moral':3C ${filler}`);
    const builder = new MemoryIndexBuilder();
    for (const p of [inText, inHeadings, twice, apart]) builder.add(p);
    const ranking = { ...NO_PRIORS, proximity: 1 };
    const index = builder.finish("1", ranking);
    const scores = new Map(index.search(query([["harcel"], ["moral"]])).hits.map((h) => [h.id, h.score]));
    const words = new Map(
      builder
        .finish("1", NO_PRIORS)
        .search(query([["harcel"], ["moral"]]))
        .hits.map((h) => [h.id, h.score]),
    );
    const pair = (id: number) => scores.get(id)! - words.get(id)!;
    const { k1, b } = ranking;
    // Every provision holds both words in the text but inHeadings, which holds them in its headings.
    const n = 4;
    const idf = (df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
    const averageText = (22 + 20 + 24 + 22) / n;
    const averageHeadings = Math.max(2 / n, 1); // as the totals: at least 1
    const bm25 = (idfs: number, frequency: number, length: number, average: number) =>
      ((k1 + 1) * idfs * frequency) / (frequency + k1 * (1 - b + (b * length) / average));
    expect(pair(inText.id)).toBeCloseTo(bm25(2 * idf(3), 1, 22, averageText), 12);
    expect(pair(inHeadings.id)).toBeCloseTo(bm25(2 * idf(1), 1, 2, averageHeadings), 12);
    expect(pair(twice.id)).toBeCloseTo(bm25(2 * idf(3), 2, 24, averageText), 12);
    expect(pair(apart.id)).toBeCloseTo(bm25(2 * idf(3), 0.5, 22, averageText), 12);
  });

  it("filters exactly: domains (with unclassified documents), document, in force on the day", () => {
    const builder = new MemoryIndexBuilder();
    const labour = provision("'preavis':1C");
    const tax = provision("'preavis':1C", { domains: ["tax"], documentPublicId: "cgi" });
    const unclassified = provision("'preavis':1C", { domains: [], documentPublicId: "loi" });
    const repealed = provision("'preavis':1C", { status: "repealed" });
    const future = provision("'preavis':1C", { inForceFrom: "2030-01-01" });
    for (const p of [labour, tax, unclassified, repealed, future]) builder.add(p);
    const index = builder.finish("1", NO_PRIORS);
    const ids = (more: Partial<AnalysedQuery>) =>
      index
        .search(query([["preavis"]], more))
        .hits.map((h) => h.id)
        .sort((x, y) => x - y);
    expect(ids({ domains: ["labour"] })).toEqual([labour.id]);
    expect(ids({ domains: ["labour"], unclassifiedDocuments: ["loi"] })).toEqual([
      labour.id,
      unclassified.id,
    ]);
    expect(ids({ document: "cgi" })).toEqual([tax.id]);
    expect(ids({}).length).toBe(3);
    expect(ids({ inForce: false }).length).toBe(5);
    // Not in force: half the score, after those in force.
    const all = index.search(query([["preavis"]], { inForce: false }));
    expect(
      all.hits
        .slice(3)
        .map((h) => h.id)
        .sort(),
    ).toEqual([repealed.id, future.id].sort());
    expect(all.hits[3]!.score).toBeCloseTo(all.hits[0]!.score / 2, 12);
  });

  it("weighs an agreement's provision half, unless the search is within one document", () => {
    const builder = new MemoryIndexBuilder();
    const agreement = { documentPublicId: "idcc-1486", documentKind: "collective_agreement" };
    const code = provision("'essai':1C 'dure':2C");
    const equal = provision("'essai':1C 'dure':2C", agreement);
    // Another agreement's article also holds the rarer word « période »: it alone matches well.
    const better = provision("'period':1C 'essai':2C", { ...agreement, documentPublicId: "idcc-1979" });
    for (const p of [code, equal, better]) builder.add(p);
    const index = builder.finish("1", NO_PRIORS);
    const page = index.search(query([["period"], ["essai"]], { matchAny: true }));
    const score = new Map(page.hits.map((h) => [h.id, h.score]));
    // It comes first, though halved; among equals the code comes first, at twice the agreement's score.
    expect(page.hits.map((h) => h.id)).toEqual([better.id, code.id, equal.id]);
    expect(score.get(equal.id)).toBeCloseTo(score.get(code.id)! * RANKING.agreement, 12);
    // Within one agreement its provisions keep their whole score.
    const within = index.search(query([["period"], ["essai"]], { matchAny: true, document: "idcc-1486" }));
    expect(within.hits).toEqual([{ id: equal.id, score: score.get(code.id)! }]);
  });

  it("puts the provision a query names by number first, even without its words", () => {
    const builder = new MemoryIndexBuilder();
    const named = provision("'autr':1C", { numberKey: "L1237-11" });
    const other = provision("'rupture':1C");
    for (const p of [named, other]) builder.add(p);
    const page = builder.finish("1", NO_PRIORS).search(query([["rupture"]], { numberKey: "L1237-11" }));
    expect(page.hits.map((h) => h.id)).toEqual([named.id, other.id]);
    expect(page.hits[0]!.score).toBe(NUMBER_BONUS);
  });

  it("pages: total counts every match, offset and limit slice the ranking", () => {
    const builder = new MemoryIndexBuilder();
    const many = Array.from({ length: 150 }, (_, i) => provision(`'mot':${i + 1}C 'autre':${i + 200}C`));
    for (const p of many) builder.add(p);
    const index = builder.finish("1", NO_PRIORS);
    const first = index.search(query([["mot"]], { limit: 100 }));
    const second = index.search(query([["mot"]], { limit: 10, offset: 100 }));
    expect(first.total).toBe(150);
    expect(second.total).toBe(150);
    expect(new Set([...first.hits, ...second.hits].map((h) => h.id)).size).toBe(110);
  });

  it("keeps the best of many matches for the second stage, ties by public id, in any order", () => {
    // Scores in five levels (one to five occurrences), forty provisions at each, shuffled.
    const many = Array.from({ length: 200 }, (_, i) =>
      provision(
        Array.from({ length: (i * 7) % 5 }, (_, k) => `'mot':${k + 2}C`)
          .concat("'mot':1C", "'autre':9C")
          .join(" "),
      ),
    );
    const builder = new MemoryIndexBuilder();
    for (const p of many) builder.add(p);
    const wide = builder.finish("1", { ...NO_PRIORS, rescoreWindow: 1_000 });
    const narrow = wide.withRanking({ ...NO_PRIORS, rescoreWindow: 7 });
    const all = wide.search(query([["mot"]], { limit: 200 }));
    // The whole ranking, checked by hand: by score, then public id in byte order ("code/L10" < "code/L9").
    const publicId = new Map(many.map((p) => [p.id, p.publicId]));
    const expected = [...all.hits].sort(
      (x, y) => y.score - x.score || (publicId.get(x.id)! < publicId.get(y.id)! ? -1 : 1),
    );
    expect(all.hits).toEqual(expected);
    expect(new Set(all.hits.map((h) => h.score)).size).toBe(5);
    // A window of 7 keeps the same first 7, and a page of 3 deeper in it; total counts every match.
    expect(narrow.search(query([["mot"]], { limit: 7 })).hits).toEqual(all.hits.slice(0, 7));
    const page = narrow.search(query([["mot"]], { limit: 3, offset: 40 }));
    expect(page.hits).toEqual(all.hits.slice(40, 43));
    expect(page.total).toBe(200);
  });

  it("ranks with other constants over the same postings as a copy built with them", () => {
    const provisions = [
      provision("'essai':1B,3C 'period':2C", { citedBy: 5 }),
      provision("'essai':2C 'contrat':1C,3C,4C 'period':5C"),
      provision("'period':1C 'essai':2C"),
    ];
    const other = { ...RANKING, k1: 2, b: 0.3, fields: { ...RANKING.fields, headings: 4 }, authority: 0.3 };
    const built = new MemoryIndexBuilder();
    for (const p of provisions) built.add(p);
    const direct = built.finish("1", other).search(query([["essai"], ["period"]]));
    const reranked = new MemoryIndexBuilder();
    for (const p of provisions) reranked.add(p);
    const base = reranked.finish("1", RANKING);
    const before = base.search(query([["essai"], ["period"]]));
    expect(base.withRanking(other).search(query([["essai"], ["period"]]))).toEqual(direct);
    expect(before).not.toEqual(direct);
  });

  it("feedback: words of the best provisions, weighted by frequency and score, rerank the matches", () => {
    const builder = new MemoryIndexBuilder();
    const top = provision("'rupture':1C 'homolog':2C,3C 'salari':4C");
    const second = provision("'rupture':1C 'indemnit':2C 'salari':3C");
    const other = provision("'rupture':1C 'salari':2C");
    const unmatched = provision("'homolog':1C");
    const filler = Array.from({ length: 20 }, () => provision("'salari':1C 'autre':2C"));
    for (const p of [top, second, other, unmatched, ...filler]) builder.add(p);
    const index = builder.finish("1", NO_PRIORS);
    const first = index.search(query([["rupture"]]));
    const words = index.feedbackWords(first.hits, new Set(["rupture"]), 5);
    // "salari" is in a tenth of the provisions or more: left out; "homolog" twice in the best one.
    expect(words.map((w) => w.lexeme)).toEqual(["homolog", "indemnit"]);
    expect(words.reduce((sum, w) => sum + w.weight, 0)).toBeCloseTo(1, 12);
    const again = index.search(query([["rupture"]], { feedback: [{ lexeme: "indemnit", weight: 5 }] }));
    // Feedback reranks what the query matched and matches nothing by itself.
    expect(again.total).toBe(3);
    expect(again.hits[0]!.id).toBe(second.id);
  });
});

import type { IndexedProvision } from "../store/search-snapshot.ts";
import { BoundedHeap, compareIds } from "./bounded-heap.ts";
import { FieldStatistics, saturated } from "./field-statistics.ts";
import { type FilterQuery, ProvisionFilters } from "./memory-filters.ts";
import {
  hasPosting,
  holdsPhrase,
  type PositionTables,
  phraseOf,
  positionsOf,
  sloppyFrequency,
} from "./positions.ts";
import { minimumShouldMatch } from "./query-text.ts";
import { NUMBER_BONUS, type Ranking } from "./ranking.ts";
import { type TsvectorEntry, WEIGHT, weightOf } from "./tsvector.ts";

/**
 * The Postgres engine's ranking model (postgres-ranking-sql.ts), computed in memory: the same BM25F
 * over the same postings, the same phrase rule, proximity pairs and priors, the same filters and
 * order. It is built from what the store holds (each provision's `search_vector` and the columns
 * the filters read) and answers which provisions make the page; the store then reads their rows
 * and snippets. Why: on PGlite (WebAssembly) the SQL model costs 100–300 ms a question, the
 * in-memory one a few milliseconds (docs/PERFORMANCE.md). Pure: no I/O here; memory-search.ts
 * loads it and decides when it is current.
 *
 * Layout, for about 30,000 provisions and 2.5 million postings: one inverted list per lexeme
 * (provision, and frequency in text, headings and guides), and each provision's lexemes with
 * their positions (for phrases and proximity), all in typed arrays (memory-index-builder.ts
 * makes them). Beside this file: the term and length statistics (field-statistics.ts), the
 * filters (memory-filters.ts), positions, phrases and pairs (positions.ts), and the heap that
 * keeps the best candidates (bounded-heap.ts).
 */

/** A query as the engine analysed it: each alternative of each term, as Postgres analyses it. */
export interface AnalysedQuery extends FilterQuery {
  /**
   * In the order of queryTerms(…).map(withHyphensApart).flat(), each with the index of its term;
   * `inOrder`: a phrase's words side by side in that order, or (false) anywhere.
   */
  alternatives: Array<{ term: number; vector: TsvectorEntry[]; inOrder: boolean }>;
  /** The number key the query names (citations.ts), if any. */
  numberKey: string | null;
  matchAny: boolean;
  limit: number;
  offset: number;
  /**
   * Words added by pseudo-relevance feedback (feedbackWords): each adds its weight times its
   * BM25F to the provisions the query's own terms matched; they neither match nor count towards
   * the words required, nor form proximity pairs.
   */
  feedback?: Array<{ lexeme: string; weight: number }>;
}

export interface MemoryPage {
  total: number;
  /** Whether some provision of the `total` holds every term (SearchResult.holdsEveryTerm). */
  holdsEveryTerm: boolean;
  /** Store ids and scores, best first. */
  hits: Array<{ id: number; score: number }>;
}

interface Candidate {
  doc: number;
  words: number;
  preference: number;
  bonus: number;
}

export class MemoryIndex {
  readonly size: number;
  private readonly statistics: FieldStatistics;
  private readonly filters: ProvisionFilters;
  private readonly publicIds: string[];
  private readonly byNumberKey = new Map<string, number[]>();
  // Scratch space for one search at a time (search() never awaits).
  private readonly sum: Float64Array;
  private readonly count: Uint8Array;
  private readonly best: Float64Array;
  private readonly stamp: Int32Array;
  private stampNow = 0;
  /** For feedbackWords, made on first use: lexemes by index, provisions by store id. */
  private lexemes: string[] | undefined;
  private docOf: Map<number, number> | undefined;

  constructor(
    /** The store's search generation this index was built at (memory-search.ts). */
    readonly generation: string,
    private readonly ranking: Ranking,
    private readonly provisions: Omit<IndexedProvision, "vector">[],
    private readonly lexicon: Map<string, number>,
    /** Per lexeme: [provision, tf text, tf headings, tf guides] × its document frequency. */
    private readonly postings: Int32Array[],
    private readonly tables: PositionTables,
    /** Per provision: text, headings and guides lengths (positions of weights C, B, D). */
    private readonly lengths: Int32Array,
  ) {
    const n = provisions.length;
    this.size = n;
    this.statistics = new FieldStatistics(n, postings, lengths, ranking);
    this.filters = new ProvisionFilters(provisions);
    this.publicIds = provisions.map((p) => p.publicId);
    provisions.forEach((p, d) => {
      const list = this.byNumberKey.get(p.numberKey);
      if (list) list.push(d);
      else this.byNumberKey.set(p.numberKey, [d]);
    });
    this.sum = new Float64Array(n);
    this.count = new Uint8Array(n);
    this.best = new Float64Array(n);
    this.stamp = new Int32Array(n);
  }

  /** The same postings ranked with other constants (eval:weights tries many); nothing is copied. */
  withRanking(ranking: Ranking): MemoryIndex {
    return new MemoryIndex(
      this.generation,
      ranking,
      this.provisions,
      this.lexicon,
      this.postings,
      this.tables,
      this.lengths,
    );
  }

  /** Postings held, for the logs and the benchmark's report. */
  get postingCount(): number {
    return this.postings.reduce((total, list) => total + list.length / 4, 0);
  }

  /** BM25F of one posting, as postgres-ranking-sql.ts's BM25 expression, operation for operation. */
  private bm25(list: Int32Array, at: number, bodyIdf: number, guidesIdf: number): number {
    const { k1, fields: W } = this.ranking;
    const doc = list[at]!;
    const tf = W.text * list[at + 1]! + W.headings * list[at + 2]!;
    const tfGuides = list[at + 3]!;
    return (
      bodyIdf * saturated(tf, this.statistics.bodyNorm[doc]!, k1) +
      W.guides * guidesIdf * saturated(tfGuides, this.statistics.guidesNorm[doc]!, k1)
    );
  }

  search(query: AnalysedQuery): MemoryPage {
    const alternatives = query.alternatives.filter((a) => a.vector.length > 0);
    const terms = [...new Set(alternatives.map((a) => a.term))].sort((x, y) => x - y);
    const required = query.matchAny ? 1 : minimumShouldMatch(terms.length, query.numberKey !== null);
    const touched: number[] = [];
    try {
      for (const term of terms)
        this.scoreTerm(
          alternatives.filter((a) => a.term === term),
          touched,
        );
      for (const word of query.feedback ?? []) this.scoreFeedback(word.lexeme, word.weight);
      const { total, holdsEveryTerm, window } = this.window(
        query,
        touched,
        required,
        terms.length,
        Math.max(this.ranking.rescoreWindow, query.limit + query.offset),
      );
      const pairs = this.pairs(alternatives, terms);
      // The window is in first-pass order: its first rescoreWindow get the second pass, whatever
      // the page; those after keep their first-pass score, which the second pass only raises.
      const scored = window.map((c, rank) => {
        if (rank >= this.ranking.rescoreWindow)
          return { doc: c.doc, score: c.words * c.preference + c.bonus };
        const p = this.provisions[c.doc]!;
        let proximity = 0;
        for (const pair of pairs) proximity += this.pairScore(c.doc, pair);
        const prior =
          1 +
          this.ranking.authority * Math.log(1 + p.citedBy) +
          (p.numberKey.startsWith("L") ? this.ranking.legislative : 0) +
          (p.opensSection ? this.ranking.opening : 0);
        return {
          doc: c.doc,
          score: (c.words + this.ranking.proximity * proximity) * prior * c.preference + c.bonus,
        };
      });
      scored.sort((x, y) => y.score - x.score || compareIds(this.publicIds[x.doc]!, this.publicIds[y.doc]!));
      return {
        total,
        holdsEveryTerm,
        hits: scored
          .slice(query.offset, query.offset + query.limit)
          .map((s) => ({ id: this.provisions[s.doc]!.id, score: s.score })),
      };
    } finally {
      for (const doc of touched) {
        this.sum[doc] = 0;
        this.count[doc] = 0;
      }
    }
  }

  /** Adds a feedback word's weighted score to the provisions already matched. */
  private scoreFeedback(lexeme: string, weight: number): void {
    const index = this.lexicon.get(lexeme);
    const list = index === undefined ? undefined : this.postings[index];
    if (index === undefined || !list || list.length === 0) return;
    const bodyIdf = this.statistics.bodyIdf(index);
    const guidesIdf = this.statistics.guidesIdf(index);
    for (let at = 0; at < list.length; at += 4) {
      const doc = list[at]!;
      if (this.count[doc]! > 0)
        this.sum[doc] = this.sum[doc]! + weight * this.bm25(list, at, bodyIdf, guidesIdf);
    }
  }

  /**
   * Pseudo-relevance feedback, RM3's relevance model: the words of the best provisions of a first
   * search (headings and text), each weighed by the sum over those provisions of its frequency
   * there over the provision's length, times the provision's share of their scores; the `count`
   * heaviest, leaving out the query's own words (`exclude`), numbers, and words found in a tenth of
   * the provisions or more (they tell nothing about a topic). Weights sum to 1.
   */
  feedbackWords(
    hits: MemoryPage["hits"],
    exclude: ReadonlySet<string>,
    count: number,
  ): Array<{ lexeme: string; weight: number }> {
    this.lexemes ??= [...this.lexicon.keys()];
    this.docOf ??= new Map(this.provisions.map((p, doc) => [p.id, doc]));
    const { docLexStart, docLex, docPositionStart, positions } = this.tables;
    const total = hits.reduce((sum, hit) => sum + hit.score, 0);
    const model = new Map<number, number>();
    for (const hit of hits) {
      const doc = this.docOf.get(hit.id);
      if (doc === undefined || total <= 0) continue;
      let length = 0;
      const tf = new Map<number, number>();
      for (let e = docLexStart[doc]!; e < docLexStart[doc + 1]!; e += 1) {
        let n = 0;
        for (let at = docPositionStart[e]!; at < docPositionStart[e + 1]!; at += 1) {
          const weight = weightOf(positions[at]!);
          if (weight === WEIGHT.B || weight === WEIGHT.C) n += 1;
        }
        if (n > 0) tf.set(docLex[e]!, n);
        length += n;
      }
      for (const [lexeme, n] of tf)
        model.set(lexeme, (model.get(lexeme) ?? 0) + (n / length) * (hit.score / total));
    }
    const words = [...model]
      .filter(([lexeme]) => {
        const word = this.lexemes![lexeme]!;
        const df = this.postings[lexeme]!.length / 4;
        return !exclude.has(word) && !/^[0-9]/.test(word) && df < this.size / 10;
      })
      .sort((x, y) => y[1] - x[1])
      .slice(0, count);
    const sum = words.reduce((s, [, w]) => s + w, 0);
    return words.map(([lexeme, w]) => ({ lexeme: this.lexemes![lexeme]!, weight: w / sum }));
  }

  /** Adds one term's score (the best of its alternatives) to every provision holding it. */
  private scoreTerm(alternatives: AnalysedQuery["alternatives"], touched: number[]): void {
    this.stampNow += 1;
    if (this.stampNow === 2 ** 31 - 1) {
      this.stamp.fill(0);
      this.stampNow = 1;
    }
    const stamp = this.stampNow;
    const termDocs: number[] = [];
    const offer = (doc: number, score: number) => {
      if (this.stamp[doc] !== stamp) {
        this.stamp[doc] = stamp;
        this.best[doc] = score;
        termDocs.push(doc);
      } else if (score > this.best[doc]!) this.best[doc] = score;
    };
    for (const alternative of alternatives) {
      const known = alternative.vector.map((entry) => this.lexicon.get(entry.lexeme));
      if (alternative.vector.length === 1) {
        const list = known[0] === undefined ? undefined : this.postings[known[0]];
        if (!list || list.length === 0) continue;
        const bodyIdf = this.statistics.bodyIdf(known[0]!);
        const guidesIdf = this.statistics.guidesIdf(known[0]!);
        for (let at = 0; at < list.length; at += 4) offer(list[at]!, this.bm25(list, at, bodyIdf, guidesIdf));
        continue;
      }
      // A phrase: scored as its rarest word, on provisions with every word and (in order) the phrase itself.
      if (known.some((index) => index === undefined || this.postings[index]!.length === 0)) continue;
      const indexes = known as number[];
      // The rarest in any field; among as rare, the first in byte order (the SQL's ORDER BY).
      let pick = 0;
      for (let i = 1; i < indexes.length; i += 1) {
        const df = this.postings[indexes[i]!]!.length;
        const best = this.postings[indexes[pick]!]!.length;
        if (df < best || (df === best && alternative.vector[i]!.lexeme < alternative.vector[pick]!.lexeme))
          pick = i;
      }
      const rarest = indexes[pick]!;
      const phrase = phraseOf(alternative.vector, indexes);
      const list = this.postings[rarest]!;
      const bodyIdf = this.statistics.bodyIdf(rarest);
      const guidesIdf = this.statistics.guidesIdf(rarest);
      for (let at = 0; at < list.length; at += 4) {
        const doc = list[at]!;
        if (
          indexes.every((index) => index === rarest || hasPosting(this.tables, doc, index)) &&
          (!alternative.inOrder || holdsPhrase(this.tables, doc, phrase))
        )
          offer(doc, this.bm25(list, at, bodyIdf, guidesIdf));
      }
    }
    for (const doc of termDocs) {
      if (this.count[doc] === 0) touched.push(doc);
      this.count[doc] = this.count[doc]! + 1;
      this.sum[doc] = this.sum[doc]! + this.best[doc]!;
    }
  }

  /**
   * The provisions matching enough terms, or named by number, that pass the filters: how many
   * (the page's total), and the best `n` by first-stage key, ties by public id (postgres-ranking-sql.ts's
   * `ranked`). The best are kept in a bounded heap as the matches are read, so a common word's tens
   * of thousands of matches cost a comparison each, not an object and a sort.
   */
  private window(
    query: AnalysedQuery,
    touched: number[],
    required: number,
    terms: number,
    n: number,
  ): { total: number; holdsEveryTerm: boolean; window: Candidate[] } {
    /** What the provision's words are multiplied by (in force, reach), or 0 if a filter drops it. */
    const preferenceOf = this.filters.preferenceFor(query, this.ranking);
    const bonusOf = (doc: number) =>
      query.numberKey !== null && this.provisions[doc]!.numberKey === query.numberKey ? NUMBER_BONUS : 0;
    const best = new BoundedHeap(n, this.publicIds);
    let total = 0;
    let holdsEveryTerm = false;
    const matched = (doc: number) => this.count[doc]! > 0 && this.count[doc]! >= required;
    for (const doc of touched) {
      if (!matched(doc)) continue;
      const preference = preferenceOf(doc);
      if (preference === 0) continue;
      total += 1;
      if (this.count[doc] === terms) holdsEveryTerm = true;
      best.offer(doc, this.sum[doc]! * preference + bonusOf(doc));
    }
    // Named by its number: a candidate whatever its words (score 0 if they do not match).
    const named = query.numberKey === null ? [] : (this.byNumberKey.get(query.numberKey) ?? []);
    for (const doc of named) {
      const preference = preferenceOf(doc);
      if (preference === 0) continue;
      // What the query asks for: as holding every term (postgres-ranking-sql.ts's `matches`).
      holdsEveryTerm = true;
      if (matched(doc)) continue;
      total += 1;
      best.offer(doc, bonusOf(doc));
    }
    const window = best.sorted().map(
      (doc): Candidate => ({
        doc,
        words: matched(doc) ? this.sum[doc]! : 0,
        preference: preferenceOf(doc),
        bonus: bonusOf(doc),
      }),
    );
    return { total, holdsEveryTerm, window };
  }

  /**
   * Consecutive query words (each term's first alternative, if one word), with each word's idf in
   * the text and in the headings.
   */
  private pairs(alternatives: AnalysedQuery["alternatives"], terms: number[]): Pair[] {
    const first = new Map<number, number>();
    for (const term of terms) {
      const alternative = alternatives.find((a) => a.term === term)!;
      if (alternative.vector.length !== 1) continue;
      const lexeme = this.lexicon.get(alternative.vector[0]!.lexeme);
      const list = lexeme === undefined ? undefined : this.postings[lexeme];
      if (lexeme === undefined || !list || list.length === 0) continue;
      first.set(term, lexeme);
    }
    const pairs: Pair[] = [];
    for (const [term, x] of first) {
      const y = first.get(term + 1);
      if (y === undefined) continue;
      pairs.push({
        x,
        y,
        idfText: this.statistics.textIdf(x) + this.statistics.textIdf(y),
        idfHeadings: this.statistics.headingsIdf(x) + this.statistics.headingsIdf(y),
      });
    }
    return pairs;
  }

  /**
   * A pair's proximity score in provision d, as the index engines score the phrase "x y" with
   * slop 3 over the text and the headings (dsl.ts): in each field, the pair's BM25, its two
   * words' idf in that field times its sloppy frequency (sloppyFrequency) saturated by k1 and
   * normalised by that field's length; the better field counts. Times k1 + 1, the scale of this
   * model's BM25 (Lucene's leaves it out): found once, adjacent, in a field of average length, a
   * pair adds its two words' idf.
   */
  private pairScore(doc: number, pair: Pair): number {
    const xs = positionsOf(this.tables, doc, pair.x);
    const ys = xs && positionsOf(this.tables, doc, pair.y);
    if (!xs || !ys) return 0;
    const same = pair.x === pair.y;
    const inText = sloppyFrequency(xs, ys, WEIGHT.C, same);
    const inHeadings = sloppyFrequency(xs, ys, WEIGHT.B, same);
    // As bm25: the idf times the saturated frequency.
    const { k1 } = this.ranking;
    const text = inText === 0 ? 0 : pair.idfText * saturated(inText, this.statistics.textNorm[doc]!, k1);
    const headings =
      inHeadings === 0 ? 0 : pair.idfHeadings * saturated(inHeadings, this.statistics.headingsNorm[doc]!, k1);
    return Math.max(text, headings);
  }
}

interface Pair {
  x: number;
  y: number;
  /** The sum of the two words' idf in the text, in the headings. */
  idfText: number;
  idfHeadings: number;
}

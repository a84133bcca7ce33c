import { DOMAINS } from "../core/domains.ts";
import type { IndexedProvision } from "../store/search-snapshot.ts";
import { OUT_OF_FORCE_WEIGHT } from "./engine.ts";
import { minimumShouldMatch } from "./query-text.ts";
import { AGREEMENT_KIND, NUMBER_BONUS, PAIR_SLOP, RANKING, type Ranking, reachWeight } from "./ranking.ts";
import { parseTsvector, positionOf, type TsvectorEntry, WEIGHT, weightOf } from "./tsvector.ts";

/**
 * The Postgres engine's ranking model (postgres-engine.ts), computed in memory: the same BM25F
 * over the same postings, the same phrase rule, proximity pairs and priors, the same filters and
 * order. It is built from what the store holds (each provision's `search_vector` and the columns
 * the filters read) and answers which provisions make the page; the store then reads their rows
 * and snippets. Why: on PGlite (WebAssembly) the SQL model costs 100–300 ms a question, the
 * in-memory one a few milliseconds (docs/PERFORMANCE.md). Pure: no I/O here; memory-search.ts
 * loads it and decides when it is current.
 *
 * Layout, for about 30,000 provisions and 2.5 million postings: one inverted list per lexeme
 * (provision, and frequency in text, headings and guides), and each provision's lexemes with
 * their positions (for phrases and proximity), all in typed arrays.
 */

/** A query as the engine analysed it: each alternative of each term, as Postgres analyses it. */
export interface AnalysedQuery {
  /**
   * In the order of queryTerms(…).map(withHyphensApart).flat(), each with the index of its term;
   * `inOrder`: a phrase's words side by side in that order, or (false) anywhere.
   */
  alternatives: Array<{ term: number; vector: TsvectorEntry[]; inOrder: boolean }>;
  /** The number key the query names (citations.ts), if any. */
  numberKey: string | null;
  matchAny: boolean;
  domains: readonly string[] | null;
  unclassifiedDocuments: readonly string[];
  document: string | null;
  inForce: boolean;
  asOf: string;
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

/** Okapi BM25's idf of a word `df` of `n` documents hold. */
const idf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/** Per-provision flags (MemoryIndex.flags). */
const FLAG = { agreement: 1, unclassified: 2 } as const;

/** "2024-01-31" as 20240131, comparable as the dates are; `open` for none. */
const dayNumber = (day: string | null, open: number) =>
  day === null ? open : Number.parseInt(day.slice(0, 4) + day.slice(5, 7) + day.slice(8, 10), 10);

const DOMAIN_BIT = new Map<string, number>(DOMAINS.map((domain, i) => [domain, 1 << i]));
const domainMask = (domains: readonly string[]) =>
  domains.reduce((mask, domain) => mask | (DOMAIN_BIT.get(domain) ?? 0), 0);

/** Collects provisions, then freezes them into a MemoryIndex. */
export class MemoryIndexBuilder {
  private readonly provisions: Omit<IndexedProvision, "vector">[] = [];
  private readonly lexicon = new Map<string, number>();
  /** Per lexeme: provision numbers and (text, headings, guides) frequencies, as they come. */
  private readonly postings: number[][] = [];
  private docLex: number[] = [];
  private docPositionStart: number[] = [0];
  private positions: number[] = [];
  private docLexStart: number[] = [0];
  private lengths: number[] = [];

  add(provision: IndexedProvision): void {
    const doc = this.provisions.length;
    const { vector, ...meta } = provision;
    this.provisions.push(meta);
    const entries = parseTsvector(vector)
      .map((entry) => ({ ...entry, index: this.lexemeIndex(entry.lexeme) }))
      .sort((a, b) => a.index - b.index);
    let text = 0;
    let headings = 0;
    let guides = 0;
    for (const entry of entries) {
      let tfText = 0;
      let tfHeadings = 0;
      let tfGuides = 0;
      for (const packed of entry.positions) {
        const weight = weightOf(packed);
        if (weight === WEIGHT.C) tfText += 1;
        else if (weight === WEIGHT.B) tfHeadings += 1;
        else if (weight === WEIGHT.D) tfGuides += 1;
      }
      // As search_vector_postings(): a lexeme only in the number (A) has no posting.
      if (tfText + tfHeadings + tfGuides > 0) {
        this.postings[entry.index]!.push(doc, tfText, tfHeadings, tfGuides);
      }
      text += tfText;
      headings += tfHeadings;
      guides += tfGuides;
      this.docLex.push(entry.index);
      for (const packed of entry.positions) this.positions.push(packed);
      this.docPositionStart.push(this.positions.length);
    }
    this.docLexStart.push(this.docLex.length);
    this.lengths.push(text, headings, guides);
  }

  private lexemeIndex(lexeme: string): number {
    let index = this.lexicon.get(lexeme);
    if (index === undefined) {
      index = this.postings.length;
      this.lexicon.set(lexeme, index);
      this.postings.push([]);
    }
    return index;
  }

  finish(generation: string, ranking: Ranking = RANKING): MemoryIndex {
    return new MemoryIndex(
      generation,
      ranking,
      this.provisions,
      this.lexicon,
      this.postings.map((list) => Int32Array.from(list)),
      {
        docLexStart: Int32Array.from(this.docLexStart),
        docLex: Int32Array.from(this.docLex),
        docPositionStart: Int32Array.from(this.docPositionStart),
        positions: Uint16Array.from(this.positions),
      },
      Int32Array.from(this.lengths),
    );
  }
}

interface PositionTables {
  /** Provision d's lexemes are docLex[docLexStart[d] … docLexStart[d+1]), ascending. */
  docLexStart: Int32Array;
  docLex: Int32Array;
  /** Entry e's positions are positions[docPositionStart[e] … docPositionStart[e+1]). */
  docPositionStart: Int32Array;
  positions: Uint16Array;
}

interface Candidate {
  doc: number;
  words: number;
  preference: number;
  bonus: number;
}

export class MemoryIndex {
  readonly size: number;
  private readonly averageLength: number;
  private readonly averageGuides: number;
  private readonly publicIds: string[];
  private readonly domainMasks: Int32Array;
  /**
   * What the filters and preferences read, per provision, as numbers: a search over a common
   * word reads them for tens of thousands of provisions. Days as yyyymmdd (0 and 99999999 when
   * open); the document as an index into `documentIds`; FLAG bits.
   */
  private readonly fromDay: Int32Array;
  private readonly toDay: Int32Array;
  private readonly flags: Uint8Array;
  private readonly documentOf: Int32Array;
  private readonly documentIds = new Map<string, number>();
  private readonly byNumberKey = new Map<string, number[]>();
  /** Per lexeme: provisions holding it in their headings or text (the larger), in their guides. */
  private readonly bodyDf: Int32Array;
  private readonly guidesDf: Int32Array;
  /** Provisions that have guides (the guides field's document count). */
  private readonly withGuides: number;
  private readonly bodyNorm: Float64Array;
  private readonly guidesNorm: Float64Array;
  /**
   * The text and the headings as fields of their own, for proximity (pairScore): each lexeme's
   * document frequency in each, and each provision's length normalisation in each.
   */
  private readonly textDf: Int32Array;
  private readonly headingsDf: Int32Array;
  private readonly textNorm: Float64Array;
  private readonly headingsNorm: Float64Array;
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
    let text = 0;
    let headings = 0;
    let guides = 0;
    let withGuides = 0;
    for (let d = 0; d < n; d += 1) {
      text += lengths[3 * d]!;
      headings += lengths[3 * d + 1]!;
      guides += lengths[3 * d + 2]!;
      if (lengths[3 * d + 2]! > 0) withGuides += 1;
    }
    const { fields: W } = ranking;
    // As the `totals` CTE: averages of at least 1.
    this.averageLength = Math.max((W.text * text + W.headings * headings) / Math.max(n, 1), 1);
    this.averageGuides = Math.max(guides / Math.max(withGuides, 1), 1);
    this.withGuides = withGuides;
    this.bodyDf = new Int32Array(postings.length);
    this.guidesDf = new Int32Array(postings.length);
    this.textDf = new Int32Array(postings.length);
    this.headingsDf = new Int32Array(postings.length);
    postings.forEach((list, lexeme) => {
      let text = 0;
      let headings = 0;
      let guides = 0;
      for (let at = 0; at < list.length; at += 4) {
        if (list[at + 1]! > 0) text += 1;
        if (list[at + 2]! > 0) headings += 1;
        if (list[at + 3]! > 0) guides += 1;
      }
      this.bodyDf[lexeme] = Math.max(text, headings);
      this.guidesDf[lexeme] = guides;
      this.textDf[lexeme] = text;
      this.headingsDf[lexeme] = headings;
    });
    this.publicIds = provisions.map((p) => p.publicId);
    this.domainMasks = Int32Array.from(provisions, (p) => domainMask(p.domains));
    this.fromDay = Int32Array.from(provisions, (p) => dayNumber(p.inForceFrom, 0));
    // A provision the source says is repealed, with no end date, is in force on no day.
    this.toDay = Int32Array.from(provisions, (p) =>
      dayNumber(p.inForceTo, p.status === "repealed" ? 0 : 99_999_999),
    );
    this.flags = Uint8Array.from(
      provisions,
      (p) =>
        (p.documentKind === AGREEMENT_KIND ? FLAG.agreement : 0) |
        (p.domains.length === 0 ? FLAG.unclassified : 0),
    );
    this.documentOf = Int32Array.from(provisions, (p) => {
      let index = this.documentIds.get(p.documentPublicId);
      if (index === undefined) {
        index = this.documentIds.size;
        this.documentIds.set(p.documentPublicId, index);
      }
      return index;
    });
    provisions.forEach((p, d) => {
      const list = this.byNumberKey.get(p.numberKey);
      if (list) list.push(d);
      else this.byNumberKey.set(p.numberKey, [d]);
    });
    // Each provision's length normalisation, k1 × (1 − b + b × length / average), per field:
    // computed once here rather than for each of its postings at each search.
    const { k1, b, guidesB } = ranking;
    const norms = (lengthOf: (d: number) => number, average: number, lengthWeight = b) =>
      Float64Array.from(
        { length: n },
        (_, d) => k1 * (1 - lengthWeight + (lengthWeight * lengthOf(d)) / average),
      );
    this.bodyNorm = norms(
      (d) => W.text * lengths[3 * d]! + W.headings * lengths[3 * d + 1]!,
      this.averageLength,
    );
    this.guidesNorm = norms((d) => lengths[3 * d + 2]!, this.averageGuides, guidesB);
    // The text and the headings alone (proximity), as the `totals` CTE: averages of at least 1.
    this.textNorm = norms((d) => lengths[3 * d]!, Math.max(text / Math.max(n, 1), 1));
    this.headingsNorm = norms((d) => lengths[3 * d + 1]!, Math.max(headings / Math.max(n, 1), 1));
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

  /**
   * A lexeme's idf in the headings and text, as `combined_fields` takes it: its document frequency
   * in whichever of the two fields holds it in more provisions, among all provisions.
   */
  private bodyIdf(lexeme: number): number {
    return idf(this.size, this.bodyDf[lexeme]!);
  }

  /** Its idf in the guides field, the field's own: among the provisions that have guides. */
  private guidesIdf(lexeme: number): number {
    return idf(this.withGuides, this.guidesDf[lexeme]!);
  }

  /** BM25F of one posting, as postgres-engine.ts's BM25 expression, operation for operation. */
  private bm25(list: Int32Array, at: number, bodyIdf: number, guidesIdf: number): number {
    const { k1, fields: W } = this.ranking;
    const doc = list[at]!;
    const tf = W.text * list[at + 1]! + W.headings * list[at + 2]!;
    const tfGuides = list[at + 3]!;
    return (
      bodyIdf * saturated(tf, this.bodyNorm[doc]!, k1) +
      W.guides * guidesIdf * saturated(tfGuides, this.guidesNorm[doc]!, k1)
    );
  }

  /** Provision d's positions of a lexeme (packed: position × 4 + weight), or undefined. */
  private positionsOf(doc: number, lexeme: number): Uint16Array | undefined {
    const { docLexStart, docLex, docPositionStart, positions } = this.tables;
    let lo = docLexStart[doc]!;
    let hi = docLexStart[doc + 1]! - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const value = docLex[mid]!;
      if (value === lexeme) return positions.subarray(docPositionStart[mid]!, docPositionStart[mid + 1]!);
      if (value < lexeme) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** Has provision d a posting (a position outside the number) for this lexeme? */
  private hasPosting(doc: number, lexeme: number): boolean {
    const found = this.positionsOf(doc, lexeme);
    return found?.some((packed) => weightOf(packed) !== WEIGHT.A) ?? false;
  }

  /** `search_vector @@ phraseto_tsquery(alternative)`: the lexemes at the phrase's distances. */
  private holdsPhrase(doc: number, phrase: Array<{ lexeme: number; offset: number }>): boolean {
    const first = this.positionsOf(doc, phrase[0]!.lexeme);
    if (!first) return false;
    const lists = phrase.map((part) => this.positionsOf(doc, part.lexeme));
    if (lists.some((list) => !list)) return false;
    return Array.from(first).some((packed) => {
      const start = positionOf(packed) - phrase[0]!.offset;
      return phrase.every((part, i) => hasPosition(lists[i]!, start + part.offset));
    });
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
      scored.sort((x, y) => y.score - x.score || compare(this.publicIds[x.doc]!, this.publicIds[y.doc]!));
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
    const bodyIdf = this.bodyIdf(index);
    const guidesIdf = this.guidesIdf(index);
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
        const bodyIdf = this.bodyIdf(known[0]!);
        const guidesIdf = this.guidesIdf(known[0]!);
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
      const bodyIdf = this.bodyIdf(rarest);
      const guidesIdf = this.guidesIdf(rarest);
      for (let at = 0; at < list.length; at += 4) {
        const doc = list[at]!;
        if (
          indexes.every((index) => index === rarest || this.hasPosting(doc, index)) &&
          (!alternative.inOrder || this.holdsPhrase(doc, phrase))
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
   * (the page's total), and the best `n` by first-stage key, ties by public id (postgres-engine.ts's
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
    const domains = query.domains ? domainMask(query.domains) : null;
    // Documents whose unclassified provisions pass a domain filter (title-classifier.ts).
    const unclassified = new Set<number>();
    for (const id of query.unclassifiedDocuments) {
      const index = this.documentIds.get(id);
      if (index !== undefined) unclassified.add(index);
    }
    // A document not loaded: no provision passes.
    const document = query.document === null ? null : (this.documentIds.get(query.document) ?? -1);
    const asOf = dayNumber(query.asOf, 0);
    const agreementWeight = reachWeight(this.ranking, AGREEMENT_KIND, query.document !== null);
    /** What the provision's words are multiplied by (in force, reach), or 0 if a filter drops it. */
    const preferenceOf = (doc: number): number => {
      const flags = this.flags[doc]!;
      if (
        domains !== null &&
        (this.domainMasks[doc]! & domains) === 0 &&
        !((flags & FLAG.unclassified) !== 0 && unclassified.has(this.documentOf[doc]!))
      )
        return 0;
      if (document !== null && this.documentOf[doc] !== document) return 0;
      const inForce = this.fromDay[doc]! <= asOf && this.toDay[doc]! > asOf;
      if (query.inForce && !inForce) return 0;
      return (inForce ? 1 : OUT_OF_FORCE_WEIGHT) * ((flags & FLAG.agreement) !== 0 ? agreementWeight : 1);
    };
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
      // What the query asks for: as holding every term (postgres-engine.ts's `matches`).
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
        idfText: idf(this.size, this.textDf[x]!) + idf(this.size, this.textDf[y]!),
        idfHeadings: idf(this.size, this.headingsDf[x]!) + idf(this.size, this.headingsDf[y]!),
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
    const xs = this.positionsOf(doc, pair.x);
    const ys = xs && this.positionsOf(doc, pair.y);
    if (!xs || !ys) return 0;
    const same = pair.x === pair.y;
    const inText = sloppyFrequency(xs, ys, WEIGHT.C, same);
    const inHeadings = sloppyFrequency(xs, ys, WEIGHT.B, same);
    // As bm25: the idf times the saturated frequency.
    const { k1 } = this.ranking;
    const text = inText === 0 ? 0 : pair.idfText * saturated(inText, this.textNorm[doc]!, k1);
    const headings =
      inHeadings === 0 ? 0 : pair.idfHeadings * saturated(inHeadings, this.headingsNorm[doc]!, k1);
    return Math.max(text, headings);
  }
}

/**
 * BM25's saturation of a frequency, times k1 + 1, given the provision's length normalisation in
 * that field (k1 × (1 − b + b × length / average)): postgres-engine.ts's saturated(), operation
 * for operation.
 */
const saturated = (frequency: number, norm: number, k1: number) =>
  (frequency * (k1 + 1)) / (frequency + norm);

interface Pair {
  x: number;
  y: number;
  /** The sum of the two words' idf in the text, in the headings. */
  idfText: number;
  idfHeadings: number;
}

/**
 * How often words x and y stand together in one field (the positions of that weight), as a
 * Lucene phrase "x y" with slop 3 counts it: y's positions are read one less (where the phrase
 * would put y), the two words' occurrences are read in that order (x first at a tie), and each
 * time one word follows the other within PAIR_SLOP, the pair is found once more, counting
 * 1 / (1 + that distance). "x y" counts 1, "x … y" ½, "y x" ⅓. When x and y are one lexeme (two
 * words of a query with one stem), each occurrence pairs with the next, one position after
 * counting as adjacent. Positions are packed (tsvector.ts), ascending.
 */
export function sloppyFrequency(
  xs: ArrayLike<number>,
  ys: ArrayLike<number>,
  weight: number,
  same = false,
): number {
  let frequency = 0;
  if (same) {
    let previousAt = -1;
    for (let i = 0; i < xs.length; i += 1) {
      if (weightOf(xs[i]!) !== weight) continue;
      const at = positionOf(xs[i]!);
      const gap = at - previousAt - 1;
      if (previousAt !== -1 && gap <= PAIR_SLOP) frequency += 1 / (1 + gap);
      previousAt = at;
    }
    return frequency;
  }
  let i = 0;
  let j = 0;
  let previous = -1;
  let previousAt = 0;
  for (;;) {
    while (i < xs.length && weightOf(xs[i]!) !== weight) i += 1;
    while (j < ys.length && weightOf(ys[j]!) !== weight) j += 1;
    if (i === xs.length && j === ys.length) return frequency;
    const xAt = i < xs.length ? positionOf(xs[i]!) : Number.POSITIVE_INFINITY;
    const yAt = j < ys.length ? positionOf(ys[j]!) - 1 : Number.POSITIVE_INFINITY;
    const word = xAt <= yAt ? 0 : 1;
    const at = word === 0 ? xAt : yAt;
    if (word === 0) i += 1;
    else j += 1;
    if (previous !== -1 && previous !== word && at - previousAt <= PAIR_SLOP)
      frequency += 1 / (1 + at - previousAt);
    previous = word;
    previousAt = at;
  }
}

/** The phrase's lexemes with their distance from its first position (phraseto_tsquery's <N>). */
function phraseOf(vector: TsvectorEntry[], indexes: number[]) {
  const parts = vector.flatMap((entry, i) =>
    entry.positions.map((packed) => ({ lexeme: indexes[i]!, position: positionOf(packed) })),
  );
  parts.sort((a, b) => a.position - b.position);
  const start = parts[0]!.position;
  return parts.map((part) => ({ lexeme: part.lexeme, offset: part.position - start }));
}

function hasPosition(list: Uint16Array, position: number): boolean {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const value = positionOf(list[mid]!);
    if (value === position) return true;
    if (value < position) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** Byte order, as Postgres compares public ids (ASCII letters and digits). */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The best `capacity` provisions by key, ties by public id in byte order: a min-heap whose root is
 * the worst kept, so a provision that does not beat it costs one comparison.
 */
class BoundedHeap {
  private readonly docs: Int32Array;
  private readonly keys: Float64Array;
  private size = 0;

  constructor(
    private readonly capacity: number,
    private readonly publicIds: string[],
  ) {
    this.docs = new Int32Array(capacity);
    this.keys = new Float64Array(capacity);
  }

  /** Does (key a, provision docA) rank below (key b, provision docB)? */
  private below(keyA: number, docA: number, keyB: number, docB: number): boolean {
    return keyA < keyB || (keyA === keyB && compare(this.publicIds[docA]!, this.publicIds[docB]!) > 0);
  }

  offer(doc: number, key: number): void {
    if (this.size < this.capacity) {
      let at = this.size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!this.below(key, doc, this.keys[parent]!, this.docs[parent]!)) break;
        this.docs[at] = this.docs[parent]!;
        this.keys[at] = this.keys[parent]!;
        at = parent;
      }
      this.docs[at] = doc;
      this.keys[at] = key;
      return;
    }
    if (this.capacity === 0 || !this.below(this.keys[0]!, this.docs[0]!, key, doc)) return;
    // Replaces the root (the worst kept) and sifts it down.
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= this.size) break;
      const right = child + 1;
      if (
        right < this.size &&
        this.below(this.keys[right]!, this.docs[right]!, this.keys[child]!, this.docs[child]!)
      )
        child = right;
      if (!this.below(this.keys[child]!, this.docs[child]!, key, doc)) break;
      this.docs[at] = this.docs[child]!;
      this.keys[at] = this.keys[child]!;
      at = child;
    }
    this.docs[at] = doc;
    this.keys[at] = key;
  }

  /** The provisions kept, best first. */
  sorted(): number[] {
    const order = Array.from({ length: this.size }, (_, i) => i);
    order.sort((x, y) =>
      this.below(this.keys[y]!, this.docs[y]!, this.keys[x]!, this.docs[x]!)
        ? -1
        : this.below(this.keys[x]!, this.docs[x]!, this.keys[y]!, this.docs[y]!)
          ? 1
          : 0,
    );
    return order.map((i) => this.docs[i]!);
  }
}

import type { Ranking } from "./ranking.ts";

/** Okapi BM25's idf of a word `df` of `n` documents hold. */
export const idf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/**
 * BM25's saturation of a frequency, times k1 + 1, given the provision's length normalisation in
 * that field (k1 × (1 − b + b × length / average)): postgres-ranking-sql.ts's saturated(), operation
 * for operation.
 */
export const saturated = (frequency: number, norm: number, k1: number) =>
  (frequency * (k1 + 1)) / (frequency + norm);

/**
 * The in-memory index's term and length statistics (memory-index.ts), those the store keeps for
 * Postgres (search_lexemes, search_totals), computed here from the postings: each lexeme's document frequency per field, and each
 * provision's length normalisation per field, computed once here rather than for each of its
 * postings at each search. The body is the text and the headings as one field (BM25F); the text
 * and the headings are also fields of their own, for proximity pairs.
 */
export class FieldStatistics {
  /** Provisions that have guides (the guides field's document count). */
  readonly withGuides: number;
  /** Per provision: k1 × (1 − b + b × length / average length), in each field. */
  readonly bodyNorm: Float64Array;
  readonly guidesNorm: Float64Array;
  readonly textNorm: Float64Array;
  readonly headingsNorm: Float64Array;
  /** Per lexeme: provisions holding it in their headings or text (the larger), in their guides. */
  private readonly bodyDf: Int32Array;
  private readonly guidesDf: Int32Array;
  private readonly textDf: Int32Array;
  private readonly headingsDf: Int32Array;

  constructor(
    /** Provisions in all. */
    readonly size: number,
    /** Per lexeme: [provision, tf text, tf headings, tf guides] × its document frequency. */
    postings: readonly Int32Array[],
    /** Per provision: text, headings and guides lengths. */
    lengths: Int32Array,
    ranking: Ranking,
  ) {
    const n = size;
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
    const { k1, b, guidesB, fields: W } = ranking;
    const norms = (lengthOf: (d: number) => number, average: number, lengthWeight = b) =>
      Float64Array.from(
        { length: n },
        (_, d) => k1 * (1 - lengthWeight + (lengthWeight * lengthOf(d)) / average),
      );
    // As the `totals` CTE: averages of at least 1.
    const average = (total: number, count: number) => Math.max(total / Math.max(count, 1), 1);
    this.bodyNorm = norms(
      (d) => W.text * lengths[3 * d]! + W.headings * lengths[3 * d + 1]!,
      average(W.text * text + W.headings * headings, n),
    );
    this.guidesNorm = norms((d) => lengths[3 * d + 2]!, average(guides, withGuides), guidesB);
    this.textNorm = norms((d) => lengths[3 * d]!, average(text, n));
    this.headingsNorm = norms((d) => lengths[3 * d + 1]!, average(headings, n));
  }

  /**
   * A lexeme's idf in the headings and text, as `combined_fields` takes it: its document frequency
   * in whichever of the two fields holds it in more provisions, among all provisions.
   */
  bodyIdf(lexeme: number): number {
    return idf(this.size, this.bodyDf[lexeme]!);
  }

  /** Its idf in the guides field, the field's own: among the provisions that have guides. */
  guidesIdf(lexeme: number): number {
    return idf(this.withGuides, this.guidesDf[lexeme]!);
  }

  /** Its idf in the text alone, and in the headings alone (proximity pairs). */
  textIdf(lexeme: number): number {
    return idf(this.size, this.textDf[lexeme]!);
  }

  headingsIdf(lexeme: number): number {
    return idf(this.size, this.headingsDf[lexeme]!);
  }
}

import type { IndexedProvision } from "../store/search-snapshot.ts";
import { MemoryIndex } from "./memory-index.ts";
import { RANKING, type Ranking } from "./ranking.ts";
import { parseTsvector, WEIGHT, weightOf } from "./tsvector.ts";

/**
 * Collects provisions (each with its `search_vector`, as the store holds it), then freezes them
 * into a MemoryIndex: one inverted list per lexeme and each provision's lexemes with their
 * positions, in typed arrays.
 */
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

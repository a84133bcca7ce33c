import snowball from "snowball-stemmers";
import { foldAccents } from "../../services/core/public-ids.ts";

/**
 * The reference ranker of eval:relevance: textbook Okapi BM25 in memory, so every engine's figures
 * read against a ranking anyone can rebuild. One field per provision: its section headings
 * followed by its text. Analysis: lowercase, French elisions removed, tokens on anything not a
 * letter or digit, Snowball French stop words removed, Snowball French stemming, accents folded
 * after stemming. A query is analysed the same way; any of its terms may match (OR) and a
 * provision scores the sum of BM25 over the query's distinct terms. Pure.
 */

export const K1 = 1.2;
export const B = 0.75;

/** BM25's inverse document frequency (Lucene's, never negative): ln(1 + (N − df + 0.5) / (df + 0.5)). */
export const idf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/**
 * The Snowball French stop list (Postgres's tsearch_data/french.stop, Lucene's `_french_` base),
 * kept here on purpose rather than imported from services/search/words.ts: the reference is
 * the yardstick and must not move when the engines' stop list does (the engines' list now also
 * drops "les" and "ils").
 */
const STOP_WORDS = new Set(
  (
    "au aux avec ce ces dans de des du elle en et eux il je la le leur lui ma mais me même mes " +
    "moi mon ne nos notre nous on ou par pas pour qu que qui sa se ses son sur ta te tes toi ton " +
    "tu un une vos votre vous c d j l à m n s t y été étée étées étés étant étante étants étantes " +
    "suis es est sommes êtes sont serai seras sera serons serez seront serais serait serions " +
    "seriez seraient étais était étions étiez étaient fus fut fûmes fûtes furent sois soit soyons " +
    "soyez soient fusse fusses fût fussions fussiez fussent ayant ayante ayantes ayants eu eue " +
    "eues eus ai as avons avez ont aurai auras aura aurons aurez auront aurais aurait aurions " +
    "auriez auraient avais avait avions aviez avaient eut eûmes eûtes eurent aie aies ait ayons " +
    "ayez aient eusse eusses eût eussions eussiez eussent"
  ).split(" "),
);

/** "l'", "d'", "qu'", "jusqu'"… at the start of a word, with either apostrophe. */
const ELISION = /(?<![\p{L}\p{N}])(?:jusqu|lorsqu|puisqu|quoiqu|qu|[ldjmnstc])['’]/gu;

const stemmer = snowball.newStemmer("french");
const stems = new Map<string, string>();

/** The terms of a text, in order (repeats kept). */
export function analyze(text: string): string[] {
  const terms: string[] = [];
  for (const token of text
    .normalize("NFC")
    .toLowerCase()
    .replace(ELISION, "")
    .split(/[^\p{L}\p{N}]+/u)) {
    if (!token || STOP_WORDS.has(token)) continue;
    let term = stems.get(token);
    if (term === undefined) {
      term = foldAccents(stemmer.stem(token));
      if (stems.size < 500_000) stems.set(token, term);
    }
    terms.push(term);
  }
  return terms;
}

/** One provision as the reference indexes it. */
export interface Bm25Row {
  /** Its public id, which search returns. */
  id: string;
  /** Its section headings, outermost first. */
  sectionPath: string[];
  text: string;
}

interface Postings {
  docs: Int32Array;
  tfs: Int32Array;
}

export interface Bm25Index {
  /** Provisions indexed. */
  readonly size: number;
  /** The BM25 score of every provision holding a query term. */
  scores(q: string): Map<string, number>;
  /** The public ids of the k best provisions, best first; equal scores in public-id order. */
  search(q: string, k: number): string[];
}

/** Builds the inverted index (term → provisions and term frequencies) of the given provisions. */
export function build(rows: readonly Bm25Row[], params: { k1?: number; b?: number } = {}): Bm25Index {
  const k1 = params.k1 ?? K1;
  const b = params.b ?? B;
  const n = rows.length;
  const ids = rows.map((row) => row.id);
  const lengths = new Float64Array(n);
  const building = new Map<string, { docs: number[]; tfs: number[] }>();
  rows.forEach((row, doc) => {
    const terms = analyze(`${row.sectionPath.join(" ")} ${row.text}`);
    lengths[doc] = terms.length;
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    for (const [term, tf] of counts) {
      let postings = building.get(term);
      if (!postings) {
        postings = { docs: [], tfs: [] };
        building.set(term, postings);
      }
      postings.docs.push(doc);
      postings.tfs.push(tf);
    }
  });
  const index = new Map<string, Postings>();
  for (const [term, p] of building)
    index.set(term, { docs: Int32Array.from(p.docs), tfs: Int32Array.from(p.tfs) });
  const averageLength = n ? lengths.reduce((sum, l) => sum + l, 0) / n : 0;
  // The part of BM25's denominator that depends on the provision alone: k1 · (1 − b + b · |d| / avgdl).
  const norms = lengths.map((l) => k1 * (1 - b + (b * l) / (averageLength || 1)));

  function accumulate(q: string): { score: Float64Array; touched: number[] } {
    const score = new Float64Array(n);
    const touched: number[] = [];
    for (const term of new Set(analyze(q))) {
      const postings = index.get(term);
      if (!postings) continue;
      const weight = idf(n, postings.docs.length);
      for (let i = 0; i < postings.docs.length; i++) {
        const doc = postings.docs[i]!;
        const tf = postings.tfs[i]!;
        if (score[doc] === 0) touched.push(doc);
        score[doc]! += (weight * tf * (k1 + 1)) / (tf + norms[doc]!);
      }
    }
    return { score, touched };
  }

  return {
    size: n,
    scores(q) {
      const { score, touched } = accumulate(q);
      return new Map(touched.map((doc) => [ids[doc]!, score[doc]!]));
    },
    search(q, k) {
      const { score, touched } = accumulate(q);
      return touched
        .sort((x, y) => score[y]! - score[x]! || (ids[x]! < ids[y]! ? -1 : ids[x]! > ids[y]! ? 1 : 0))
        .slice(0, k)
        .map((doc) => ids[doc]!);
    },
  };
}

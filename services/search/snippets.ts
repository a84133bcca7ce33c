import { hyphensApart, isHyphenatedWord } from "./query-text.ts";
import { matchedKey } from "./words.ts";

/**
 * Snippets that show why a provision matched, the same on every engine: the passage of its text
 * holding the most of the query's terms, with each matched word in <mark>…</mark> and an ellipsis
 * wherever the text goes on; its matching headings when only they matched; its opening otherwise
 * (a provision found by its number, or by the guides that cite it). Stop words are never marked,
 * nor the words of a synonym phrase outside that phrase ("durée" alone does not match "contrat à
 * durée déterminée"). Plain text: the only markup is <mark>.
 *
 * Words are compared as the engines match them (matchedKey): lower case, accents folded, then
 * Snowball's French stem; a query and a text go through the same function here, so what is marked
 * is what the engines match, stop words aside (never marked).
 */

/** Words in a passage; two passages at most, joined by " … ". */
export const SNIPPET_WORDS = 32;
const CONTEXT_BEFORE = 4;
const OPENING_WORDS = 32;
const HEADINGS_OPENING_WORDS = 16;
/** Matches considered per provision: a long text with a common word has hundreds. */
const MAX_MATCHES = 400;

interface Token {
  start: number;
  end: number;
  key: string | null;
}

/** Within a word also: a combining accent, and the characters search drops (matchedKey reads the word as search does). */
const LETTER_OR_DIGIT = /^(?:[\p{L}\p{N}\p{M}\u00ad\u2060\ufeff]|\u200c|\u200d)$/u;

/** The length (1 or 2 code units) of the letter or digit at i, 0 if it is neither (ASCII decided without a regular expression). */
function wordCharacterLength(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code < 128) return (code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 122) ? 1 : 0;
  const point = text.codePointAt(i)!;
  const size = point > 0xffff ? 2 : 1;
  return LETTER_OR_DIGIT.test(String.fromCodePoint(point)) ? size : 0;
}

/**
 * The text's words (runs of letters and digits, as /[\p{L}\p{N}]+/gu finds them), scanned by hand:
 * a search's page is ten texts, some of thousands of words, on the server's event loop.
 */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let start = -1;
  for (let i = 0; i < text.length; ) {
    const size = wordCharacterLength(text, i);
    if (size > 0) {
      if (start < 0) start = i;
      i += size;
      continue;
    }
    if (start >= 0) {
      tokens.push({ start, end: i, key: matchedKey(text.slice(start, i)) });
      start = -1;
    }
    i += text.codePointAt(i)! > 0xffff ? 2 : 1;
  }
  if (start >= 0) tokens.push({ start, end: text.length, key: matchedKey(text.slice(start)) });
  return tokens;
}

/**
 * The query's terms as key sequences: per term, each alternative (a word or a phrase), and a
 * hyphenated word's parts each on its own, as every engine finds them (anywhere in the provision:
 * postgres-engine.ts's withHyphensApart, the index engines' tokenizer).
 */
export function snippetTerms(terms: string[][]): string[][][] {
  return terms.map((alternatives) =>
    alternatives
      .flatMap((alternative) =>
        isHyphenatedWord(alternative)
          ? [alternative, ...hyphensApart(alternative).split(" ")]
          : [alternative],
      )
      .map((alternative) => tokenize(alternative).flatMap((t) => (t.key === null ? [] : [t.key])))
      .filter((keys) => keys.length > 0),
  );
}

/** A search's terms as keys, once per search: its hits are given the same terms array. */
const queries = new WeakMap<string[][], string[][][]>();
function keysOfQuery(terms: string[][]): string[][][] {
  let keys = queries.get(terms);
  if (!keys) {
    keys = snippetTerms(terms);
    queries.set(terms, keys);
  }
  return keys;
}

interface Marked {
  tokens: Token[];
  /** Token indexes to mark. */
  marked: Set<number>;
  /** Each match: the token where it starts and the query term it belongs to. */
  matches: Array<{ at: number; term: number }>;
}

/** Finds each alternative where its words follow one another (stop words between are skipped). */
function mark(text: string, terms: string[][][]): Marked {
  const tokens = tokenize(text);
  const content: number[] = [];
  for (let i = 0; i < tokens.length; i += 1) if (tokens[i]!.key !== null) content.push(i);
  const byFirst = alternativesByFirstKey(terms);
  const marked = new Set<number>();
  const matches: Marked["matches"] = [];
  for (let c = 0; c < content.length && matches.length < MAX_MATCHES; c += 1) {
    const candidates = byFirst.get(tokens[content[c]!]!.key!);
    if (!candidates) continue;
    let lastTerm = -1;
    for (const { term, keys } of candidates) {
      if (term === lastTerm || c + keys.length > content.length) continue;
      if (!keys.every((key, k) => tokens[content[c + k]!]!.key === key)) continue;
      for (let k = 0; k < keys.length; k += 1) marked.add(content[c + k]!);
      matches.push({ at: content[c]!, term });
      lastTerm = term;
    }
  }
  return { tokens, marked, matches };
}

/**
 * A query's alternatives by their first word, in term order: a token is compared with those
 * starting with it only. Made once per query (its hits share the keys array).
 */
const firstKeys = new WeakMap<string[][][], Map<string, Array<{ term: number; keys: string[] }>>>();
function alternativesByFirstKey(terms: string[][][]) {
  let byFirst = firstKeys.get(terms);
  if (!byFirst) {
    byFirst = new Map();
    for (const [term, alternatives] of terms.entries())
      for (const keys of alternatives) {
        const list = byFirst.get(keys[0]!) ?? [];
        list.push({ term, keys });
        byFirst.set(keys[0]!, list);
      }
    firstKeys.set(terms, byFirst);
  }
  return byFirst;
}

/** Tokens [from, to] of the text, marks in place, an ellipsis on each side where the text goes on. */
function render(text: string, { tokens, marked }: Marked, from: number, to: number): string {
  let out = "";
  let at = tokens[from]!.start;
  for (let i = from; i <= to; i += 1) {
    const token = tokens[i]!;
    out += text.slice(at, token.start);
    const word = text.slice(token.start, token.end);
    out += marked.has(i) ? `<mark>${word}</mark>` : word;
    at = token.end;
  }
  // Closing punctuation right after the last word belongs to it ("mois." "L. 1234-5)").
  const tail = /^[.,;:!?)»"]+/.exec(text.slice(at));
  if (tail) out += tail[0];
  out = out.replace(/\s+/g, " ").trim();
  return `${from > 0 ? "… " : ""}${out}${to < tokens.length - 1 ? " …" : ""}`;
}

/**
 * The window of SNIPPET_WORDS tokens, starting a little before a match, showing the most terms
 * not in `seen`, then the most distinct terms, then the most matches; the earliest of equals.
 * Matches are in text order: the window slides over them (two pointers, counts per term).
 */
function bestWindow(found: Marked, exclude?: { from: number; to: number }, seen = new Set<number>()) {
  const { matches, tokens } = found;
  let best: { from: number; to: number; distinct: number; count: number; novel: number } | undefined;
  const counts = new Map<number, number>();
  let distinct = 0;
  let novel = 0;
  let end = 0;
  let begin = 0;
  for (const start of matches) {
    const from = Math.max(0, start.at - CONTEXT_BEFORE);
    const to = Math.min(tokens.length - 1, from + SNIPPET_WORDS - 1);
    while (end < matches.length && matches[end]!.at <= to) {
      const term = matches[end]!.term;
      const n = counts.get(term) ?? 0;
      if (n === 0) {
        distinct += 1;
        if (!seen.has(term)) novel += 1;
      }
      counts.set(term, n + 1);
      end += 1;
    }
    while (begin < end && matches[begin]!.at < from) {
      const term = matches[begin]!.term;
      const n = counts.get(term)! - 1;
      counts.set(term, n);
      if (n === 0) {
        distinct -= 1;
        if (!seen.has(term)) novel -= 1;
      }
      begin += 1;
    }
    if (exclude && from <= exclude.to && to >= exclude.from) continue;
    const candidate = { from, to, distinct, count: end - begin, novel };
    if (
      !best ||
      candidate.novel > best.novel ||
      (candidate.novel === best.novel &&
        (candidate.distinct > best.distinct ||
          (candidate.distinct === best.distinct && candidate.count > best.count)))
    )
      best = candidate;
  }
  return best;
}

/** The text's first words, with an ellipsis if it goes on. */
function opening(text: string, words: number): string {
  const found: Marked = { tokens: tokenize(text), marked: new Set(), matches: [] };
  if (found.tokens.length === 0) return text.trim();
  return render(text, found, 0, Math.min(words, found.tokens.length) - 1);
}

/**
 * The snippet of one hit: `terms` are the query's terms as queryTerms() gives them (each a list of
 * alternatives).
 */
export function buildSnippet(text: string, headings: string[], terms: string[][]): string {
  const keys = keysOfQuery(terms);
  const found = mark(text, keys);
  const first = bestWindow(found);
  if (first) {
    const seen = new Set(
      found.matches.filter((m) => m.at >= first.from && m.at <= first.to).map((m) => m.term),
    );
    const second = bestWindow(found, first, seen);
    // A second passage only for terms the first does not show.
    const passages = second && second.novel > 0 ? [first, second].sort((a, b) => a.from - b.from) : [first];
    return passages
      .map((p) => render(text, found, p.from, p.to))
      .join(" ")
      .replace(/ … … /g, " … ");
  }
  const matchedHeadings = headings
    .map((heading) => ({ heading, found: mark(heading, keys) }))
    .filter((h) => h.found.marked.size > 0)
    .map((h) => render(h.heading, { ...h.found, tokens: h.found.tokens }, 0, h.found.tokens.length - 1));
  if (matchedHeadings.length > 0) {
    return `${matchedHeadings.join(" › ")} — ${opening(text, HEADINGS_OPENING_WORDS)}`;
  }
  return opening(text, OPENING_WORDS);
}

import { keyTerms, splitSentences, stem } from "./text.ts";

/**
 * The extractive composer: the answer is made of sentences taken verbatim from the retrieved
 * provisions, each citing the provision it comes from. No model, no network; every sentence can
 * be checked word for word against its source. Pure.
 */

export interface Source {
  publicId: string;
  text: string;
}

export interface AnswerSentence {
  text: string;
  citations: string[];
}

export interface Composition {
  sentences: AnswerSentence[];
  /** Insufficient: no retrieved provision speaks to enough of the question. */
  evidence: "sufficient" | "insufficient";
  /** Share of the question's weighted terms the answer covers, 0–1. */
  coverage: number;
}

/** A sentence must cover this share of the question's weighted terms to be part of an answer. */
export const MIN_SENTENCE_COVERAGE = 0.34;
/** The answer as a whole must cover this share, or the evidence is insufficient. */
export const MIN_ANSWER_COVERAGE = 0.5;

interface Candidate {
  source: number;
  position: number;
  text: string;
  terms: Set<string>;
  score: number;
  coverage: number;
}

const wordsOf = (text: string) =>
  new Set(
    text
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean)
      .map(stem),
  );

export function composeExtractive(question: string, sources: Source[], maxSentences: number): Composition {
  const questionTerms = keyTerms(question);
  if (questionTerms.length === 0 || sources.length === 0)
    return { sentences: [], evidence: "insufficient", coverage: 0 };

  const candidates: Candidate[] = sources.flatMap((source, i) =>
    splitSentences(source.text).map((text, position) => ({
      source: i,
      position,
      text,
      terms: new Set([...wordsOf(text)].filter((t) => questionTerms.includes(t))),
      score: 0,
      coverage: 0,
    })),
  );
  // Rare terms among the candidates say more about what the question asks than common ones.
  const weight = new Map(
    questionTerms.map((term) => {
      const df = candidates.filter((c) => c.terms.has(term)).length;
      return [term, 1 + Math.log((candidates.length + 1) / (df + 1))];
    }),
  );
  const total = questionTerms.reduce((sum, term) => sum + weight.get(term)!, 0);
  const covered = (terms: Iterable<string>) =>
    [...terms].reduce((sum, t) => sum + (weight.get(t) ?? 0), 0) / total;
  for (const c of candidates) {
    c.coverage = covered(c.terms);
    const words = c.text.split(/\s+/).length;
    // Coverage first; long sentences pay a little; better-ranked provisions earn a little.
    c.score = c.coverage / Math.sqrt(Math.max(1, words / 25)) + 0.1 / (1 + c.source);
  }

  const chosen: Candidate[] = [];
  const perSource = new Map<number, number>();
  for (const c of [...candidates].sort((a, b) => b.score - a.score)) {
    if (chosen.length >= maxSentences) break;
    if (c.coverage < MIN_SENTENCE_COVERAGE) continue;
    if ((perSource.get(c.source) ?? 0) >= 2) continue;
    if (chosen.some((x) => x.text === c.text)) continue;
    chosen.push(c);
    perSource.set(c.source, (perSource.get(c.source) ?? 0) + 1);
  }
  const coverage = covered(new Set(chosen.flatMap((c) => [...c.terms])));
  if (chosen.length === 0 || coverage < MIN_ANSWER_COVERAGE)
    return { sentences: [], evidence: "insufficient", coverage };
  chosen.sort((a, b) => a.source - b.source || a.position - b.position);
  return {
    sentences: chosen.map((c) => ({ text: c.text, citations: [sources[c.source]!.publicId] })),
    evidence: "sufficient",
    coverage,
  };
}

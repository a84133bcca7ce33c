import os from "node:os";
import { benchSourceName, resolveBenchSnapshot } from "./bench-source.ts";
import { differingTables, type Fingerprint, SEARCH_VECTORS } from "./fingerprint.ts";
import { formatPhases, formatTable, formatTargets, summarise } from "./report.ts";
import { describeServer, freshTarget } from "./targets.ts";
import { type RunResult, runInWorker, VARIANTS, type Variant } from "./variants.ts";

/**
 * npm run bench:ingest — the full ingest of the installed LEGI codes (BENCH_SOURCE=kali: every
 * collective agreement of a KALI snapshot, test/bench/bench-source.ts) on embedded PGlite and on
 * server Postgres, beside the raw floor measured in the same run (same files, same rows, one COPY
 * per table). Each run gets a fresh store and its own process. BENCH_RUNS sets the repetitions
 * (default 3); medians and ratios are reported because the machines we run on are noisy.
 * Exit code 0 whether or not the targets are met; non-zero only if the benchmark cannot run or
 * cannot be trusted (the variants did not store identical rows).
 */

const runs = Number.parseInt(process.env.BENCH_RUNS ?? "3", 10);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`BENCH_RUNS must be a positive integer, got ${JSON.stringify(process.env.BENCH_RUNS)}`);
  process.exit(2);
}

const source = await resolveBenchSnapshot(benchSourceName());
console.log(
  `Ingest benchmark: ${source.label} (${source.documents} ${source.name === "kali" ? "agreements" : "codes"}), ${runs} run(s) per variant, ` +
    `${os.cpus().length} CPU(s), Node ${process.version}, server ${describeServer()}.`,
);

const results = new Map<Variant, RunResult[]>(VARIANTS.map((v) => [v, []]));
const fingerprints = new Map<Variant, Fingerprint>();

// Round robin (every variant once, then again): a slow spell on a noisy machine hits all of them.
for (let run = 1; run <= runs; run += 1) {
  for (const variant of VARIANTS) {
    const target = await freshTarget(variant.database);
    try {
      const result = await runInWorker(variant, target.env);
      results.get(variant)!.push(result);
      console.log(
        `  run ${run}/${runs}  ${variant.label.padEnd(17)} ${result.seconds.toFixed(2).padStart(7)} s` +
          `  ${result.provisions} provisions  peak RSS ${Math.round(result.peakRssBytes / 1024 ** 2)} MB`,
      );
      // What was stored is the same every run; checking the first is enough.
      if (run === 1) fingerprints.set(variant, await target.fingerprint());
    } finally {
      await target.dispose();
    }
  }
}

const summaries = VARIANTS.map((v) => summarise(v, results.get(v)!));
const date = new Date().toISOString().slice(0, 10);
console.log(`\nMedians of ${runs} run(s), ${date} (MB = 2^20 bytes; peak RSS = highest of the runs):\n`);
console.log(formatTable(summaries));
console.log("");
for (const line of formatPhases(summaries)) console.log(line);

// The comparison only means something if every variant stored exactly the same rows: each floor
// what the ingest stored on its database, and both databases the same columns, search vectors
// included (migration 025 reads the characters PGlite and a server read differently one way).
const [reference, ...others] = VARIANTS;
const ingestOn = (database: string) =>
  VARIANTS.find((v) => v.method === "ingest" && v.database === database)!;
const mismatches = others.flatMap((v) => {
  const against = v.method === "floor" ? ingestOn(v.database) : reference!;
  const tables = differingTables(fingerprints.get(against)!, fingerprints.get(v)!);
  return tables.length ? [`${v.label} differs from ${against.label} in ${tables.join(", ")}`] : [];
});
const stored = fingerprints.get(reference!)!;
if (mismatches.length === 0) {
  const counts = Object.entries(stored)
    .filter(([table]) => table !== SEARCH_VECTORS)
    .map(([table, { rows }]) => `${table} ${rows}`);
  console.log(`Rows check: all variants stored identical rows and search vectors (${counts.join(", ")}).`);
} else {
  for (const line of mismatches) console.log(`Rows check FAILED: ${line}`);
  console.log(
    "The variants did not store the same rows, so the ratios mean nothing: bring test/bench/floor-rows.ts " +
      "in step with what ingest/pipeline/persist.ts writes (or, for search vectors, find the character " +
      "PGlite and the server read otherwise and add it to corpus_search_text).",
  );
}

console.log("\nTargets:");
for (const line of formatTargets(summaries)) console.log(`  ${line}`);
process.exitCode = mismatches.length === 0 ? 0 : 1;

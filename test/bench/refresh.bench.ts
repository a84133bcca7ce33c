import os from "node:os";
import { ingestLegi } from "../../ingest/load.ts";
import { parseConfig } from "../../services/core/config.ts";
import { openStore } from "../../services/store/open.ts";
import { refreshSearchAuthority } from "../../services/store/search-authority.ts";
import { analyzeSearchTables } from "../../services/store/search-statistics.ts";
import { ingestInline, lawOf } from "../helpers/inline-acts.ts";
import { positiveInteger } from "./bench-options.ts";
import { describeServer, freshTarget } from "./targets.ts";

/**
 * npm run bench:refresh — what the search priors' refresh (refreshSearchAuthority, after every
 * ingest run) costs on the installed LEGI codes, on embedded PGlite and on server Postgres, as a
 * run pays it depending on the documents written since the last refresh (search_priors_pending,
 * migration 032), listed here by hand before each refresh:
 *   every document  what every run paid before migration 032, and still the baseline: the
 *                   citation counts, the openers and the division names over the whole store;
 *   largest code    a run that rewrote the largest code (the Code du travail): its openers and
 *                   names only, the counts over the whole store;
 *   no code         a run that wrote none of the codes (a small act of an editor, or nothing
 *                   changed): the counts alone, and the openers of no document.
 * The variants alternate, BENCH_RUNS rounds (default 5); medians, and each as a ratio of the
 * baseline measured in the same rounds. Each refresh must write nothing (the store is consistent
 * after its ingest): one that does ends the benchmark with exit code 1, its figure meaning nothing.
 *
 * Then an editor's act of five articles, a whole ingest run on the loaded store, alternating with
 * the same run followed by the VACUUM (ANALYZE) that every run ended with before migration 033
 * (the baseline): the run now keeps the planner's statistics, the runs since their last refresh
 * having written far less than a tenth of the store. A run that refreshed them anyway ends the
 * benchmark with exit code 1. Each round's act rewords the five articles, so each run writes them.
 */

const runs = positiveInteger("BENCH_RUNS", 5);
console.log(
  `Priors' refresh benchmark: installed @socialgouv/legi-data, ${runs} round(s), ${os.cpus().length} CPU(s), ` +
    `Node ${process.version}, server ${describeServer()}.`,
);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const rows: string[][] = [];
const actRows: string[][] = [];
for (const database of ["pglite", "pg"] as const) {
  const target = await freshTarget(database);
  try {
    const config = parseConfig({
      ...target.env,
      DATABASE_URL: target.env.DATABASE_URL || undefined,
      LOG_LEVEL: "silent",
    });
    const db = await openStore(config);
    try {
      const loaded = await ingestLegi(db, config, {});
      const { rows: largest } = await db.query<{ id: number; public_id: string; n: number }>(
        `SELECT d.id, d.public_id, count(*)::int AS n FROM documents d JOIN provisions p ON p.document_id = d.id
         GROUP BY d.id ORDER BY n DESC LIMIT 1`,
      );
      const { rows: every } = await db.query<{ id: number }>("SELECT id FROM documents");
      const variants: Array<[string, number[]]> = [
        ["every document", every.map((r) => r.id)],
        [`largest code (${largest[0]!.public_id}, ${largest[0]!.n} provisions)`, [largest[0]!.id]],
        ["no code", []],
      ];
      console.log(
        `  ${database}: ${loaded.provisions.total} provisions loaded in ${loaded.seconds.toFixed(1)} s`,
      );
      const times = new Map<string, number[]>(variants.map(([name]) => [name, []]));
      for (let round = 1; round <= runs; round += 1)
        for (const [name, documents] of variants) {
          let ms = 0;
          const written = await db.transaction(async (tx) => {
            await tx.query(
              "INSERT INTO search_priors_pending (document_id) SELECT unnest($1::int[]) ON CONFLICT DO NOTHING",
              [documents],
            );
            const started = performance.now();
            const ids = await refreshSearchAuthority(tx, false);
            ms = performance.now() - started;
            return ids;
          });
          if (written.length > 0) {
            console.error(
              `${name} on ${database} wrote ${written.length} provisions: the store was not consistent`,
            );
            process.exit(1);
          }
          times.get(name)!.push(ms);
          console.log(`  round ${round}/${runs}  ${database.padEnd(6)}  ${name}: ${ms.toFixed(0)} ms`);
        }
      const baseline = median(times.get("every document")!);
      for (const [name] of variants) {
        const ms = median(times.get(name)!);
        rows.push([
          database === "pg" ? "Postgres" : "PGlite",
          name,
          ms.toFixed(0),
          `${(ms / baseline).toFixed(2)}×`,
        ]);
      }

      // An editor's act, as it runs now and as it ran when every run analysed the store.
      const act = (round: number) =>
        lawOf(
          "BENCH-ACT",
          "loi-bench-acte",
          "Loi d'essai du banc",
          Array.from({ length: 5 }, (_, i) => [
            String(i + 1),
            `L'article ${i + 1} dispose, au tour ${round}.`,
          ]),
        );
      const actTimes = { now: [] as number[], analysed: [] as number[] };
      let wording = 0;
      for (let round = 1; round <= runs; round += 1)
        for (const variant of ["analysed", "now"] as const) {
          wording += 1;
          const started = performance.now();
          const summary = await ingestInline(db, [act(wording)]);
          if (variant === "analysed") await analyzeSearchTables(db);
          const ms = performance.now() - started;
          if (variant === "now" && summary.statisticsRefreshed) {
            console.error(
              `the editor's act on ${database} refreshed the statistics: the store was not as loaded`,
            );
            process.exit(1);
          }
          actTimes[variant].push(ms);
          console.log(
            `  round ${round}/${runs}  ${database.padEnd(6)}  editor's act, ${variant}: ${ms.toFixed(0)} ms`,
          );
        }
      const before = median(actTimes.analysed);
      for (const [label, values] of [
        ["with VACUUM (ANALYZE), as every run before migration 033", actTimes.analysed],
        ["statistics kept (migration 033)", actTimes.now],
      ] as const)
        actRows.push([
          database === "pg" ? "Postgres" : "PGlite",
          label,
          median(values).toFixed(0),
          `${(median(values) / before).toFixed(2)}×`,
        ]);
    } finally {
      await db.close();
    }
  } finally {
    await target.dispose();
  }
}

console.log(`\nMedians of ${runs} round(s), ${new Date().toISOString().slice(0, 10)}:\n`);
console.log("| store | the run wrote | refresh (ms) | × every document |");
console.log("| ----- | ------------- | ------------ | ---------------- |");
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
console.log(`\nAn editor's act of five articles, the whole run, medians of ${runs} round(s):\n`);
console.log("| store | the run ends | run (ms) | × with VACUUM (ANALYZE) |");
console.log("| ----- | ------------ | -------- | ----------------------- |");
for (const row of actRows) console.log(`| ${row.join(" | ")} |`);

import os from "node:os";
import path from "node:path";
import { ingestLegi } from "../../ingest/load.ts";
import type { IngestSummary } from "../../ingest/pipeline/ingest.ts";
import { resolveLegiSnapshot } from "../../ingest/sources/legi/snapshot.ts";
import { parseConfig } from "../../services/core/config.ts";
import { withChangesDelivered } from "../../services/jobs/change-log-job.ts";
import { openStore } from "../../services/store/open.ts";
import { SNAPSHOT_CACHE } from "../helpers/corpus.ts";
import { describeServer, freshTarget } from "./targets.ts";

/**
 * npm run bench:reingest — what a newer snapshot costs over an older one, beside a full ingest
 * from empty, in the same run, on embedded PGlite and on server Postgres:
 *   full     the newer snapshot (the installed @socialgouv/legi-data) into an empty store;
 *   reingest the newer snapshot over 2.229.0 (February 2023), change log included;
 *   same     the newer snapshot again, over itself: nothing changed, the fixed cost of reading.
 * Proportional cost means reingest ≈ same + (share of provisions changed) × (full − same).
 * BENCH_RUNS sets the repetitions (default 3); medians are reported.
 */

const runs = Number.parseInt(process.env.BENCH_RUNS ?? "3", 10);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`BENCH_RUNS must be a positive integer, got ${JSON.stringify(process.env.BENCH_RUNS)}`);
  process.exit(2);
}
const OLDER = "2.229.0";

const older = await resolveLegiSnapshot({ version: OLDER, cacheDir: SNAPSHOT_CACHE });
const newer = await resolveLegiSnapshot({ cacheDir: SNAPSHOT_CACHE });
console.log(
  `Re-ingest benchmark: ${newer.label} over ${older.label}, ${runs} run(s), ${os.cpus().length} CPU(s), ` +
    `Node ${process.version}, server ${describeServer()}.`,
);

interface Run {
  full: number;
  reingest: number;
  same: number;
  touched: number;
  total: number;
  changes: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function timed(
  target: Awaited<ReturnType<typeof freshTarget>>,
  load: Array<{ dir: string; timed: boolean }>,
): Promise<{ seconds: number; summary: IngestSummary; changes: number }> {
  const config = parseConfig({
    ...target.env,
    DATABASE_URL: target.env.DATABASE_URL || undefined,
    LOG_LEVEL: "silent",
  });
  const db = await openStore(config);
  try {
    let seconds = 0;
    let summary: IngestSummary | undefined;
    for (const step of load) {
      const started = performance.now();
      summary = await withChangesDelivered(db, config, () => ingestLegi(db, config, { path: step.dir }));
      if (step.timed) seconds += (performance.now() - started) / 1000;
    }
    const { rows } = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM change_log WHERE run_id = $1",
      [summary!.runId],
    );
    return { seconds, summary: summary!, changes: rows[0]!.n };
  } finally {
    await db.close();
  }
}

const dir = (snapshot: typeof older) => path.dirname(snapshot.dataDir);
const results = new Map<string, Run[]>([
  ["pglite", []],
  ["pg", []],
]);

for (let run = 1; run <= runs; run += 1) {
  for (const database of ["pglite", "pg"] as const) {
    const fullTarget = await freshTarget(database);
    const reTarget = await freshTarget(database);
    try {
      const full = await timed(fullTarget, [{ dir: dir(newer), timed: true }]);
      const re = await timed(reTarget, [
        { dir: dir(older), timed: false },
        { dir: dir(newer), timed: true },
      ]);
      const same = await timed(reTarget, [{ dir: dir(newer), timed: true }]);
      const p = re.summary.provisions;
      const result: Run = {
        full: full.seconds,
        reingest: re.seconds,
        same: same.seconds,
        touched: p.added + p.changed + p.absent,
        total: p.total,
        changes: re.changes,
      };
      results.get(database)!.push(result);
      console.log(
        `  run ${run}/${runs}  ${database.padEnd(6)}  full ${full.seconds.toFixed(2)} s  reingest ${re.seconds.toFixed(2)} s` +
          `  same ${same.seconds.toFixed(2)} s  (${result.touched}/${result.total} provisions touched, ${re.changes} changes recorded)`,
      );
    } finally {
      await fullTarget.dispose();
      await reTarget.dispose();
    }
  }
}

console.log(`\nMedians of ${runs} run(s), ${new Date().toISOString().slice(0, 10)}:\n`);
console.log(
  "store     full (s)  reingest (s)  same (s)  touched  reingest/full  expected if proportional  reingest/expected",
);
for (const [database, rs] of results) {
  const full = median(rs.map((r) => r.full));
  const reingest = median(rs.map((r) => r.reingest));
  const same = median(rs.map((r) => r.same));
  const share = rs[0]!.touched / rs[0]!.total;
  const expected = same + share * (full - same);
  console.log(
    [
      (database === "pg" ? "Postgres" : "PGlite").padEnd(8),
      full.toFixed(2).padStart(9),
      reingest.toFixed(2).padStart(13),
      same.toFixed(2).padStart(9),
      `${(share * 100).toFixed(0)}%`.padStart(8),
      `${(reingest / full).toFixed(2)}x`.padStart(14),
      `${expected.toFixed(2)} s`.padStart(25),
      `${(reingest / expected).toFixed(2)}x`.padStart(18),
    ].join(" "),
  );
}
console.log(
  "\n'touched': provisions added, changed (text, HTML, notes, versions, links or place) or gone in the newer snapshot." +
    "\n'expected if proportional': same + touched share × (full − same).",
);

import path from "node:path";
import { ingestKali, ingestLegi } from "../../ingest/load.ts";
import { loadDomainRules } from "../../services/core/classify.ts";
import { type Config, parseConfig } from "../../services/core/config.ts";
import { withChangesDelivered } from "../../services/jobs/change-log-job.ts";
import { embeddedDataDir } from "../../services/store/database.ts";
import { openStore } from "../../services/store/open.ts";
import { benchCorpus, benchDocuments, benchSourceName, resolveBenchSnapshot } from "./bench-source.ts";
import { connectEmbedded, connectServer } from "./floor-load.ts";
import { buildFloorTables } from "./floor-rows.ts";
import { RESULT_MARKER, type RunResult } from "./variants.ts";

/**
 * One measured run, in a process of its own (started by variants.ts). Usage:
 *   node --import tsx test/bench/worker.ts ingest|floor
 * with DATA_DIR (and DATABASE_URL for server Postgres) naming a fresh, migrated store.
 * Opening the store is outside the timed part for both methods, so only the load is compared.
 */

type Measured = Omit<RunResult, "peakRssBytes">;

const secondsSince = (start: number) => (performance.now() - start) / 1000;

/**
 * The code path of `corpus ingest legi` on the installed @socialgouv/legi-data, and/or of
 * `corpus ingest kali --path …` on the snapshot the benchmark fetched (BENCH_SOURCE).
 */
async function runIngest(config: Config): Promise<Measured> {
  const db = await openStore(config);
  try {
    const start = performance.now();
    const corpus = benchCorpus();
    let provisions = 0;
    if (corpus !== "kali") {
      const legi = await withChangesDelivered(db, config, () => ingestLegi(db, config, {}));
      provisions += legi.provisions.total;
    }
    if (corpus !== "legi") {
      const kaliPath = path.dirname((await resolveBenchSnapshot("kali")).snapshot.dataDir);
      const kali = await withChangesDelivered(db, config, () => ingestKali(db, config, { path: kaliPath }));
      provisions += kali.provisions.total;
    }
    return { seconds: secondsSince(start), provisions, phases: {} };
  } finally {
    await db.close();
  }
}

/** Parse the same files, build the same rows, then one transaction with one COPY per table. */
async function runFloor(config: Config): Promise<Measured> {
  const connection = config.DATABASE_URL
    ? await connectServer(config.DATABASE_URL)
    : await connectEmbedded(embeddedDataDir(config.DATA_DIR));
  try {
    const start = performance.now();
    // Rules and snapshot are resolved inside the timed part, as ingestLegi does.
    const rules = loadDomainRules(config.DOMAIN_RULES);
    const source = await resolveBenchSnapshot(benchSourceName());
    await connection.begin();
    const runId = await connection.startRun(source.name, source.label, rules.hash, source.documents);
    const tables = buildFloorTables(benchDocuments(source), rules, runId);
    const built = performance.now();
    // Parents before children: the foreign keys are checked row by row, as during ingest.
    for (const table of [tables.documents, tables.sections, tables.provisions, tables.versions, tables.links])
      await connection.copy(table);
    const copied = performance.now();
    // The names of the divisions each article opens are part of its row (migration 029): the
    // ingest writes them after its run, from the rows as stored; so does the floor.
    await connection.exec("SELECT count(*) FROM corpus_write_opened_divisions()");
    await connection.commit();
    return {
      seconds: secondsSince(start),
      provisions: tables.provisions.rows,
      phases: {
        "parse + build rows": (built - start) / 1000,
        COPY: (copied - built) / 1000,
        "division names + commit": secondsSince(copied),
      },
    };
  } finally {
    await connection.close();
  }
}

const method = process.argv[2];
if (method !== "ingest" && method !== "floor") {
  console.error("usage: worker.ts ingest|floor (with DATA_DIR, and DATABASE_URL for server Postgres)");
  process.exit(2);
}
const config = parseConfig(process.env);
const measured = method === "ingest" ? await runIngest(config) : await runFloor(config);
// Read last: maxRSS is the high-water mark of the whole process life, closing included.
const result: RunResult = { ...measured, peakRssBytes: process.resourceUsage().maxRSS * 1024 };
process.stdout.write(`${RESULT_MARKER}${JSON.stringify(result)}\n`);

import { randomBytes } from "node:crypto";
import os from "node:os";
import { describeCorpus } from "./bench-source.ts";
import { findEnginePid, measureCpu } from "./index-cpu.ts";
import {
  formatIndexCpu,
  formatIndexPhases,
  formatIndexTable,
  formatIndexTarget,
  LABELS,
  summariseIndex,
} from "./index-report.ts";
import { Cleanups, prepareIndexBench } from "./index-setup.ts";
import { BATCH, call, type IndexRun, type Method, readDocuments, runOurs, runRaw } from "./index-variants.ts";
import { describeServer } from "./targets.ts";

/**
 * npm run bench:index — indexing the full corpus into OpenSearch through our code path
 * (rebuildIndex: Postgres read page by page, documents built, _bulk batches, refresh, alias swap)
 * beside a raw _bulk of the same documents, already in memory, measured in the same run. One
 * OpenSearch node (Maven Central jars, 1 GB heap) and one Postgres database holding the corpus
 * serve every run; each run writes a new index and deletes it afterwards. BENCH_RUNS sets the
 * repetitions (default 3); medians and ratios are reported because the machines are noisy.
 * Exit code 0 whether or not the target is met; non-zero only if the benchmark cannot run or
 * cannot be trusted (the indexes do not hold every provision).
 */

const runs = Number.parseInt(process.env.BENCH_RUNS ?? "3", 10);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`BENCH_RUNS must be a positive integer, got ${JSON.stringify(process.env.BENCH_RUNS)}`);
  process.exit(2);
}

const METHODS: Method[] = ["ours", "raw"];
const tag = randomBytes(4).toString("hex");
const cleanups = new Cleanups();

// Ctrl-C or a kill still stops the node and drops the database.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping OpenSearch and dropping the database…`);
    void cleanups.run().finally(() => process.exit(130));
  });
}

function describeRun(run: IndexRun): string {
  const phases = Object.entries(run.phases)
    .map(([phase, s]) => `${phase} ${s.toFixed(2)}`)
    .join(", ");
  const cpu = run.cpu
    ? `  CPU s Node ${run.cpu.node.toFixed(2)} OpenSearch ${run.cpu.openSearch.toFixed(1)} Postgres ` +
      `${run.cpu.postgres.toFixed(2)}, others ${Math.round(run.cpu.othersShare * 100)}%`
    : "";
  return `${run.seconds.toFixed(2).padStart(6)} s  ${run.indexed} docs${cpu}\n${" ".repeat(12)}(${phases})`;
}

try {
  console.log(
    `Indexing benchmark: ${runs} run(s) per variant, _bulk batches of ${BATCH}, ${os.cpus().length} CPU(s), ` +
      `Node ${process.version}, server ${describeServer()}.`,
  );
  console.log("Setting up: starting OpenSearch and loading the corpus into a temporary database…");
  const setup = await prepareIndexBench(cleanups);
  const { db, openSearchUrl: node } = setup;
  const version = ((await call(node, "GET")) as { version: { number: string } }).version.number;
  const { rows } = await db.query<{ n: number; v: string }>(
    "SELECT count(*)::int AS n, current_setting('server_version') AS v FROM provisions",
  );
  const provisions = rows[0]!.n;
  console.log(
    `  OpenSearch ${version} at ${node} (1 GB heap, up in ${setup.openSearchSeconds.toFixed(0)} s); ` +
      `Postgres ${rows[0]!.v}: ${provisions} provisions (${describeCorpus()}) loaded by the ingest in ${setup.loadSeconds.toFixed(1)} s.`,
  );

  // The raw variant's documents, read and built before any timing (the read is timed here, for reference).
  const readStart = performance.now();
  const documents = await readDocuments(db);
  const readSeconds = (performance.now() - readStart) / 1000;
  const ndjsonBytes = documents.reduce(
    (sum, doc) => sum + Buffer.byteLength(JSON.stringify(doc)) + 80, // + the action line, about 80 bytes
    0,
  );
  console.log(
    `  ${documents.length} documents read with provisionsForIndex (JSON built by Postgres) in ${readSeconds.toFixed(2)} s ` +
      `(outside the timing), about ${(ndjsonBytes / 1024 ** 2).toFixed(0)} MB of NDJSON.`,
  );

  const enginePid = findEnginePid(Number(new URL(node).port));
  const database = new URL(setup.env.DATABASE_URL).pathname.slice(1);
  const cpuWindow = () => measureCpu({ enginePid, database });
  const runOnce = (method: Method, label: string) =>
    method === "ours"
      ? runOurs(db, setup.env, node, `lc-bench-${tag}-${label}`, cpuWindow)
      : runRaw(documents, node, `lc-bench-${tag}-raw-${label}`, cpuWindow);

  // One untimed pass of each variant first, so that neither pays the JVM's warm-up (JIT, first segments).
  for (const method of METHODS) {
    const warm = await runOnce(method, "warmup");
    console.log(`  warm-up   ${LABELS[method].padEnd(20)} ${describeRun(warm)}`);
  }

  const results = new Map<Method, IndexRun[]>(METHODS.map((m) => [m, []]));
  // Round robin (every variant once, then again): a slow spell on a noisy machine hits both. The
  // order flips every run, so neither variant always follows the other's index deletion.
  for (let run = 1; run <= runs; run += 1) {
    for (const method of run % 2 ? METHODS : [...METHODS].reverse()) {
      const result = await runOnce(method, String(run));
      results.get(method)!.push(result);
      console.log(`  run ${run}/${runs}   ${LABELS[method].padEnd(20)} ${describeRun(result)}`);
    }
  }

  const ours = summariseIndex("ours", results.get("ours")!);
  const raw = summariseIndex("raw", results.get("raw")!);
  const date = new Date().toISOString().slice(0, 10);
  console.log(`\nMedians of ${runs} run(s), ${date}, ${provisions} documents:\n`);
  console.log(formatIndexTable(ours, raw));
  console.log("");
  for (const line of formatIndexPhases([ours, raw])) console.log(line);
  for (const line of formatIndexCpu([ours, raw])) console.log(line);

  // The comparison only means something if both indexes hold every provision, once.
  const problems = [...results].flatMap(([method, list]) =>
    list.flatMap((r, i) =>
      r.documents === provisions && r.indexed === provisions
        ? []
        : [`${LABELS[method]}, run ${i + 1}: sent ${r.documents}, index holds ${r.indexed}`],
    ),
  );
  if (documents.length !== provisions) problems.push(`read ${documents.length} documents, not ${provisions}`);
  if (problems.length === 0) {
    console.log(
      `Count check: every run of both variants indexed ${provisions} documents, the provisions count, ` +
        "and the index held as many after refresh.",
    );
  } else {
    for (const line of problems) console.log(`Count check FAILED: ${line} (expected ${provisions})`);
  }

  console.log("\nTarget:");
  console.log(`  ${formatIndexTarget(ours, raw)}`);
  process.exitCode = problems.length === 0 ? 0 : 1;
} catch (error) {
  console.error(error);
  process.exitCode = 2;
} finally {
  await cleanups.run();
}

import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { repoRoot } from "../../services/core/config.ts";

/** What is measured: our ingest or the raw floor, on one kind of database. */
export interface Variant {
  method: "ingest" | "floor";
  database: "pglite" | "pg";
  label: string;
}

export const VARIANTS: Variant[] = [
  { method: "ingest", database: "pglite", label: "ingest, PGlite" },
  { method: "floor", database: "pglite", label: "floor, PGlite" },
  { method: "ingest", database: "pg", label: "ingest, Postgres" },
  { method: "floor", database: "pg", label: "floor, Postgres" },
];

/** One run of one variant, as its worker process reports it. */
export interface RunResult {
  /** Wall time of the load itself: store already open and migrated, process start excluded. */
  seconds: number;
  provisions: number;
  /** process.resourceUsage().maxRSS of the worker at its end, in bytes. */
  peakRssBytes: number;
  /** Where the time went, when the variant can tell (the floor can; the ingest is one call). */
  phases: Record<string, number>;
}

/** The worker prints its result on one line after this marker; anything else on stdout is noise. */
export const RESULT_MARKER = "BENCH_RESULT ";

const workerScript = fileURLToPath(new URL("./worker.ts", import.meta.url));

/**
 * Runs one variant in its own Node process, so that each peak RSS is that variant's alone (a
 * process's maxRSS never goes down, and PGlite's WebAssembly heap never shrinks).
 * `env` points the worker at its fresh store (DATA_DIR, DATABASE_URL).
 */
export function runInWorker(variant: Variant, env: Record<string, string>): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", workerScript, variant.method], {
      cwd: repoRoot,
      env: { ...process.env, LOG_LEVEL: "silent", ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      stdout += text;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const line = stdout.split("\n").find((l) => l.startsWith(RESULT_MARKER));
      if (code !== 0 || !line) {
        reject(new Error(`${variant.label}: worker exited with code ${code}\n${stdout}`));
        return;
      }
      resolve(JSON.parse(line.slice(RESULT_MARKER.length)) as RunResult);
    });
  });
}

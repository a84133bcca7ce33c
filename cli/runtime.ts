import type { UsageLimiter } from "../services/access/rate-limits.ts";
import type { Config } from "../services/core/config.ts";
import type { RunExecutor } from "../services/jobs/ingest-run-job.ts";
import type { Database } from "../services/store/database.ts";

/**
 * What a CLI command runs against. Standalone, the CLI opens the store itself; when a running
 * server holds the embedded store, the server runs the same commands with its own runtime
 * (services/runtime/admin-socket.ts) and streams their output back.
 */
export interface CliRuntime {
  config: Config;
  /** Runs work with the store open, and closes it after if this runtime opened it. */
  withStore<T>(work: (db: Database) => Promise<T>): Promise<T>;
  /** The rate-limit counters, for `corpus usage`. */
  withLimiter<T>(work: (limiter: UsageLimiter) => Promise<T>): Promise<T>;
  key: { hashSecret: () => string };
  /** Who runs submitted ingest runs: null when nothing would (no Redis, no running server). */
  runs: () => Promise<RunExecutor | null>;
  /** Relative paths on the command line are relative to this folder (the caller's). */
  cwd: string;
  out(text: string): void;
  err(text: string): void;
  /** Where progress goes: a terminal gets a bar, anything else one line per step. */
  progress: { write(text: string): unknown; isTTY?: boolean };
}

import { pino } from "pino";
import { runCommand } from "../../cli/run.ts";
import type { CliRuntime } from "../../cli/runtime.ts";
import { keyHashSecret } from "../access/key-hash-secret.ts";
import { config } from "../core/config.ts";
import { queueExecutor, type RunExecutor } from "../jobs/ingest-run-job.ts";
import { queueSettings } from "../jobs/queues.ts";
import type { Database } from "../store/database.ts";
import { openStore } from "../store/open.ts";
import { forwardToServer } from "./admin-client.ts";
import { createLimiter } from "./build-context.ts";

const storeDescription = (kind: "pg" | "pglite", location: string) =>
  kind === "pg" ? `Postgres at ${location}` : `embedded (PGlite) in ${location}`;

/**
 * `npx corpus …` (bin/corpus.js): the commands of cli/ on a runtime of their own. Opens the store itself; when a running server holds the embedded store, the
 * command is handed to that server over its local admin socket and runs there.
 */
function standaloneRuntime(): CliRuntime & { close(): Promise<void> } {
  const cfg = config();
  let db: Promise<Database> | undefined;
  let rateLimits: ReturnType<typeof createLimiter> | undefined;
  let executor: RunExecutor | undefined;
  return {
    config: cfg,
    cwd: process.cwd(),
    withStore: async (work) => {
      if (!db) {
        db = openStore(cfg);
        // Which store, said once: a DATA_DIR or DATABASE_URL other than the server's is the usual
        // reason a key "does not work" (issue 18, item 16).
        const opened = await db.catch(() => undefined);
        if (opened)
          console.error(`store: ${storeDescription(cfg.DATABASE_URL ? "pg" : "pglite", opened.location)}`);
      }
      return work(await db);
    },
    // The counters as the server keeps them; a command waits for Redis, and its output stays
    // the command's (no log lines on stdout).
    withLimiter: async (work) => {
      rateLimits ??= createLimiter(cfg, pino({ level: "silent" }), { failFast: false });
      return work(rateLimits.limiter);
    },
    key: { hashSecret: () => keyHashSecret(cfg) },
    runs: async () => {
      const settings = queueSettings(cfg);
      if (!settings) return null;
      executor ??= queueExecutor(settings);
      return executor;
    },
    out: (text) => console.log(text),
    err: (text) => console.error(text),
    progress: process.stderr,
    close: async () => {
      await executor?.close();
      rateLimits?.close();
      if (db) await (await db.catch(() => undefined))?.close();
    },
  };
}

async function main(argv: string[]): Promise<number> {
  const rt = standaloneRuntime();
  const { code, storeBusy } = await runCommand(argv, rt).finally(() => rt.close());
  if (!storeBusy) return code;
  console.error(
    `store: ${storeDescription("pglite", rt.config.DATA_DIR)}, held by the running server: the command runs there`,
  );
  const forwarded = await forwardToServer(rt.config.DATA_DIR, argv, process.cwd(), (line) => {
    if (line.stream === "out") console.log(line.text);
    else process.stderr.write(line.stream === "progress" ? (line.text ?? "") : `${line.text}\n`);
  });
  if (forwarded !== undefined) return forwarded;
  rt.err(`error: ${storeBusy.message}`);
  return 2;
}

process.exitCode = await main(process.argv.slice(2));

import { keyHashSecret } from "../services/access/key-hash-secret.ts";
import { UsageLimiter } from "../services/access/rate-limits.ts";
import { config } from "../services/core/config.ts";
import { queueExecutor, type RunExecutor } from "../services/jobs/ingest-run-job.ts";
import { queueSettings } from "../services/jobs/queues.ts";
import type { Database } from "../services/store/database.ts";
import { openStore } from "../services/store/open.ts";
import { forwardToServer } from "./admin-client.ts";
import { runCommand } from "./run.ts";
import type { CliRuntime } from "./runtime.ts";

const storeDescription = (kind: "pg" | "pglite", location: string) =>
  kind === "pg" ? `Postgres at ${location}` : `embedded (PGlite) in ${location}`;

/**
 * `npx corpus …`. Opens the store itself; when a running server holds the embedded store, the
 * command is handed to that server over its local admin socket and runs there.
 */
function standaloneRuntime(): CliRuntime & { close(): Promise<void> } {
  const cfg = config();
  let db: Promise<Database> | undefined;
  let redis: import("ioredis").Redis | undefined;
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
    withLimiter: async (work) => {
      if (cfg.REDIS_URL && !redis) {
        const { Redis } = await import("ioredis");
        redis = new Redis(cfg.REDIS_URL, { maxRetriesPerRequest: 1 });
      }
      return work(new UsageLimiter(redis ?? null, undefined, cfg.REDIS_PREFIX));
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
      redis?.disconnect();
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

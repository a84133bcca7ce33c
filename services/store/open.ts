import { mkdirSync } from "node:fs";
import type { Config } from "../core/config.ts";
import { logger } from "../core/logger.ts";
import { type Database, embeddedDataDir, openDatabase } from "./database.ts";
import { migrate } from "./migrate.ts";
import { lockStore, StoreLockedError } from "./store-lock.ts";

export class StoreBusyError extends Error {
  constructor(dataDir: string) {
    super(
      `The embedded store in ${dataDir} is open in another process (PGlite admits one process at a time).\n` +
        "Stop that process and try again (if it was killed, its lock expires within 10 seconds), or set DATABASE_URL\n" +
        "to use a Postgres server that any number of processes can share.",
    );
    this.name = "StoreBusyError";
  }
}

/**
 * Opens the store the configuration names and brings its schema up to date.
 * The embedded store is locked for the life of the process so a second process gets a clear
 * message instead of corrupting the files.
 */
export async function openStore(config: Pick<Config, "DATABASE_URL" | "DATA_DIR">): Promise<Database> {
  if (config.DATABASE_URL) {
    const db = await openDatabase({
      url: config.DATABASE_URL,
      onIdleError: (error) =>
        logger.warn(
          { error: error.message, code: (error as { code?: string }).code },
          "Postgres dropped an idle connection; it will be replaced",
        ),
    });
    await migrate(db);
    return db;
  }
  const dir = embeddedDataDir(config.DATA_DIR);
  mkdirSync(dir, { recursive: true });
  let release: () => Promise<void>;
  try {
    release = await lockStore(dir, (reason) => {
      // Another process may now be writing the same files: stopping is the only safe move.
      logger.fatal({ reason, dir }, "lost the embedded store's lock; stopping");
      process.exit(1);
    });
  } catch (error) {
    if (error instanceof StoreLockedError) throw new StoreBusyError(dir);
    throw error;
  }
  const db = await openDatabase({
    dataDir: dir,
    // Its worker thread died: every statement fails from now on. As with a lost lock, stopping
    // lets whatever supervises the process start it again.
    onEmbeddedStopped: (error) => {
      logger.fatal({ error: error.message, dir }, "the embedded store stopped; stopping");
      process.exit(1);
    },
  });
  await migrate(db);
  const close = db.close.bind(db);
  return Object.assign(db, {
    close: async () => {
      await close();
      await release();
    },
  });
}

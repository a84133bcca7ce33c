import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { redactUrl } from "../../services/core/config.ts";
import type { Database } from "../../services/store/database.ts";
import { openStore } from "../../services/store/open.ts";
import { type Fingerprint, fingerprint } from "./fingerprint.ts";

/**
 * A fresh, migrated store for one run: a temporary DATA_DIR (embedded PGlite lives in it) and, for
 * server Postgres, a temporary database next to it. Every run starts from empty, as a first
 * `corpus ingest legi` does, and nothing is left behind.
 */
export interface BenchTarget {
  /** What the worker needs in its environment to open this store. */
  env: { DATA_DIR: string; DATABASE_URL: string };
  /** What the run stored (read after the worker has exited, so it costs the worker nothing). */
  fingerprint(): Promise<Fingerprint>;
  dispose(): Promise<void>;
}

/** The server on which each run creates (and drops) its own database, as the tests do. */
export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function withStore<T>(env: BenchTarget["env"], work: (db: Database) => Promise<T>): Promise<T> {
  // openStore migrates: the schema is the one `corpus` commands create, indexes and all.
  const db = await openStore({ DATA_DIR: env.DATA_DIR, DATABASE_URL: env.DATABASE_URL || undefined });
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

async function adminQuery(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect().catch((error: Error) => {
    throw new Error(
      `Postgres is not reachable at ${redactUrl(ADMIN_URL)} (${error.message}): start it or set TEST_DATABASE_URL.`,
    );
  });
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

export async function freshTarget(database: "pglite" | "pg"): Promise<BenchTarget> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "lc-bench-"));
  const env = { DATA_DIR: dataDir, DATABASE_URL: "" };
  let databaseName: string | undefined;
  const dispose = async () => {
    if (databaseName) await adminQuery(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    if (database === "pg") {
      const name = `lc_bench_${randomBytes(4).toString("hex")}`;
      await adminQuery(`CREATE DATABASE ${name}`);
      databaseName = name;
      const url = new URL(ADMIN_URL);
      url.pathname = `/${name}`;
      env.DATABASE_URL = url.toString();
    }
    await withStore(env, async () => {});
  } catch (error) {
    await dispose();
    throw error;
  }
  return { env, fingerprint: () => withStore(env, fingerprint), dispose };
}

export function describeServer(): string {
  return redactUrl(ADMIN_URL);
}

import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { PGlite } from "@electric-sql/pglite";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { CopyTable } from "./copy-text.ts";

/**
 * The floor's side of the database: one transaction, one COPY per table. It talks to the driver
 * directly because the store's `Database` interface has no COPY (and should not need one).
 */
export interface FloorConnection {
  begin(): Promise<void>;
  /** The ingest_runs row the loaded rows point at, as the ingest creates one. */
  startRun(source: string, sourceVersion: string, rulesHash: string, documentsTotal: number): Promise<number>;
  copy(table: CopyTable): Promise<void>;
  /** One statement, its result dropped. */
  exec(sql: string): Promise<void>;
  commit(): Promise<void>;
  close(): Promise<void>;
}

const START_RUN = `INSERT INTO ingest_runs (source, source_version, parameters, rules_hash, documents_total)
  VALUES ($1, $2, '{}', $3, $4) RETURNING id`;

/** Encoded one chunk at a time, so the payload is not held twice (as strings and as UTF-8). */
function* asBuffers(chunks: string[]): Generator<Buffer> {
  for (const chunk of chunks) yield Buffer.from(chunk);
}

/** Server Postgres: the rows stream through pg-copy-streams (COPY … FROM STDIN). */
export async function connectServer(url: string): Promise<FloorConnection> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    begin: async () => void (await client.query("BEGIN")),
    startRun: async (...values) => (await client.query<{ id: number }>(START_RUN, values)).rows[0]!.id,
    copy: async (table) => {
      const copy = client.query(copyFrom(table.copySql("STDIN")));
      await pipeline(Readable.from(asBuffers(table.finish())), copy);
    },
    exec: async (sql) => void (await client.query(sql)),
    commit: async () => void (await client.query("COMMIT")),
    close: () => client.end(),
  };
}

/**
 * Embedded PGlite: PGlite has no COPY FROM STDIN, but it serves the `blob` query option as the
 * file /dev/blob, so `COPY … FROM '/dev/blob'` is its one-statement bulk load.
 * Opened with the same options as services/store/database.ts, so its memory is comparable.
 */
export async function connectEmbedded(dataDir: string): Promise<FloorConnection> {
  const db = await PGlite.create({ dataDir, extensions: { unaccent } });
  return {
    begin: async () => void (await db.exec("BEGIN")),
    startRun: async (...values) => (await db.query<{ id: number }>(START_RUN, values)).rows[0]!.id,
    copy: async (table) => {
      await db.query(table.copySql("'/dev/blob'"), [], { blob: new Blob(table.finish()) });
    },
    exec: async (sql) => void (await db.exec(sql)),
    commit: async () => void (await db.exec("COMMIT")),
    close: () => db.close(),
  };
}

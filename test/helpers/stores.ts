import { type Database, openDatabase } from "../../services/store/database.ts";
import { migrate } from "../../services/store/migrate.ts";
import { createTestDatabase } from "./postgres.ts";

/**
 * The two stores every store test runs on: embedded PGlite (in memory) and a real Postgres
 * server (a database of its own, dropped afterwards). The same SQL must pass on both.
 */
export interface TestStore {
  db: Database;
  /** Set for the server store: what a child process (the CLI) connects to. */
  url?: string;
  dispose: () => Promise<void>;
}

export const STORE_KINDS = ["pglite", "postgres"] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

/** `migrateTo` stops the schema at that migration ("024"), for a test that then upgrades it. */
export async function openTestStore(kind: StoreKind, label: string, migrateTo?: string): Promise<TestStore> {
  if (kind === "pglite") {
    const db = await openDatabase({});
    await migrate(db, migrateTo);
    return { db, dispose: () => db.close() };
  }
  const created = await createTestDatabase(label);
  const db = await openDatabase({ url: created.url, poolSize: 4 });
  await migrate(db, migrateTo);
  return {
    db,
    url: created.url,
    dispose: async () => {
      await db.close();
      await created.drop();
    },
  };
}

const CORPUS_TABLES = {
  documents: "public_id",
  sections: "document_id, source_id",
  provisions: "public_id",
  provision_versions: "provision_id, version_id",
  provision_links: "provision_id, position",
} as const;

/** A checksum of every row of every corpus table, timestamps included: equal means untouched. */
export async function corpusChecksum(db: Database): Promise<Record<string, string>> {
  const sums: Record<string, string> = {};
  for (const [table, order] of Object.entries(CORPUS_TABLES)) {
    const { rows } = await db.query<{ sum: string | null }>(
      `SELECT md5(string_agg(t::text, '|' ORDER BY ${order})) AS sum FROM ${table} t`,
    );
    sums[table] = rows[0]?.sum ?? "empty";
  }
  return sums;
}

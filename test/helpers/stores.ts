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

/**
 * `migrateTo` stops the schema at that migration ("024"), for a test that then upgrades it; see
 * asBeforeMigration for what today's ingest finds there.
 */
export async function openTestStore(kind: StoreKind, label: string, migrateTo?: string): Promise<TestStore> {
  if (kind === "pglite") {
    const db = await openDatabase({});
    await migrate(db, migrateTo);
    await asBeforeMigration(db, migrateTo);
    return { db, dispose: () => db.close() };
  }
  const created = await createTestDatabase(label);
  const db = await openDatabase({ url: created.url, poolSize: 4 });
  await migrate(db, migrateTo);
  await asBeforeMigration(db, migrateTo);
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

/**
 * A store is always migrated before it is written (services/store/open.ts), so ingest calls the
 * functions of the latest schema. A test upgrading an older store writes its rows with today's
 * ingest first: the functions ingest calls that its schema lacks are given as that schema read
 * them. The migration creating each one replaces it (CREATE OR REPLACE).
 */
async function asBeforeMigration(db: Database, migrateTo: string | undefined): Promise<void> {
  if (migrateTo === undefined) return;
  if (migrateTo < "028")
    // The openers as migrations 020 and 021 chose them (refreshSearchAuthority read them inline).
    await db.query(`CREATE FUNCTION corpus_section_openers() RETURNS TABLE (provision_id integer) LANGUAGE sql STABLE AS $$
      SELECT id FROM (
        SELECT DISTINCT ON (document_id, section_source_id) id, section_path FROM provisions
        WHERE present_in_source AND status = 'in_force' AND NOT corpus_scope_clause(text)
        ORDER BY document_id, section_source_id, position) AS first
      WHERE NOT corpus_special_division(section_path) $$`);
  if (migrateTo < "029")
    // Before migration 029 no article had division names to write.
    await db.query(
      "CREATE FUNCTION corpus_write_opened_divisions() RETURNS SETOF integer LANGUAGE sql AS 'SELECT NULL::integer WHERE false'",
    );
  if (migrateTo < "032") {
    // Before migration 032 the priors were recomputed for every document (a NULL list).
    await db.query(
      "CREATE FUNCTION corpus_take_priors_pending() RETURNS integer[] LANGUAGE sql AS 'SELECT NULL::integer[]'",
    );
    await db.query(`CREATE FUNCTION corpus_section_openers(documents integer[]) RETURNS TABLE (provision_id integer)
      LANGUAGE sql STABLE AS 'SELECT provision_id FROM corpus_section_openers()'`);
    await db.query(`CREATE FUNCTION corpus_write_opened_divisions(documents integer[]) RETURNS SETOF integer
      LANGUAGE sql AS 'SELECT * FROM corpus_write_opened_divisions()'`);
  }
  if (migrateTo < "033") {
    // Before migration 033 every run refreshed the planner's statistics, and none recorded it.
    await db.query("CREATE FUNCTION corpus_statistics_due() RETURNS boolean LANGUAGE sql AS 'SELECT true'");
    await db.query(
      "CREATE FUNCTION corpus_mark_analyzed(run integer) RETURNS void LANGUAGE sql AS 'SELECT NULL::void'",
    );
  }
}

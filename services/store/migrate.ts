import path from "node:path";
import { fileURLToPath } from "node:url";
import Postgrator from "postgrator";
import type { Database } from "./database.ts";

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/** Arbitrary constant: serialises concurrent migrators on one server. */
const MIGRATION_LOCK = 726_150_001;

/**
 * Applies the plain SQL migrations with Postgrator, in one transaction under an advisory lock,
 * so two processes starting together cannot both migrate and a failed migration leaves nothing.
 * `to` stops at that migration ("024"): tests upgrade a store written by an earlier schema.
 */
export async function migrate(db: Database, to?: string): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    const postgrator = new Postgrator({
      migrationPattern: path.join(migrationsDir, "*.sql"),
      driver: "pg",
      database: "",
      schemaTable: "schema_migrations",
      execQuery: (sql) => tx.query(sql),
      execSqlScript: (sql) => tx.exec(sql),
    });
    const applied = await postgrator.migrate(to);
    return applied.map((migration) => migration.filename);
  });
}

import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";

/**
 * A fresh database on the real Postgres server for one test file, dropped afterwards, so that
 * test files never see each other's data. `icuLocale` gives it that ICU collation instead of the
 * server's default (a customer's database need not be in the C locale).
 */
export async function createTestDatabase(
  label: string,
  options: { icuLocale?: string } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = inject("postgresAdminUrl");
  const name = `lc_test_${label.replace(/\W/g, "_").toLowerCase()}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const locale = options.icuLocale
    ? ` TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE '${options.icuLocale.replace(/'/g, "''")}'`
    : "";
  await admin.query(`CREATE DATABASE ${name}${locale}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareIds } from "../../services/search/bounded-heap.ts";
import { PostgresSearchEngine } from "../../services/search/postgres-engine.ts";
import { type Database, openDatabase } from "../../services/store/database.ts";
import { migrate } from "../../services/store/migrate.ts";
import { ingestInline, lawOf } from "../helpers/inline-acts.ts";
import { createTestDatabase } from "../helpers/postgres.ts";
import { searchQuery as query } from "../helpers/search-query.ts";

/**
 * Provisions that score the same are listed by public id in byte order, whatever the database's
 * collation: a server database made in a locale that ignores punctuation (as glibc's en_US.UTF-8
 * and ICU's « shifted » option do) would otherwise sort « L12 » before « L1-3 », so that the same
 * query paged differently on the server (ranking in SQL) than on the embedded store or in memory.
 * Six articles with one text, hence one score, and numbers whose order changes when hyphens are
 * ignored; before them an opening article that does not match (a document's opener counts more).
 */
const NUMBERS = ["L1-3", "L12", "L1-21", "L121", "L1-1", "L11"];
const TEXT = "Le marronnier de la cour est taillé chaque hiver.";

const act = lawOf("TIES", "code-des-egalites", "Code des égalités", [
  ["L1", "Le présent code règle les égalités."],
  ...NUMBERS.map((n) => [n, TEXT]),
]);

describe("ties on a server database whose collation ignores punctuation", () => {
  let db: Database;
  let drop: () => Promise<void>;
  const byteOrder = NUMBERS.map((n) => `code-des-egalites/${n}`).sort(compareIds);

  beforeAll(async () => {
    const created = await createTestDatabase("ties", { icuLocale: "und-u-ka-shifted" });
    drop = created.drop;
    db = await openDatabase({ url: created.url, poolSize: 2 });
    await migrate(db);
    await ingestInline(db, [act]);
  });
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  it("is such a database: its own order of these ids is not byte order", async () => {
    const { rows } = await db.query<{ public_id: string }>(
      "SELECT public_id FROM provisions WHERE public_id <> 'code-des-egalites/L1' ORDER BY public_id",
    );
    expect(rows.map((r) => r.public_id)).not.toEqual(byteOrder);
  });

  it("lists the tied provisions in byte order, ranking in SQL and in memory", async () => {
    const sql = new PostgresSearchEngine(db);
    const memory = new PostgresSearchEngine(db, undefined, { memory: true });
    await memory.ready();
    try {
      for (const engine of [sql, memory]) {
        const page = await engine.search(query("marronnier taillé", { limit: 10 }));
        expect(new Set(page.hits.map((h) => h.score)).size).toBe(1);
        expect(page.hits.map((h) => h.publicId)).toEqual(byteOrder);
        // Paged two by two, the same order.
        const paged: string[] = [];
        for (let offset = 0; offset < NUMBERS.length; offset += 2)
          paged.push(
            ...(await engine.search(query("marronnier taillé", { limit: 2, offset }))).hits.map(
              (h) => h.publicId,
            ),
          );
        expect(paged).toEqual(byteOrder);
      }
    } finally {
      await memory.close();
      await sql.close();
    }
  });
});

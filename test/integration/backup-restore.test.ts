import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresSearchEngine } from "../../services/search/postgres-engine.ts";
import { type Database, openDatabase } from "../../services/store/database.ts";
import { migrate } from "../../services/store/migrate.ts";
import { searchStatisticsDrift } from "../../services/store/search-statistics.ts";
import { ingestInline, lawOf } from "../helpers/inline-acts.ts";
import { createTestDatabase } from "../helpers/postgres.ts";
import { searchQuery } from "../helpers/search-query.ts";
import { corpusChecksum } from "../helpers/stores.ts";

/**
 * A server store's backup, made with pg_dump and restored with pg_restore, as an operator keeps
 * one. The restore recomputes the generated search vector with an empty search_path: before
 * migration 025 it failed on the provisions table (« function corpus_defined_notions(text) does
 * not exist »), so no backup of a store could be restored.
 */
const act = lawOf("BACKUP", "code-de-la-sauvegarde", "Code de la sauvegarde", [
  ["L1", "Constitue un licenciement pour motif économique le licenciement effectué par un employeur."],
  ["L2", "La valeur limite est fixée à 10 µg par mètre cube d'air."],
]);

describe("a server store restored from its backup", () => {
  const drops: Array<() => Promise<void>> = [];
  let source: Database;
  let restored: Database;

  beforeAll(async () => {
    const from = await createTestDatabase("backup_source");
    const to = await createTestDatabase("backup_restored");
    drops.push(from.drop, to.drop);
    source = await openDatabase({ url: from.url, poolSize: 2 });
    await migrate(source);
    await ingestInline(source, [act]);
    const dump = path.join(mkdtempSync(path.join(tmpdir(), "lc-backup-")), "corpus.dump");
    execFileSync("pg_dump", ["--format=custom", `--file=${dump}`, `--dbname=${from.url}`]);
    execFileSync("pg_restore", ["--exit-on-error", "--no-owner", `--dbname=${to.url}`, dump], {
      stdio: "pipe",
    });
    restored = await openDatabase({ url: to.url, poolSize: 2 });
  });
  afterAll(async () => {
    await source?.close();
    await restored?.close();
    for (const drop of drops) await drop();
  });

  it("holds the same corpus, search vectors, term statistics and schema version", async () => {
    expect(await corpusChecksum(restored)).toEqual(await corpusChecksum(source));
    const vectors = (db: Database) =>
      db
        .query("SELECT public_id, search_vector::text FROM provisions ORDER BY public_id")
        .then((r) => r.rows);
    expect(await vectors(restored)).toEqual(await vectors(source));
    expect((await searchStatisticsDrift(restored)).missingPostings).toBe(0);
    expect(await searchStatisticsDrift(restored)).toEqual(await searchStatisticsDrift(source));
    // Nothing left to migrate.
    expect(await migrate(restored)).toEqual([]);
  });

  it("is searched as the source was", async () => {
    const engine = new PostgresSearchEngine(restored);
    try {
      const notion = await engine.search(searchQuery("licenciement économique"));
      expect(notion.hits[0]?.publicId).toBe("code-de-la-sauvegarde/L1");
      const micro = await engine.search(searchQuery("μg"));
      expect(micro.hits[0]?.publicId).toBe("code-de-la-sauvegarde/L2");
    } finally {
      await engine.close();
    }
  });
});

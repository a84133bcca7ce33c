import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../services/core/config.ts";
import type { IndexedEngine } from "../../services/search/engines.ts";
import { seedSmallCorpus } from "../helpers/api.ts";
import { runCli } from "../helpers/cli.ts";
import { connectIndexEngine, INDEX_ENGINES, indexEngineUrl } from "../helpers/engines.ts";
import { openTestStore, type TestStore } from "../helpers/stores.ts";

/**
 * The index is a derived copy of Postgres: `corpus index rebuild` builds it behind an alias with no
 * failed search during the swap, `corpus index verify` proves it matches, and `--repair` mends drift.
 */
describe.each(INDEX_ENGINES)(
  "search index lifecycle through the CLI (a real %s node, server Postgres)",
  (kind) => {
    let store: TestStore;
    let env: Record<string, string>;
    let engine: IndexedEngine;
    const alias = `lc-cli-${randomBytes(4).toString("hex")}`;

    beforeAll(async () => {
      store = await openTestStore("postgres", `index_cli_${kind}`);
      const dataDir = mkdtempSync(path.join(tmpdir(), "lc-index-"));
      await seedSmallCorpus(store, parseConfig({ DATA_DIR: dataDir }));
      env = {
        DATABASE_URL: store.url!,
        DATA_DIR: dataDir,
        SEARCH_ENGINE: kind,
        SEARCH_URL: indexEngineUrl(kind),
        SEARCH_INDEX: alias,
      };
      engine = connectIndexEngine(kind, alias);
    });
    afterAll(async () => {
      for (const index of (await engine?.aliasTargets()) ?? []) await engine.deleteIndex(index);
      await engine?.close();
      await store?.dispose();
    });

    it("says there is no index yet, builds one, and proves it matches Postgres", async () => {
      const before = await runCli(["index", "verify"], env);
      expect(before.code).toBe(2);
      expect(before.stdout).toContain("Index (none)");
      const rebuilt = await runCli(["index", "rebuild"], env);
      expect(rebuilt.stdout).toMatch(/built with 12 provisions/);
      const verified = await runCli(["index", "verify", "--json"], env);
      expect(verified.code).toBe(0);
      expect(JSON.parse(verified.stdout).found).toMatchObject({ missing: [], stale: [], extra: [] });
    });

    it("finds drift of every kind and repairs it", async () => {
      const [index] = await engine.aliasTargets();
      await engine.bulk(index!, [], ["code-du-travail/L1221-19"]);
      const copy = await staleCopy();
      await engine.bulk(
        index!,
        [
          {
            ...copy,
            id: "ghost/1",
            json: JSON.stringify({ ...JSON.parse(copy.json), public_id: "ghost/1" }),
          },
        ],
        [],
      );
      await store.db.query(
        "UPDATE provisions SET content_hash = 'changed' WHERE public_id = 'code-du-travail/R4451-39'",
      );
      await engine.refresh(index!);

      const found = await runCli(["index", "verify", "--json"], env);
      expect(found.code).toBe(2);
      expect(JSON.parse(found.stdout).found).toMatchObject({
        missing: ["code-du-travail/L1221-19"],
        stale: ["code-du-travail/R4451-39"],
        extra: ["ghost/1"],
      });
      const repaired = await runCli(["index", "verify", "--repair", "--json"], env);
      expect(repaired.code).toBe(0);
      expect(JSON.parse(repaired.stdout).after).toMatchObject({ missing: [], stale: [], extra: [] });
    });

    it("rebuilds behind the alias with no failed search during the swap", async () => {
      const [previous] = await engine.aliasTargets();
      let searches = 0;
      const failures: string[] = [];
      let running = true;
      const loop = (async () => {
        while (running) {
          try {
            const result = await engine.search({
              q: "salarié",
              limit: 5,
              offset: 0,
              domains: null,
              document: null,
              inForce: true,
              asOf: "2026-06-01",
            });
            if (result.hits.length === 0) failures.push("empty result during rebuild");
          } catch (error) {
            failures.push(String(error));
          }
          searches += 1;
        }
      })();
      const rebuilt = await runCli(["index", "rebuild"], env);
      running = false;
      await loop;
      expect(rebuilt.code).toBe(0);
      expect(searches).toBeGreaterThan(10);
      expect(failures).toEqual([]);
      const [current] = await engine.aliasTargets();
      expect(current).not.toBe(previous);
    });

    async function staleCopy() {
      const { rows } = await store.db.query<{ public_id: string }>(
        "SELECT public_id FROM provisions LIMIT 1",
      );
      const { provisionsByPublicId } = await import("../../services/store/index-source.ts");
      return (await provisionsByPublicId(store.db, [rows[0]!.public_id]))[0]!;
    }
  },
);

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../services/core/config.ts";
import { runCli } from "../helpers/cli.ts";
import { corpusChecksum, openTestStore, type TestStore } from "../helpers/stores.ts";

/**
 * Bad input through the real CLI on a real Postgres server that already holds a corpus: each
 * case stops with exit code 2 and a message naming the file and the field, and the stored corpus
 * is byte-for-byte what it was.
 */
const dir = mkdtempSync(path.join(tmpdir(), "lc-bad-input-"));
const write = (name: string, content: unknown) => {
  const file = path.join(dir, name);
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
};

const goodAct = {
  format: "legal-corpus/canonical-v1",
  documents: [
    {
      id: "loi-exemple",
      title: "Loi d'exemple",
      body: [{ section: "Titre Ier", body: [{ article: "1", text: "Le présent texte est un exemple." }] }],
    },
  ],
};

const legiExcerpt = path.join(repoRoot, "test/fixtures/legi/code-du-travail-excerpt.json");

describe("bad input never costs stored data", () => {
  let store: TestStore;
  let env: Record<string, string>;
  let before: Record<string, string>;

  beforeAll(async () => {
    store = await openTestStore("postgres", "bad_input");
    env = { DATABASE_URL: store.url!, DATA_DIR: dir };
    const legiDir = path.join(dir, "legi");
    const { mkdirSync, copyFileSync } = await import("node:fs");
    mkdirSync(legiDir);
    copyFileSync(legiExcerpt, path.join(legiDir, "LEGITEXT000006072050.json"));
    expect((await runCli(["ingest", "legi", "--path", legiDir], env)).code).toBe(0);
    expect((await runCli(["ingest", "file", write("good.json", goodAct)], env)).code).toBe(0);
    before = await corpusChecksum(store.db);
  });
  afterAll(async () => store?.dispose());

  const cases: Array<[string, () => string[], RegExp, Record<string, string>?]> = [
    [
      "a file that does not exist",
      () => ["ingest", "file", path.join(dir, "nope.json")],
      /nope\.json: path: no such file/,
    ],
    [
      "malformed JSON",
      () => ["ingest", "file", write("malformed.json", '{"format": "legal-corpus/canonical-v1", ')],
      /malformed\.json: \(json\): malformed JSON/,
    ],
    [
      "JSON nested 10,000 levels deep (was a stack overflow)",
      () => ["ingest", "file", write("deep.json", `${"[".repeat(10_000)}${"]".repeat(10_000)}`)],
      /deep\.json: \(json\): nests deeper than 100 levels/,
    ],
    [
      "a missing article text",
      () => [
        "ingest",
        "file",
        write("no-text.json", {
          ...goodAct,
          documents: [{ ...goodAct.documents[0], body: [{ article: "1" }] }],
        }),
      ],
      /no-text\.json: documents\.0\.body\.0/,
    ],
    [
      "a missing document id",
      () => [
        "ingest",
        "file",
        write("no-id.json", {
          ...goodAct,
          documents: [{ title: "Sans id", body: goodAct.documents[0]!.body }],
        }),
      ],
      /no-id\.json: documents\.0\.id: /,
    ],
    [
      "duplicate public ids in one act",
      () => [
        "ingest",
        "file",
        write("dup.json", {
          ...goodAct,
          documents: [
            {
              ...goodAct.documents[0],
              body: [
                { article: "1", text: "Un." },
                { article: "1", id: "other", text: "Deux." },
              ],
            },
          ],
        }),
      ],
      /dup\.json: provisions\.1\.number: public id loi-exemple\/1 is also that of provisions\.0/,
    ],
    [
      "a public id taken by another document",
      () => [
        "ingest",
        "file",
        write("clash.json", { ...goodAct, documents: [{ ...goodAct.documents[0], id: "code-du-travail" }] }),
      ],
      /clash\.json: documents\.0\.id: public id code-du-travail already belongs to legi LEGITEXT000006072050/,
    ],
    [
      "a clash in the second document of a file, after a valid first one",
      () => [
        "ingest",
        "file",
        write("clash-second.json", {
          ...goodAct,
          documents: [
            { ...goodAct.documents[0], id: "loi-nouvelle" },
            { ...goodAct.documents[0], id: "code-du-travail", sourceId: "X" },
          ],
        }),
      ],
      /clash-second\.json: documents\.1\.id: public id code-du-travail already belongs to legi/,
    ],
    [
      "two documents with one id in a file",
      () => [
        "ingest",
        "file",
        write("twice.json", { ...goodAct, documents: [goodAct.documents[0], goodAct.documents[0]] }),
      ],
      /twice\.json: documents\.1\.id: public id loi-exemple is also that of documents\.0/,
    ],
    [
      "an unknown domain in the rules",
      () => ["ingest", "file", write("good-again.json", goodAct)],
      /bad-rules\.yaml: rules\.0\.domains\.1: unknown domain "labor"/,
      {
        DOMAIN_RULES: write(
          "bad-rules.yaml",
          "version: 1\nrules:\n  - name: x\n    match: { title: loi }\n    domains: [tax, labor]\n",
        ),
      },
    ],
    [
      "an unknown code",
      () => ["ingest", "legi", "--path", path.join(dir, "legi"), "--codes", "LEGITEXT000000000000"],
      /codes: LEGITEXT000000000000 is not in this snapshot/,
    ],
    [
      "a LEGI folder without codes",
      () => ["ingest", "legi", "--path", dir],
      /path: no LEGITEXT\*\.json code file/,
    ],
    [
      "a LEGI article without its number",
      () => {
        const broken = path.join(dir, "broken-legi");
        const { mkdirSync, readFileSync } = require("node:fs") as typeof import("node:fs");
        mkdirSync(broken, { recursive: true });
        writeFileSync(
          path.join(broken, "LEGITEXT000006072050.json"),
          JSON.stringify(JSON.parse(readFileSync(legiExcerpt, "utf8"))).replace(
            '"num":"L1221-19"',
            '"num":null',
          ),
        );
        return ["ingest", "legi", "--path", broken];
      },
      /LEGITEXT000006072050\.json: children\[\d+\].*\.data\.num: missing or empty/,
    ],
  ];

  it.each(cases)(
    "%s: exit 2, file and field named, corpus unchanged",
    async (_name, args, message, extraEnv) => {
      const result = await runCli(args(), { ...env, ...extraEnv });
      expect(result.stderr).toMatch(message);
      expect(result.code).toBe(2);
      expect(result.stderr).not.toMatch(/\n\s+at /); // a message for a person, not a stack trace
      expect(await corpusChecksum(store.db)).toEqual(before);
    },
  );
});

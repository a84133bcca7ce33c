import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CanonicalDocumentInput } from "../../ingest/model.ts";
import { ingest } from "../../ingest/pipeline/ingest.ts";
import { parseDomainRules } from "../../services/core/classify.ts";
import { findIngestRun } from "../../services/store/ingest-runs.ts";
import { corpusChecksum, openTestStore, STORE_KINDS, type TestStore } from "../helpers/stores.ts";

const rules = parseDomainRules(
  `version: 1
rules:
  - name: test act
    match: { document: [loi-test] }
    domains: [labour]
  - name: penal part
    match: { document: [loi-test], section: "penal" }
    domains: [criminal]
`,
  "inline-rules.yaml",
);

function act(
  articles: Array<{ number: string; text: string; id?: string }>,
  title = "Loi de test",
): CanonicalDocumentInput {
  return {
    source: { name: "canonical", documentId: "TEST-1", version: "v1" },
    publicId: "loi-test",
    kind: "law",
    title,
    jurisdiction: "FR",
    status: "in_force",
    effectiveFrom: "2020-01-01",
    effectiveTo: null,
    sections: [
      { id: "s1", parentId: null, title: "Titre I : Dispositions générales" },
      { id: "s2", parentId: "s1", title: "Chapitre II : Dispositions pénales" },
    ],
    provisions: articles.map((a, i) => ({
      sourceId: a.id ?? `A${a.number}`,
      versionId: `A${a.number}@${a.text.length}`,
      number: a.number,
      text: a.text,
      status: "in_force",
      effectiveFrom: "2020-01-01",
      effectiveTo: null,
      sectionId: i === 0 ? "s1" : "s2",
    })),
  };
}

const load = (store: TestStore, doc: CanonicalDocumentInput, file = "test.json") =>
  ingest(store.db, {
    source: "canonical",
    sourceVersion: "test",
    parameters: {},
    documentsTotal: 1,
    documents: [{ file, document: doc }],
    rules,
  });

describe.each(STORE_KINDS)("corpus store on %s", (kind) => {
  let store: TestStore;
  beforeEach(async () => {
    store = await openTestStore(kind, "store");
  });
  afterEach(async () => store?.dispose());

  it("stores provisions with section paths and domains from the rules", async () => {
    await load(
      store,
      act([
        { number: "1", text: "Premier." },
        { number: "2", text: "Second." },
      ]),
    );
    const { rows } = await store.db.query<{ public_id: string; section_path: string[]; domains: string[] }>(
      "SELECT public_id, section_path, domains FROM provisions ORDER BY position",
    );
    expect(rows).toEqual([
      { public_id: "loi-test/1", section_path: ["Titre I : Dispositions générales"], domains: ["labour"] },
      {
        public_id: "loi-test/2",
        section_path: ["Titre I : Dispositions générales", "Chapitre II : Dispositions pénales"],
        domains: ["criminal", "labour"],
      },
    ]);
  });

  it("writes only the provision that changed and keeps every public id", async () => {
    await load(
      store,
      act([
        { number: "1", text: "Premier." },
        { number: "2", text: "Second." },
      ]),
    );
    const before = await store.db.query<{ public_id: string; updated_at: Date }>(
      "SELECT public_id, updated_at FROM provisions ORDER BY position",
    );
    const summary = await load(
      store,
      act([
        { number: "1", text: "Premier." },
        { number: "2", text: "Second, modifié." },
      ]),
    );
    expect(summary.documents.updated).toBe(1);
    expect(summary.provisions).toMatchObject({ added: 0, changed: 1, unchanged: 1, absent: 0 });
    const after = await store.db.query<{ public_id: string; updated_at: Date; text: string }>(
      "SELECT public_id, updated_at, text FROM provisions ORDER BY position",
    );
    expect(after.rows.map((r) => r.public_id)).toEqual(["loi-test/1", "loi-test/2"]);
    expect(after.rows[0]?.updated_at).toEqual(before.rows[0]?.updated_at);
    expect(after.rows[1]?.text).toBe("Second, modifié.");
  });

  it("keeps a provision that left the source, marked as no longer present", async () => {
    await load(
      store,
      act([
        { number: "1", text: "Premier." },
        { number: "2", text: "Second." },
      ]),
    );
    const summary = await load(store, act([{ number: "1", text: "Premier." }]));
    expect(summary.provisions.absent).toBe(1);
    const { rows } = await store.db.query<{ public_id: string; present_in_source: boolean }>(
      "SELECT public_id, present_in_source FROM provisions ORDER BY position",
    );
    expect(rows).toEqual([
      { public_id: "loi-test/1", present_in_source: true },
      { public_id: "loi-test/2", present_in_source: false },
    ]);
  });

  it("reclassifies when the rules change even if the text did not", async () => {
    await load(store, act([{ number: "1", text: "Premier." }]));
    const other = parseDomainRules(
      "version: 1\nrules:\n  - name: x\n    match: { title: '^loi de test$' }\n    domains: [tax]\n",
      "other.yaml",
    );
    await ingest(store.db, {
      source: "canonical",
      sourceVersion: "test",
      parameters: {},
      documentsTotal: 1,
      documents: [{ file: "test.json", document: act([{ number: "1", text: "Premier." }]) }],
      rules: other,
    });
    const { rows } = await store.db.query<{ domains: string[] }>("SELECT domains FROM provisions");
    expect(rows[0]?.domains).toEqual(["tax"]);
  });

  it("refuses a document whose public id belongs to another source document, changing nothing", async () => {
    await load(store, act([{ number: "1", text: "Premier." }]));
    const before = await corpusChecksum(store.db);
    const intruder = {
      ...act([{ number: "9", text: "Autre." }]),
      source: { name: "canonical", documentId: "OTHER", version: null },
    };
    await expect(load(store, intruder, "intruder.json")).rejects.toThrow(
      "intruder.json: publicId: public id loi-test already belongs to canonical TEST-1",
    );
    expect(await corpusChecksum(store.db)).toEqual(before);
    const runs = await store.db.query<{ id: number }>("SELECT id FROM ingest_runs ORDER BY id DESC LIMIT 1");
    const run = await findIngestRun(store.db, runs.rows[0]!.id);
    expect(run?.status).toBe("failed");
    expect(run?.error).toMatch(/already belongs/);
  });

  it("rolls a document back whole when writing it fails half-way", async () => {
    await load(store, act([{ number: "1", text: "Premier." }]));
    const before = await corpusChecksum(store.db);
    // A CHECK constraint fails on the new provision, after the document row was already rewritten.
    const bad = act([
      { number: "1", text: "Premier, modifié." },
      { number: "2", text: "Second." },
    ]);
    await store.db.exec("ALTER TABLE provisions ADD CONSTRAINT no_second CHECK (public_id <> 'loi-test/2')");
    await expect(load(store, bad)).rejects.toThrow(/no_second/);
    expect(await corpusChecksum(store.db)).toEqual(before);
  });
});

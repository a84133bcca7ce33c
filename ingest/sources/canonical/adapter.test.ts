import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { inputError } from "../../../test/helpers/input-error.ts";
import { validateDocument } from "../../pipeline/validate.ts";
import { readCanonicalFile } from "./adapter.ts";
import { CANONICAL_FORMAT } from "./format.ts";

const fixtures = fileURLToPath(new URL("../../../test/fixtures/canonical/", import.meta.url));
const fixture = (name: string) => path.join(fixtures, name);

const scratch = mkdtempSync(path.join(tmpdir(), "canonical-adapter-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let written = 0;
/** Writes `content` (an object, or raw text) to a scratch file and returns its path. */
function fileWith(content: unknown, name = `file-${++written}.json`): string {
  const file = path.join(scratch, name);
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return file;
}

/** A one-document file with the given body and document fields. */
function oneDocument(body: unknown[], fields: Record<string, unknown> = {}) {
  return { format: CANONICAL_FORMAT, documents: [{ id: "loi-test", title: "Loi de test", ...fields, body }] };
}

describe("readCanonicalFile: the example act", () => {
  const [doc, ...others] = readCanonicalFile(fixture("loi-exemple.json"));

  it("reads one document with its header", () => {
    expect(others).toHaveLength(0);
    expect(doc!.publicId).toBe("loi-2016-1088");
    expect(doc!.source).toEqual({
      name: "jorf",
      documentId: "JORFTEXT000032983213",
      version: expect.stringMatching(/^EXTRAIT pour l'exemple/),
    });
    expect(doc!.kind).toBe("law");
    expect(doc!.jurisdiction).toBe("FR");
    expect(doc!.status).toBe("in_force");
    expect(doc!.effectiveFrom).toBe("2016-08-10");
    expect(doc!.title).toMatch(/^LOI n° 2016-1088 du 8 août 2016 .*\(extrait\)$/);
  });

  it("flattens nested sections in document order, with parents and positional default ids", () => {
    expect(doc!.sections.map((s) => [s.id, s.parentId])).toEqual([
      ["loi-2016-1088/titre-1", null],
      ["loi-2016-1088/s1.1", "loi-2016-1088/titre-1"],
      ["loi-2016-1088/s1.2", "loi-2016-1088/titre-1"],
      ["loi-2016-1088/s2", null],
      ["loi-2016-1088/s2.1", "loi-2016-1088/s2"],
      ["loi-2016-1088/s2.2", "loi-2016-1088/s2"],
      ["loi-2016-1088/s3", null],
    ]);
    expect(doc!.sections[1]!.title).toBe("Chapitre Ier : Vers une refondation du code du travail");
  });

  it("places each article in its innermost section, with an id derived from its number", () => {
    expect(doc!.provisions.map((p) => [p.number, p.sourceId, p.sectionId])).toEqual([
      ["1", "loi-2016-1088/1", "loi-2016-1088/s1.1"],
      ["8", "loi-2016-1088/8", "loi-2016-1088/s1.2"],
      ["39", "loi-2016-1088/39", "loi-2016-1088/s2.1"],
      ["55", "loi-2016-1088/55", "loi-2016-1088/s2.2"],
      ["102", "loi-2016-1088/102", "loi-2016-1088/s3"],
    ]);
    expect(doc!.provisions.every((p) => p.status === "in_force")).toBe(true);
  });

  it("keeps an explicit earlier version and appends the current one after it", () => {
    const article39 = doc!.provisions[2]!;
    expect(article39.versionId).toBe("loi-2016-1088/39@2017-01-01");
    expect(article39.versions!.map((v) => [v.versionId, v.status, v.effectiveFrom, v.effectiveTo])).toEqual([
      ["loi-2016-1088/39@2016-08-10", "superseded", "2016-08-10", "2016-12-31"],
      ["loi-2016-1088/39@2017-01-01", "in_force", "2017-01-01", null],
    ]);
    expect(article39.versions![1]!.text).toBe(article39.text);
  });

  it("keeps links as written, with the fields left out set to null", () => {
    const article55 = doc!.provisions[3]!;
    expect(article55.links).toEqual([
      {
        actId: "LEGITEXT000006072050",
        actTitle: "Code du travail",
        actKind: "CODE",
        relation: "MODIFIE",
        direction: "amends",
        actArticleId: null,
        actArticleNumber: "L2242-8",
        publishedOn: null,
        signedOn: null,
        effectiveOn: "2017-01-01",
      },
    ]);
    expect(doc!.provisions[0]!.links).toEqual([]);
  });

  it("produces a document the canonical model accepts", () => {
    const valid = validateDocument(doc!, "loi-exemple.json");
    expect(valid.provisions).toHaveLength(5);
    expect(valid.sections).toHaveLength(7);
  });
});

describe("readCanonicalFile: defaults", () => {
  it("fills the document header defaults; the snapshot label is the file name", () => {
    const file = fileWith(oneDocument([{ article: "1", text: "Texte." }]), "mon-acte.json");
    const [doc] = readCanonicalFile(file);
    expect(doc!.source).toEqual({ name: "canonical", documentId: "loi-test", version: "mon-acte.json" });
    expect(doc!.kind).toBe("law");
    expect(doc!.jurisdiction).toBe("FR");
    expect(doc!.status).toBe("in_force");
    expect([doc!.effectiveFrom, doc!.effectiveTo, doc!.modifiedOn]).toEqual([null, null, null]);
  });

  it("upper-cases the jurisdiction and trims titles and numbers", () => {
    const file = fileWith(
      oneDocument([{ section: "  Titre Ier  ", body: [{ article: " 1 ", text: "Texte." }] }], {
        jurisdiction: "be",
        title: "  Loi de test  ",
      }),
    );
    const [doc] = readCanonicalFile(file);
    expect(doc!.jurisdiction).toBe("BE");
    expect(doc!.title).toBe("Loi de test");
    expect(doc!.sections[0]!.title).toBe("Titre Ier");
    expect(doc!.provisions[0]!.number).toBe("1");
  });

  it("derives an article id from the slug of its number; an explicit id is kept", () => {
    const file = fileWith(
      oneDocument([
        { article: "L. 3121-1", text: "A." },
        { article: "Annexe à l'article 2", text: "B." },
        { article: "3", id: "JORFARTI000000000003", text: "C." },
      ]),
    );
    const [doc] = readCanonicalFile(file);
    expect(doc!.provisions.map((p) => p.sourceId)).toEqual([
      "loi-test/L-3121-1",
      "loi-test/Annexe-a-l-article-2",
      "JORFARTI000000000003",
    ]);
  });

  it("numbers default section ids by position among all body entries, articles included", () => {
    const file = fileWith(
      oneDocument([
        { article: "1", text: "A." },
        {
          section: "Titre Ier",
          body: [
            { article: "2", text: "B." },
            { section: "Chapitre Ier", body: [] },
          ],
        },
        { section: "Titre II", id: "titre-2", body: [{ section: "Chapitre Ier", body: [] }] },
      ]),
    );
    const [doc] = readCanonicalFile(file);
    expect(doc!.sections.map((s) => [s.id, s.parentId])).toEqual([
      ["loi-test/s2", null],
      ["loi-test/s2.2", "loi-test/s2"],
      ["titre-2", null],
      ["loi-test/s3.1", "titre-2"],
    ]);
    expect(doc!.provisions.map((p) => p.sectionId)).toEqual([null, "loi-test/s2"]);
  });

  it("derives the version id from the article id and date, or 'undated'", () => {
    const file = fileWith(
      oneDocument([
        { article: "1", text: "A.", effectiveFrom: "2016-08-10" },
        { article: "2", text: "B." },
        { article: "3", text: "C.", versionId: "v3" },
      ]),
    );
    const [doc] = readCanonicalFile(file);
    expect(doc!.provisions.map((p) => p.versionId)).toEqual([
      "loi-test/1@2016-08-10",
      "loi-test/2@undated",
      "v3",
    ]);
  });

  it("adds the current version when none is given, with the article's status, dates and text", () => {
    const file = fileWith(
      oneDocument([
        {
          article: "1",
          text: "Abrogé.",
          status: "repealed",
          effectiveFrom: "2010-01-01",
          effectiveTo: "2016-08-09",
        },
      ]),
    );
    const [doc] = readCanonicalFile(file);
    const article = doc!.provisions[0]!;
    expect(article.status).toBe("repealed");
    expect(article.versions).toEqual([
      {
        versionId: "loi-test/1@2010-01-01",
        label: null,
        status: "repealed",
        sourceStatus: null,
        effectiveFrom: "2010-01-01",
        effectiveTo: "2016-08-09",
        text: "Abrogé.",
        repealedOn: "2016-08-09",
      },
    ]);
  });

  it("does not add the current version again when the versions already list it", () => {
    const current = {
      versionId: "v2",
      label: "Rédaction issue de la loi",
      status: "in_force",
      effectiveFrom: "2017-01-01",
      effectiveTo: null,
    };
    const earlier = { versionId: "v1", status: "superseded", effectiveFrom: null, effectiveTo: "2016-12-31" };
    const file = fileWith(
      oneDocument([{ article: "1", text: "B.", versionId: "v2", versions: [earlier, current] }]),
    );
    const [doc] = readCanonicalFile(file);
    expect(doc!.provisions[0]!.versions!.map((v) => v.versionId)).toEqual(["v1", "v2"]);
    expect(doc!.provisions[0]!.versions![1]!.label).toBe("Rédaction issue de la loi");
  });

  it("reads several documents from one file", () => {
    const file = fileWith({
      format: CANONICAL_FORMAT,
      documents: [
        { id: "loi-a", title: "Loi A", body: [{ article: "1", text: "A." }] },
        { id: "decret-b", kind: "decree", title: "Décret B", body: [{ article: "1", text: "B." }] },
      ],
    });
    const docs = readCanonicalFile(file);
    expect(docs.map((d) => [d.publicId, d.kind, d.provisions[0]!.sourceId])).toEqual([
      ["loi-a", "law", "loi-a/1"],
      ["decret-b", "decree", "decret-b/1"],
    ]);
  });
});

describe("readCanonicalFile: errors name the file and the field", () => {
  it("malformed JSON", () => {
    const file = fixture("broken-malformed.txt");
    const error = inputError(() => readCanonicalFile(file));
    expect(error.file).toBe(file);
    expect(error.field).toBe("(json)");
    expect(error.problem).toMatch(/^malformed JSON: /);
    expect(error.message).toBe(`${file}: (json): ${error.problem}`);
  });

  it("a file that does not exist", () => {
    const file = path.join(scratch, "absent.json");
    const error = inputError(() => readCanonicalFile(file));
    expect([error.file, error.field, error.problem]).toEqual([file, "path", "no such file"]);
  });

  it("a missing text, named down to the nested article", () => {
    const file = fixture("broken-missing-text.json");
    const error = inputError(() => readCanonicalFile(file));
    expect(error.file).toBe(file);
    expect(error.field).toBe("documents.0.body.0.body.1.text");
    expect(error.message).toMatch(
      new RegExp(
        `^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: documents\\.0\\.body\\.0\\.body\\.1\\.text: `,
      ),
    );
  });

  it("a wrong format value", () => {
    const file = fixture("broken-wrong-format.json");
    const error = inputError(() => readCanonicalFile(file));
    expect(error.field).toBe("format");
    expect(error.problem).toContain(CANONICAL_FORMAT);
  });

  it.each([
    ["no documents", { format: CANONICAL_FORMAT, documents: [] }, "documents"],
    ["an unknown top-level key", { ...oneDocument([{ article: "1", text: "A." }]), extra: 1 }, "(root)"],
    ["an empty body", oneDocument([]), "documents.0.body"],
    [
      "a public id with capitals",
      oneDocument([{ article: "1", text: "A." }], { id: "Loi-Test" }),
      "documents.0.id",
    ],
    [
      "a missing title",
      { format: CANONICAL_FORMAT, documents: [{ id: "loi-x", body: [] }] },
      "documents.0.title",
    ],
    ["an unknown kind", oneDocument([{ article: "1", text: "A." }], { kind: "statute" }), "documents.0.kind"],
    [
      "a three-letter jurisdiction",
      oneDocument([{ article: "1", text: "A." }], { jurisdiction: "FRA" }),
      "documents.0.jurisdiction",
    ],
    [
      "an impossible date",
      oneDocument([{ article: "1", text: "A.", effectiveFrom: "2016-02-30" }]),
      "documents.0.body.0.effectiveFrom",
    ],
    ["an empty text", oneDocument([{ article: "1", text: "" }]), "documents.0.body.0.text"],
    [
      "an unknown article status",
      oneDocument([{ article: "1", text: "A.", status: "abrogé" }]),
      "documents.0.body.0.status",
    ],
    [
      "a misspelt article key",
      oneDocument([{ article: "1", text: "A.", efectiveFrom: "2016-08-10" }]),
      "documents.0.body.0",
    ],
    [
      "a section without heading",
      oneDocument([{ section: "Titre Ier", body: [{ body: [{ article: "1", text: "A." }] }] }]),
      "documents.0.body.0.body.0.section",
    ],
    [
      "a version without status",
      oneDocument([
        {
          section: "Titre Ier",
          body: [
            {
              article: "1",
              text: "A.",
              versions: [{ versionId: "v1", effectiveFrom: null, effectiveTo: null }],
            },
          ],
        },
      ]),
      "documents.0.body.0.body.0.versions.0.status",
    ],
    [
      "a link with an unknown direction",
      oneDocument([
        {
          article: "1",
          text: "A.",
          links: [{ actId: "JORFTEXT1", relation: "MODIFIE", direction: "modifie" }],
        },
      ]),
      "documents.0.body.0.links.0.direction",
    ],
  ])("%s", (_, content, field) => {
    const file = fileWith(content);
    const error = inputError(() => readCanonicalFile(file));
    expect(error.file).toBe(file);
    expect(error.field).toBe(field);
    expect(error.message).toBe(`${file}: ${field}: ${error.problem}`);
  });
});

import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { inputError } from "../../test/helpers/input-error.ts";
import type { CanonicalDocumentInput } from "../model.ts";
import { readCanonicalFile } from "../sources/canonical/adapter.ts";
import { rejectDuplicateNumbers, validateDocument } from "./validate.ts";

const FILE = "acts/loi-test.json";

type ProvisionInput = CanonicalDocumentInput["provisions"][number];

function provision(number: string, sectionId: string | null, fields: Partial<ProvisionInput> = {}) {
  return {
    sourceId: `loi-test/${number}`,
    versionId: `loi-test/${number}@2016-08-10`,
    number,
    text: `Texte de l'article ${number}.`,
    status: "in_force" as const,
    effectiveFrom: "2016-08-10",
    effectiveTo: null,
    sectionId,
    ...fields,
  };
}

/** A valid two-level document: Titre Ier > Chapitre Ier holding articles 1 and 2. */
function documentWith(fields: Partial<CanonicalDocumentInput> = {}): CanonicalDocumentInput {
  return {
    source: { name: "canonical", documentId: "loi-test" },
    publicId: "loi-test",
    kind: "law",
    title: "Loi de test",
    jurisdiction: "FR",
    status: "in_force",
    effectiveFrom: "2016-08-10",
    effectiveTo: null,
    sections: [
      { id: "t1", parentId: null, title: "Titre Ier" },
      { id: "t1c1", parentId: "t1", title: "Chapitre Ier" },
    ],
    provisions: [provision("1", "t1c1"), provision("2", "t1c1")],
    ...fields,
  };
}

describe("validateDocument", () => {
  it("accepts a valid document and fills the model's defaults", () => {
    const doc = validateDocument(documentWith(), FILE);
    expect(doc.source.version).toBeNull();
    expect(doc.modifiedOn).toBeNull();
    expect(doc.sections[1]).toEqual({
      id: "t1c1",
      parentId: "t1",
      title: "Chapitre Ier",
      status: null,
      effectiveFrom: null,
      effectiveTo: null,
    });
    expect(doc.provisions[0]!.versions).toEqual([]);
    expect(doc.provisions[0]!.html).toBeNull();
  });

  it("reports the first zod fault with its path in the model", () => {
    const error = inputError(() =>
      validateDocument(
        documentWith({ provisions: [provision("1", "t1c1"), provision("2", "t1c1", { text: "" })] }),
        FILE,
      ),
    );
    expect(error.file).toBe(FILE);
    expect(error.field).toBe("provisions.1.text");
  });

  it("rejects a public id that is not a slug", () => {
    const error = inputError(() => validateDocument(documentWith({ publicId: "Loi test" }), FILE));
    expect(error.field).toBe("publicId");
  });

  it("rejects a duplicate section id", () => {
    const error = inputError(() =>
      validateDocument(
        documentWith({
          sections: [
            { id: "t1", parentId: null, title: "Titre Ier" },
            { id: "t1c1", parentId: "t1", title: "Chapitre Ier" },
            { id: "t1", parentId: null, title: "Titre II" },
          ],
        }),
        FILE,
      ),
    );
    expect(error.field).toBe("sections.2.id");
    expect(error.problem).toBe("duplicate section id t1");
    expect(error.message).toBe(`${FILE}: sections.2.id: duplicate section id t1`);
  });

  it("rejects an unknown parent section", () => {
    const error = inputError(() =>
      validateDocument(
        documentWith({
          sections: [
            { id: "t1", parentId: null, title: "Titre Ier" },
            { id: "t1c1", parentId: "t9", title: "Chapitre Ier" },
          ],
        }),
        FILE,
      ),
    );
    expect(error.field).toBe("sections.1.parentId");
    expect(error.problem).toContain("t9");
  });

  it("rejects a parent that only comes later in the table of contents", () => {
    const error = inputError(() =>
      validateDocument(
        documentWith({
          sections: [
            { id: "t1c1", parentId: "t1", title: "Chapitre Ier" },
            { id: "t1", parentId: null, title: "Titre Ier" },
          ],
        }),
        FILE,
      ),
    );
    expect(error.field).toBe("sections.0.parentId");
  });

  it("rejects a duplicate provision id", () => {
    const error = inputError(() =>
      validateDocument(
        documentWith({
          provisions: [
            provision("1", "t1c1"),
            provision("2", "t1c1"),
            provision("3", "t1c1", { sourceId: "loi-test/1" }),
          ],
        }),
        FILE,
      ),
    );
    expect(error.field).toBe("provisions.2.sourceId");
    expect(error.problem).toBe("duplicate provision id loi-test/1");
  });

  it("rejects a provision in an unknown section", () => {
    const error = inputError(() =>
      validateDocument(documentWith({ provisions: [provision("1", "t1c1"), provision("2", "t2")] }), FILE),
    );
    expect(error.field).toBe("provisions.1.sectionId");
    expect(error.problem).toBe("unknown section t2");
  });

  it("accepts a provision outside any section", () => {
    expect(
      validateDocument(documentWith({ provisions: [provision("1", null)] }), FILE).provisions,
    ).toHaveLength(1);
  });

  it("rejects a duplicate version id within one provision", () => {
    const version = (versionId: string) => ({
      versionId,
      status: "superseded" as const,
      effectiveFrom: null,
      effectiveTo: null,
    });
    const error = inputError(() =>
      validateDocument(
        documentWith({
          provisions: [
            provision("1", "t1c1", { versions: [version("v1")] }),
            provision("2", "t1c1", { versions: [version("v1"), version("v2"), version("v2")] }),
          ],
        }),
        FILE,
      ),
    );
    expect(error.field).toBe("provisions.1.versions.2.versionId");
    expect(error.problem).toBe("duplicate version id v2");
  });
});

describe("rejectDuplicateNumbers", () => {
  it("accepts distinct numbers", () => {
    const doc = validateDocument(
      documentWith({
        provisions: [provision("1", "t1c1"), provision("1 bis", "t1c1"), provision("2", null)],
      }),
      FILE,
    );
    expect(() => rejectDuplicateNumbers(doc, FILE)).not.toThrow();
  });

  it("rejects two articles with the same number in one document, naming the later one", () => {
    const doc = validateDocument(
      documentWith({
        provisions: [
          provision("1", "t1c1"),
          provision("2", "t1c1"),
          provision("2", null, { sourceId: "autre-2" }),
        ],
      }),
      FILE,
    );
    const error = inputError(() => rejectDuplicateNumbers(doc, FILE));
    expect(error.file).toBe(FILE);
    expect(error.field).toBe("provisions.2.number");
    expect(error.problem).toBe("public id loi-test/2 is also that of provisions.1");
  });

  it("rejects numbers written differently that give the same public id", () => {
    const doc = validateDocument(
      documentWith({
        provisions: [
          provision("L. 1", "t1c1", { sourceId: "a" }),
          provision("L 1", "t1c1", { sourceId: "b" }),
        ],
      }),
      FILE,
    );
    const error = inputError(() => rejectDuplicateNumbers(doc, FILE));
    expect(error.field).toBe("provisions.1.number");
    expect(error.problem).toBe("public id loi-test/L-1 is also that of provisions.0");
  });

  it("rejects the broken example file when it is checked as `corpus ingest file` does", () => {
    const file = fileURLToPath(
      new URL("../../test/fixtures/canonical/broken-duplicate-article.json", import.meta.url),
    );
    const [document] = readCanonicalFile(file);
    // Both articles "2" get the default id loi-doublon/2, which the id check catches first.
    const error = inputError(() => rejectDuplicateNumbers(validateDocument(document!, file), file));
    expect(path.basename(error.file)).toBe("broken-duplicate-article.json");
    expect(error.field).toBe("provisions.2.sourceId");
    expect(error.problem).toBe("duplicate provision id loi-doublon/2");
  });
});

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { InputError } from "../../../services/core/errors.ts";
import { canonicalDocumentSchema } from "../../model.ts";
import { adaptLegiCode } from "./adapter.ts";
import { legiDate } from "./dates.ts";
import type { LegiCode } from "./types.ts";

// A real excerpt of the Code du travail (test/fixtures/legi/make-excerpt.ts made it).
const fixture = new URL("../../../test/fixtures/legi/code-du-travail-excerpt.json", import.meta.url);
const excerpt = () => JSON.parse(readFileSync(fixture, "utf8")) as LegiCode;

describe("LEGI dates", () => {
  it("reads article epochs as UTC dates and 2999 as open-ended", () => {
    expect(legiDate(1451606400000)).toBe("2016-01-01");
    expect(legiDate(32472144000000)).toBeNull();
    expect(legiDate("2999-01-01")).toBeNull();
  });
  it("reads 2222-02-22, LEGI's date not yet known, as no date (issue 18, item 8)", () => {
    expect(legiDate(7956835200000)).toBeNull();
    expect(legiDate("2222-02-22")).toBeNull();
    expect(legiDate("2222-02-21T23:00:00.000Z")).toBeNull();
    expect(legiDate("2222-02-21")).toBe("2222-02-21");
    expect(legiDate("2099-12-31")).toBe("2099-12-31");
  });
  it("reads index instants at Paris midnight as that Paris date", () => {
    expect(legiDate("1973-01-02T23:00:00.000Z")).toBe("1973-01-03");
    expect(legiDate("2018-09-30T22:00:00.000Z")).toBe("2018-10-01");
    expect(legiDate("2998-12-31T23:00:00.000Z")).toBeNull();
  });
});

describe("LEGI adapter on a real excerpt", () => {
  const { document, duplicatesDropped } = adaptLegiCode(
    excerpt(),
    "excerpt.json",
    "@socialgouv/legi-data@test",
  );
  const doc = canonicalDocumentSchema.parse(document);
  const byNumber = (n: string) => doc.provisions.filter((p) => p.number === n);

  it("produces a valid canonical document", () => {
    expect(doc.publicId).toBe("code-du-travail");
    expect(doc.source).toEqual({
      name: "legi",
      documentId: "LEGITEXT000006072050",
      version: "@socialgouv/legi-data@test",
    });
    expect(doc.provisions).toHaveLength(7);
    expect(duplicatesDropped).toEqual([]);
  });

  it("keeps the stable cid as source id and the current version id", () => {
    const [article] = byNumber("L1221-19");
    expect(article?.sourceId).toBe("LEGIARTI000019067614");
    expect(article?.versionId).toBe("LEGIARTI000019071113");
    expect(article?.effectiveFrom).toBe("2008-06-27");
    expect(article?.effectiveTo).toBeNull();
    expect(article?.status).toBe("in_force");
    expect(article?.text).toMatch(/période d'essai/);
  });

  it("maps the version history, with text only for the current version", () => {
    const [article] = byNumber("R4451-39");
    expect(article?.versions.map((v) => [v.status, v.effectiveFrom, v.text !== null])).toEqual([
      ["superseded", "2010-07-05", false],
      ["in_force", "2018-07-01", true],
      ["not_yet_in_force", "2027-07-01", false],
    ]);
    expect(article?.effectiveTo).toBe("2027-07-01");
  });

  it("reads statuses on the snapshot date: deferred entry and deferred repeal", () => {
    expect(byNumber("D1142-19")[0]?.status).toBe("in_force");
    const [repealedLater] = byNumber("Annexe I");
    expect(repealedLater?.sourceStatus).toBe("ABROGE_DIFF");
    expect(repealedLater?.status).toBe("in_force");
    expect(repealedLater?.effectiveTo).toBe("2029-03-01");
    // Repealed on 1 March 2029 and replaced the same day by a new version: replaced, not ended.
    expect(repealedLater?.versions.map((v) => [v.sourceStatus, v.repealedOn])).toEqual([
      ["ABROGE_DIFF", null],
      ["VIGUEUR_DIFF", null],
    ]);
    expect(byNumber("R4451-39")[0]?.versions.map((v) => v.repealedOn)).toEqual([null, null, null]);
  });

  it("turns amending links into acts with dates and directions", () => {
    const link = byNumber("L1237-1-1")[0]?.links[0];
    expect(link).toMatchObject({ direction: "amended_by", actKind: "LOI" });
    expect(link?.actId).toMatch(/^JORFTEXT\d+$/);
    expect(link?.effectiveOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("keeps the section hierarchy in document order with parents first", () => {
    const ids = new Set<string>();
    for (const section of doc.sections) {
      if (section.parentId) expect(ids.has(section.parentId)).toBe(true);
      ids.add(section.id);
    }
    expect(doc.sections[0]?.parentId).toBeNull();
    expect(doc.sections.some((s) => s.title.includes("  "))).toBe(false);
  });

  it("drops an article repeated with identical content and refuses one repeated with other content", () => {
    const code = excerpt();
    const firstSection = code.children[0]!;
    const twice = { ...code, children: [...code.children, firstSection] };
    expect(adaptLegiCode(twice, "x.json", null).duplicatesDropped.length).toBeGreaterThan(0);
    // As in the 2.229.0 snapshot: the same article filed under a second section.
    const elsewhere = {
      ...firstSection,
      data: { ...firstSection.data, id: "LEGISCTA-OTHER" },
    } as typeof firstSection;
    const moved = adaptLegiCode({ ...code, children: [...code.children, elsewhere] }, "x.json", null);
    expect(moved.duplicatesDropped.length).toBeGreaterThan(0);
    expect(moved.document.provisions).toHaveLength(7);

    const altered = JSON.parse(JSON.stringify(firstSection));
    const findArticle = (n: {
      type: string;
      children?: unknown[];
      data: { texte?: string };
    }): typeof n | undefined =>
      n.type === "article" ? n : (n.children as (typeof n)[]).map(findArticle).find(Boolean);
    findArticle(altered)!.data.texte = "autre texte";
    expect(() => adaptLegiCode({ ...code, children: [...code.children, altered] }, "x.json", null)).toThrow(
      /appears twice with different content/,
    );
  });

  it("names the file and the field when an id is missing", () => {
    const code = excerpt();
    const broken = JSON.parse(JSON.stringify(code).replace('"num":"L1221-19"', '"num":""'));
    try {
      adaptLegiCode(broken, "broken.json", null);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).file).toBe("broken.json");
      expect((error as InputError).field).toMatch(/^children\[\d+\]\.children.*\.data\.num$/);
    }
  });
});

describe("LEGI adapter on damaged values (found by fuzzing)", () => {
  it("refuses a date LEGI never writes, naming the field", () => {
    const code = excerpt();
    (code.children[0] as { data: { dateDebut: unknown } }).data.dateDebut = "100";
    expect(() => adaptLegiCode(code, "code.json", null)).toThrow(
      'code.json: children[0].data.dateDebut: expected a date, found "100"',
    );
  });
});

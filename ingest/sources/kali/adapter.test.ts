import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { InputError } from "../../../services/core/errors.ts";
import { assignProvisionIds } from "../../../services/core/public-ids.ts";
import { canonicalDocumentSchema } from "../../model.ts";
import { sectionPaths } from "../../pipeline/rows.ts";
import { adaptKaliAgreement, cleanText, kaliText, textLabel } from "./adapter.ts";
import type { KaliAgreement } from "./types.ts";

// A real excerpt of the Syntec agreement (test/fixtures/kali/make-excerpt.ts made it).
const fixture = new URL("../../../test/fixtures/kali/syntec-excerpt.json", import.meta.url);
const excerpt = () => JSON.parse(readFileSync(fixture, "utf8")) as KaliAgreement;
const SNAPSHOT = { label: "@socialgouv/kali-data@test", date: "2026-08-24" };

describe("KALI adapter on a real excerpt", () => {
  const { document, withoutText, idcc } = adaptKaliAgreement(excerpt(), "syntec.json", SNAPSHOT);
  const doc = canonicalDocumentSchema.parse(document);
  const bySource = (cid: string) => doc.provisions.find((p) => p.sourceId === cid)!;

  it("makes one collective agreement, public id from its IDCC, dated by its snapshot", () => {
    expect(idcc).toBe("1486");
    expect(doc.publicId).toBe("idcc-1486");
    expect(doc.kind).toBe("collective_agreement");
    expect(doc.source).toEqual({
      name: "kali",
      documentId: "KALICONT000005635173",
      version: "@socialgouv/kali-data@test",
    });
    expect(doc.title).toMatch(/^Convention collective nationale des bureaux d'études techniques/);
    expect(doc.modifiedOn).toBe("2026-08-24");
    expect(doc.shortTitle).toBe(
      "Bureaux d'études techniques, cabinets d'ingénieurs-conseils et sociétés de conseils",
    );
    // Usual names come from the rules file, at ingest (ingest/load.ts), not from the source.
    expect(doc.aliases).toEqual([]);
  });

  it("keeps the stable cid as source id, the version id, the text and the heading", () => {
    const trial = bySource("KALIARTI000044253063");
    expect(trial.number).toBe("3.4");
    expect(trial.versionId).toBe("KALIARTI000047513825");
    expect(trial.heading).toBe("Période d'essai");
    expect(trial.status).toBe("in_force");
    expect(trial.sourceStatus).toBe("VIGUEUR");
    expect(trial.text).toMatch(
      /^La période d'essai et la possibilité de la renouveler ne se présument pas\./,
    );
    // Tables become aligned rows; no HTML is left in the text.
    expect(trial.text).toMatch(/Inférieur à 8 jours +24 heures +24 heures/);
    expect(trial.text).not.toMatch(/<\w|&\w+;/);
    expect(trial.html).toMatch(/^<p/);
    expect(trial.versions).toHaveLength(1);
    expect(trial.versions[0]!.text).toBe(trial.text);
  });

  it("dates a version by the latest act that amended it, never by an extension order's placeholder", () => {
    const trial = bySource("KALIARTI000044253063");
    expect(trial.effectiveFrom).toBe("2023-05-01");
    expect(trial.links.find((l) => l.relation === "MODIFIE")).toMatchObject({
      actId: "KALITEXT000047006904",
      direction: "amended_by",
      effectiveOn: "2023-05-01",
    });
    const extension = trial.links.find((l) => l.relation === "ETEND")!;
    expect(extension.effectiveOn).toBeNull();
    // Only extended, never amended: the source gives no date.
    expect(bySource("KALIARTI000044253037").effectiveFrom).toBeNull();
  });

  it("numbers articles as cited: plain in the base text, by their text in an attached one", () => {
    expect(bySource("KALIARTI000044253031").number).toBe("7");
    expect(bySource("KALIARTI000051694830").number).toBe("Avenant n° 8 du 14 février 2025, art. 2.1");
    expect(bySource("KALIARTI000051694830").heading).toBe("Hospitalisation en établissement conventionné");
    // In an attached text, without number or heading: the text, then the section holding it.
    expect(bySource("KALIARTI000051694820").number).toBe("Avenant n° 8 du 14 février 2025, Préambule");
    // No number and no heading: the section holding it stands for it.
    expect(bySource("KALIARTI000044253037").number).toBe("Préambule");
    expect(bySource("KALIARTI000044253037").heading).toBeNull();
  });

  it("drops articles without any text and says which", () => {
    expect(withoutText.sort()).toEqual([
      "KALIARTI000019732091",
      "KALIARTI000027661887",
      "KALIARTI000051694829",
    ]);
    expect(doc.provisions.map((p) => p.sourceId)).not.toContain("KALIARTI000019732091");
  });

  it("keeps the tree, the groups of attached texts included, and ends a path with the heading", () => {
    const top = doc.sections.filter((s) => s.parentId === null).map((s) => s.title);
    expect(top[0]).toMatch(/^Texte de base : /);
    expect(top[1]).toBe("Textes Attachés");
    const group = doc.sections.find((s) => s.title === "Textes Attachés")!;
    expect(group.id).toBe("KALICONT000005635173/textes-attaches");
    const trial = bySource("KALIARTI000044253063");
    expect(sectionPaths(doc).get(trial.sectionId!)!.slice(-2)).toEqual([
      "Annexe 1 : convention collective nationale",
      "Titre 3 Conditions d'engagement et d'exécution du contrat de travail",
    ]);
    expect(new Set(doc.sections.map((s) => s.id)).size).toBe(doc.sections.length);
  });

  it("gives public ids a lawyer can read", () => {
    const ids = assignProvisionIds(doc.publicId, doc.provisions);
    expect(ids.get("KALIARTI000044253063")).toBe("idcc-1486/3-4");
    expect(ids.get("KALIARTI000051694830")).toBe("idcc-1486/Avenant-n-8-du-14-fevrier-2025-art-2-1");
  });

  it("is deterministic", () => {
    expect(adaptKaliAgreement(excerpt(), "syntec.json", SNAPSHOT)).toEqual(
      adaptKaliAgreement(excerpt(), "syntec.json", SNAPSHOT),
    );
  });
});

describe("KALI adapter on what the package also holds", () => {
  it("returns no document for an agreement listed by title only, split per IDCC or not", () => {
    const split = {
      type: "section",
      data: { id: "KALICONT000005635842-1007", nature: "IDCC", num: 1007, title: "Métallurgie de Thiers" },
      children: [],
    } as unknown as KaliAgreement;
    expect(adaptKaliAgreement(split, "x.json", SNAPSHOT)).toEqual({
      document: undefined,
      withoutText: [],
      idcc: "1007",
    });
  });

  it("refuses a damaged file with the file and the field named", () => {
    const cases: Array<[unknown, string]> = [
      [{ type: "code", data: {} }, "type"],
      [{ type: "convention collective", data: { id: "K", title: "T", num: "12a" } }, "data.num"],
      [{ type: "convention collective", data: { title: "T" } }, "data.id"],
      [
        {
          type: "convention collective",
          data: { id: "K", title: "T", num: 1 },
          children: [{ type: "article", data: { cid: "A", content: "<p>x</p>" } }],
        },
        "children[0].data.id",
      ],
      [
        {
          type: "convention collective",
          data: { id: "K", title: "T", num: 1 },
          children: [{ type: "tableau", data: {} }],
        },
        "children[0].type",
      ],
    ];
    for (const [value, field] of cases) {
      let error: unknown;
      try {
        adaptKaliAgreement(value as KaliAgreement, "bad.json", SNAPSHOT);
      } catch (caught) {
        error = caught;
      }
      expect(error, field).toBeInstanceOf(InputError);
      expect((error as InputError).file).toBe("bad.json");
      expect((error as InputError).field).toBe(field);
    }
  });

  it("names attached texts up to their date", () => {
    expect(textLabel("Avenant n° 8 du 14 février 2025 à l'accord du 7 octobre 2015 relatif à la santé")).toBe(
      "Avenant n° 8 du 14 février 2025",
    );
    expect(textLabel("Accord du 1er juillet 2008 relatif à la GPEC")).toBe("Accord du 1er juillet 2008");
    expect(textLabel("Annexe 1 relative aux salaires, aux indemnités et avantages en nature")).toBe(
      "Annexe 1",
    );
    expect(textLabel("Grilles de salaires - Filière soignante")).toBe(
      "Grilles de salaires - Filière soignante",
    );
  });

  it("reads HTML as text: paragraphs, line breaks, entities", () => {
    expect(kaliText("<p>Un&nbsp;salarié</p><p>L'employeur<br/>doit.</p>")).toBe(
      "Un\u00a0salarié\n\nL'employeur\ndoit.",
    );
    expect(kaliText('<p><a href="https://x">article L. 1234-1</a></p>')).toBe("article L. 1234-1");
  });
});

describe("KALI text hygiene", () => {
  it("reads every store alike: no soft hyphen, plain spaces, composed accents, n°", () => {
    expect(cleanText("responsa\u00adbilités")).toBe("responsabilités");
    expect(cleanText("Date d'effet.\u2002Durée")).toBe("Date d'effet. Durée");
    expect(cleanText("l\u0092employeur")).toBe("l’employeur");
    expect(cleanText("ore\u0301")).toBe("oré");
    expect(cleanText("avenant nº 3")).toBe("avenant n° 3");
    // A no-break space is ordinary French typography, read alike everywhere: kept.
    expect(cleanText("article\u00a03")).toBe("article\u00a03");
  });
});

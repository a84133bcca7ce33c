import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { type CanonicalDocument, canonicalDocumentSchema } from "../../ingest/model.ts";
import { validateDocument } from "../../ingest/pipeline/validate.ts";
import { readCanonicalFile } from "../../ingest/sources/canonical/adapter.ts";
import { inputError } from "../../test/helpers/input-error.ts";
import { classify, fold, loadDomainRules, parseDomainRules } from "./classify.ts";

const RULES = "rules.yaml";

/** Rules from YAML lines under `rules:`. */
const rules = (body: string) => parseDomainRules(`version: 1\nrules:\n${body}`, RULES);

interface SectionSpec {
  id: string;
  parentId: string | null;
  title: string;
}

/** A document with the given sections and one provision per entry of `provisions` (source id → section). */
function documentWith(
  fields: { documentId?: string; publicId?: string; title?: string; kind?: string },
  sections: SectionSpec[],
  provisions: Record<string, string | null>,
): CanonicalDocument {
  return canonicalDocumentSchema.parse({
    source: { name: "test", documentId: fields.documentId ?? "TEXT1" },
    publicId: fields.publicId ?? "texte-de-test",
    kind: fields.kind ?? "code",
    title: fields.title ?? "Texte de test",
    jurisdiction: "FR",
    status: "in_force",
    effectiveFrom: null,
    effectiveTo: null,
    sections,
    provisions: Object.entries(provisions).map(([sourceId, sectionId]) => ({
      sourceId,
      versionId: `${sourceId}-v1`,
      number: sourceId,
      text: "Texte.",
      status: "in_force",
      effectiveFrom: null,
      effectiveTo: null,
      sectionId,
    })),
  });
}

describe("parseDomainRules", () => {
  it("compiles a valid rules file and hashes its content", () => {
    const source = `version: 1
rules:
  - name: Code du travail
    match: { document: [LEGITEXT000006072050, code-du-travail] }
    domains: [labour]
  - name: Prud'hommes
    match: { section: "prud'hom" }
    domains: [procedure, labour]
`;
    const parsed = parseDomainRules(source, RULES);
    expect(parsed.file).toBe(RULES);
    expect(parsed.rules.map((r) => [r.name, r.domains])).toEqual([
      ["Code du travail", ["labour"]],
      ["Prud'hommes", ["procedure", "labour"]],
    ]);
    expect(parsed.rules[0]!.documents).toEqual(new Set(["LEGITEXT000006072050", "code-du-travail"]));
    expect(parsed.rules[0]!.section).toBeNull();
    expect(parsed.hash).toMatch(/^[\w-]{32}$/);
    // The same rules written differently hash the same; a change of domain does not.
    const restyled = `# comment\n${source.replace("domains: [labour]", "domains:\n      - labour")}`;
    expect(parseDomainRules(restyled, RULES).hash).toBe(parsed.hash);
    expect(parseDomainRules(source.replace("[labour]", "[civil]"), RULES).hash).not.toBe(parsed.hash);
  });

  it("names the rule and the domain index of an unknown domain", () => {
    const error = inputError(() =>
      rules(`  - name: A
    match: { document: [X] }
    domains: [labour]
  - name: B
    match: { title: "travail" }
    domains: [labour, labor]
`),
    );
    expect(error.file).toBe(RULES);
    expect(error.field).toBe("rules.1.domains.1");
    expect(error.problem).toMatch(/^unknown domain "labor"; expected one of constitutional, civil, /);
    expect(error.message).toBe(`${RULES}: rules.1.domains.1: ${error.problem}`);
  });

  it.each([
    ["title", `{ title: "code (du" }`, "rules.0.match.title"],
    ["section", `{ document: [X], section: "[a-" }`, "rules.0.match.section"],
  ])("rejects an invalid regular expression in %s", (_, match, field) => {
    const error = inputError(() => rules(`  - name: A\n    match: ${match}\n    domains: [labour]\n`));
    expect(error.field).toBe(field);
    expect(error.problem).toMatch(/^invalid regular expression: /);
  });

  it("rejects malformed YAML", () => {
    const error = inputError(() => parseDomainRules("version: 1\nrules: [\n  - name: A\n", RULES));
    expect(error.file).toBe(RULES);
    expect(error.field).toBe("(yaml)");
    expect(error.problem).toMatch(/^malformed YAML: /);
  });

  it("rejects a rule without any match condition", () => {
    const error = inputError(() => rules("  - name: A\n    match: {}\n    domains: [labour]\n"));
    expect(error.field).toBe("rules.0.match");
    expect(error.problem).toBe("needs at least one of document, kind, title, section");
  });

  it.each([
    [
      "an unknown match key",
      "  - name: A\n    match: { heading: x }\n    domains: [labour]\n",
      "rules.0.match",
    ],
    ["no domains", "  - name: A\n    match: { title: x }\n    domains: []\n", "rules.0.domains"],
    ["a rule without name", "  - match: { title: x }\n    domains: [labour]\n", "rules.0.name"],
  ])("rejects %s", (_, body, field) => {
    expect(inputError(() => rules(body)).field).toBe(field);
  });

  it("rejects a file of another version, and an empty file", () => {
    expect(inputError(() => parseDomainRules("version: 2\nrules: []\n", RULES)).field).toBe("version");
    expect(inputError(() => parseDomainRules("", RULES)).field).toBe("(root)");
  });

  it("reports a rules file that does not exist", () => {
    const error = inputError(() => loadDomainRules("/nonexistent/domains.yaml"));
    expect([error.file, error.field]).toEqual(["/nonexistent/domains.yaml", "path"]);
  });
});

describe("classify", () => {
  const sections: SectionSpec[] = [
    { id: "l1", parentId: null, title: "Livre Ier : Les relations individuelles de travail" },
    {
      id: "l1t2",
      parentId: "l1",
      title: "Titre II : Maternité, paternité, adoption et éducation des enfants",
    },
    { id: "l4", parentId: null, title: "Livre IV : La résolution des litiges – Le conseil de PRUD'HOMMES" },
    { id: "l4t1", parentId: "l4", title: "Titre Ier : Attributions" },
  ];
  const provisions = { a: "l1", b: "l1t2", c: "l4t1", d: null };

  it("gives every provision the domains of the rules that match its document", () => {
    const doc = documentWith({ documentId: "LEGI1", publicId: "code-a" }, sections, provisions);
    const result = classify(
      doc,
      rules(`  - name: by source id
    match: { document: [LEGI1] }
    domains: [labour]
  - name: by public id
    match: { document: [code-a] }
    domains: [civil]
  - name: another document
    match: { document: [LEGI2] }
    domains: [tax]
`),
    );
    expect(result.document).toEqual(["civil", "labour"]);
    for (const id of ["a", "b", "c", "d"]) expect(result.provisions.get(id)).toEqual(["civil", "labour"]);
  });

  it("matches titles with accents folded and case ignored", () => {
    const doc = documentWith({ title: "Code de la SÉCURITÉ sociale" }, [], { a: null });
    const matched = classify(
      doc,
      rules('  - name: t\n    match: { title: "^code de la securite" }\n    domains: [tax]\n'),
    );
    expect(matched.document).toEqual(["tax"]);
    const written = classify(
      doc,
      rules('  - name: t\n    match: { title: "Sécurité Sociale$" }\n    domains: [tax]\n'),
    );
    expect(written.document).toEqual(["tax"]);
  });

  it("applies section rules to the provisions under a matching heading at any depth, folding accents and case", () => {
    const doc = documentWith({}, sections, provisions);
    const result = classify(
      doc,
      rules(`  - name: family leave
    match: { section: "maternite|paternite" }
    domains: [family]
  - name: labour courts
    match: { section: "prud'hom" }
    domains: [procedure]
`),
    );
    expect(Object.fromEntries(result.provisions)).toEqual({ a: [], b: ["family"], c: ["procedure"], d: [] });
    // Section rules do not classify the document itself.
    expect(result.document).toEqual([]);
  });

  it("gives the union of document and section domains, in the API's order and without repeats", () => {
    const doc = documentWith({ documentId: "LEGI1" }, sections, provisions);
    const result = classify(
      doc,
      rules(`  - name: document
    match: { document: [LEGI1] }
    domains: [procedure, labour]
  - name: book I
    match: { document: [LEGI1], section: "relations individuelles" }
    domains: [civil]
  - name: maternity
    match: { section: "maternite" }
    domains: [family, labour]
`),
    );
    expect(result.document).toEqual(["labour", "procedure"]);
    expect(Object.fromEntries(result.provisions)).toEqual({
      a: ["civil", "labour", "procedure"],
      b: ["civil", "labour", "family", "procedure"],
      c: ["labour", "procedure"],
      d: ["labour", "procedure"],
    });
  });

  it("does not apply a section rule restricted to another document", () => {
    const doc = documentWith({ documentId: "LEGI1" }, sections, provisions);
    const result = classify(
      doc,
      rules('  - name: s\n    match: { document: [LEGI2], section: "maternite" }\n    domains: [family]\n'),
    );
    expect(result.provisions.get("b")).toEqual([]);
  });

  it("requires every condition of a rule to match", () => {
    const doc = documentWith({ documentId: "LEGI1", title: "Code du travail" }, [], { a: null });
    const both = '  - name: r\n    match: { document: [LEGI1], title: "%" }\n    domains: [labour]\n';
    expect(classify(doc, rules(both.replace("%", "travail"))).document).toEqual(["labour"]);
    expect(classify(doc, rules(both.replace("%", "commerce"))).document).toEqual([]);
  });

  it("keeps the escapes and anchors of a pattern as written", () => {
    const doc = documentWith(
      {},
      [
        { id: "s1", parentId: null, title: "Chapitre Ier : Dispositions générales" },
        { id: "s2", parentId: null, title: "Chapitre 2 : Dispositions générales" },
        { id: "s3", parentId: null, title: "Sous-chapitre Ier" },
      ],
      { a: "s1", b: "s2", c: "s3" },
    );
    // \D is "not a digit" (lower-casing the pattern would make it \d), ^ anchors the heading (so
    // "Sous-chapitre" does not match), and \p{L} is a valid class (lower-cased, \p{l} is not).
    const result = classify(
      doc,
      rules('  - name: r\n    match: { section: "^chapitre \\\\D" }\n    domains: [civil]\n'),
    );
    expect(Object.fromEntries(result.provisions)).toEqual({ a: ["civil"], b: [], c: [] });
    expect(() =>
      rules('  - name: r\n    match: { section: "\\\\p{L}+ ier" }\n    domains: [civil]\n'),
    ).not.toThrow();
  });

  it("leaves a document no rule matches unclassified", () => {
    const doc = documentWith({ documentId: "LEGI9", title: "Code de commerce" }, sections, provisions);
    const result = classify(
      doc,
      rules(
        '  - name: r\n    match: { document: [LEGI1] }\n    domains: [labour]\n  - name: s\n    match: { section: "impots" }\n    domains: [tax]\n',
      ),
    );
    expect(result.document).toEqual([]);
    expect(Object.fromEntries(result.provisions)).toEqual({ a: [], b: [], c: [], d: [] });
  });

  it("folds accents and case", () => {
    expect(fold("Sécurité SOCIALE, prud’hommes, maïs, Œuvre")).toBe(
      "securite sociale, prud’hommes, mais, œuvre",
    );
  });
});

describe("the shipped rules, ingest/rules/domains.yaml", () => {
  const shipped = loadDomainRules(fileURLToPath(new URL("../../ingest/rules/domains.yaml", import.meta.url)));

  it("loads", () => {
    expect(shipped.rules.length).toBeGreaterThan(10);
    expect(shipped.rules[0]!.name).toBe("Code du travail");
  });

  it("classifies the Code du travail (LEGITEXT000006072050) as labour, and its sections further", () => {
    const doc = documentWith(
      { documentId: "LEGITEXT000006072050", publicId: "code-du-travail", title: "Code du travail" },
      [
        { id: "p1", parentId: null, title: "Partie législative" },
        { id: "l1", parentId: "p1", title: "Livre Ier : Les relations individuelles de travail" },
        {
          id: "l1t2",
          parentId: "l1",
          title: "Titre II : Maternité, paternité, adoption et éducation des enfants",
        },
        {
          id: "l4",
          parentId: "p1",
          title: "Livre IV : La résolution des litiges - Le conseil de prud'hommes",
        },
      ],
      { "L1111-1": "l1", "L1225-1": "l1t2", "L1411-1": "l4", preliminary: null },
    );
    const result = classify(doc, shipped);
    expect(result.document).toEqual(["labour"]);
    expect(Object.fromEntries(result.provisions)).toEqual({
      "L1111-1": ["labour"],
      "L1225-1": ["labour", "family"],
      "L1411-1": ["labour", "procedure"],
      preliminary: ["labour"],
    });
  });

  it("classifies every collective agreement as labour by its kind, family leave and disputes further", () => {
    const doc = documentWith(
      {
        documentId: "KALICONT000005635173",
        publicId: "idcc-1486",
        title: "Convention collective Syntec",
        kind: "collective_agreement",
      },
      [
        { id: "t", parentId: null, title: "Texte de base" },
        { id: "t4", parentId: "t", title: "Titre 9 Parentalité et évènements familiaux" },
        {
          id: "t8",
          parentId: "t",
          title: "Titre 8 Commission paritaire permanente de négociation et d'interprétation",
        },
      ],
      { a: "t", b: "t4", c: "t8" },
    );
    const result = classify(doc, shipped);
    expect(result.document).toEqual(["labour"]);
    expect(Object.fromEntries(result.provisions)).toEqual({
      a: ["labour"],
      b: ["labour", "family"],
      c: ["labour", "procedure"],
    });
    // The same title under another kind matches no rule on kinds.
    expect(classify({ ...doc, kind: "law" }, shipped).document).toEqual([]);
  });

  it("leaves the example act of test/fixtures/canonical unclassified", () => {
    const file = fileURLToPath(new URL("../../test/fixtures/canonical/loi-exemple.json", import.meta.url));
    const doc = validateDocument(readCanonicalFile(file)[0]!, file);
    const result = classify(doc, shipped);
    expect(result.document).toEqual([]);
    expect([...result.provisions.values()]).toEqual([[], [], [], [], []]);
  });
});

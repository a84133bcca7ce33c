import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { CANONICAL_FORMAT } from "./format.ts";
import { canonicalJsonSchema } from "./json-schema.ts";

const SCHEMA_FILE = fileURLToPath(new URL("../../../docs/canonical-document.schema.json", import.meta.url));
const REGENERATE = "npx tsx services/runtime/cli.ts schema > docs/canonical-document.schema.json";

const fixture = (name: string): unknown =>
  JSON.parse(
    readFileSync(fileURLToPath(new URL(`../../../test/fixtures/canonical/${name}`, import.meta.url)), "utf8"),
  );

describe("docs/canonical-document.schema.json", () => {
  it("is exactly what `corpus schema` prints", () => {
    // `corpus schema` prints the schema with console.log: two-space JSON and a final newline.
    const generated = `${JSON.stringify(canonicalJsonSchema(), null, 2)}\n`;
    expect(
      readFileSync(SCHEMA_FILE, "utf8"),
      `docs/canonical-document.schema.json is out of date; regenerate it with \`${REGENERATE}\``,
    ).toBe(generated);
  });
});

describe("the canonical JSON Schema, checked by Ajv (draft 2020-12)", () => {
  // Dates carry both `format: date` and a pattern; Ajv knows no formats without ajv-formats, so
  // `date` is declared here and the pattern does the checking.
  const ajv = new Ajv2020({ strict: true, allErrors: true, formats: { date: true } });
  const validate = ajv.compile(JSON.parse(readFileSync(SCHEMA_FILE, "utf8")));
  const errors = () => (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);

  it("is a valid 2020-12 schema for the canonical file", () => {
    const schema = canonicalJsonSchema();
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(ajv.validateSchema(schema)).toBe(true);
  });

  it("accepts the example act", () => {
    expect(validate(fixture("loi-exemple.json")), errors().join("\n")).toBe(true);
  });

  it("accepts a minimal file that relies on every default", () => {
    const minimal = {
      format: CANONICAL_FORMAT,
      documents: [{ id: "loi-min", title: "Loi minimale", body: [{ article: "1", text: "Texte." }] }],
    };
    expect(validate(minimal), errors().join("\n")).toBe(true);
  });

  it("rejects a wrong format value", () => {
    expect(validate(fixture("broken-wrong-format.json"))).toBe(false);
    expect(validate.errors!.some((e) => e.instancePath === "/format" && e.keyword === "const")).toBe(true);
  });

  it("rejects an article without text", () => {
    expect(validate(fixture("broken-missing-text.json"))).toBe(false);
    expect(
      validate.errors!.some(
        (e) =>
          e.instancePath === "/documents/0/body/0/body/1" &&
          e.keyword === "required" &&
          e.params.missingProperty === "text",
      ),
      errors().join("\n"),
    ).toBe(true);
  });

  it("rejects an impossible date and an unknown key", () => {
    const broken = {
      format: CANONICAL_FORMAT,
      documents: [
        {
          id: "loi-x",
          title: "Loi",
          body: [{ article: "1", text: "Texte.", effectiveFrom: "2016-02-30", efectiveTo: null }],
        },
      ],
    };
    expect(validate(broken)).toBe(false);
    const at = (path: string, keyword: string) =>
      validate.errors!.some((e) => e.instancePath === path && e.keyword === keyword);
    expect(at("/documents/0/body/0/effectiveFrom", "pattern"), errors().join("\n")).toBe(true);
    expect(at("/documents/0/body/0", "additionalProperties"), errors().join("\n")).toBe(true);
  });

  it("cannot see duplicate article numbers: only `corpus ingest file` rejects those", () => {
    expect(validate(fixture("broken-duplicate-article.json"))).toBe(true);
  });
});

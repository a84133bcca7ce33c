import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError } from "../../services/core/errors.ts";
import { canonicalDocumentSchema } from "../model.ts";
import { parseCanonicalFile } from "./canonical/adapter.ts";
import { adaptLegiCode } from "./legi/adapter.ts";
import type { LegiCode } from "./legi/types.ts";

/**
 * Property-based fuzzing of the ingest formats (fast-check): a real file with one random change
 * anywhere (a value replaced by any JSON, a key removed, an object turned into an array) is either
 * read into a valid canonical document or refused with an InputError naming the file and the
 * field. Never a TypeError, never a document the canonical model would refuse later.
 */
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../test/fixtures/${name}`, import.meta.url), "utf8")) as unknown;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every path to a value inside a JSON document, the root included. */
function paths(value: Json, prefix: Array<string | number> = []): Array<Array<string | number>> {
  const here = [prefix];
  if (Array.isArray(value)) return here.concat(...value.map((v, i) => paths(v, [...prefix, i])));
  if (value && typeof value === "object")
    return here.concat(...Object.entries(value).map(([k, v]) => paths(v, [...prefix, k])));
  return here;
}

const mutation = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom("replace", "delete", "to-array", "empty-string"),
  value: fc.jsonValue({ maxDepth: 2 }),
});

function mutate(original: Json, change: MutationValue): Json {
  const document = structuredClone(original);
  const all = paths(document);
  const path = all[change.at % all.length]!;
  const replacement: Json =
    change.kind === "replace" ? (change.value as Json) : change.kind === "empty-string" ? "" : null;
  if (path.length === 0) return change.kind === "to-array" ? [document] : replacement;
  const parent = path
    .slice(0, -1)
    .reduce<Json>((node, key) => (node as Record<string, Json>)[key]!, document) as
    | Record<string, Json>
    | Json[];
  const key = path.at(-1)!;
  const current = (parent as Record<string | number, Json>)[key]!;
  if (change.kind === "delete") {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key as string];
  } else if (change.kind === "to-array") {
    (parent as Record<string | number, Json>)[key] = [current];
  } else {
    (parent as Record<string | number, Json>)[key] = replacement;
  }
  return document;
}
type MutationValue = { at: number; kind: string; value: unknown };

/** Runs `read`; an InputError must name the file and a field, anything else is a bug. */
function readOrRefuse(read: () => unknown[], file: string) {
  try {
    for (const document of read()) expect(canonicalDocumentSchema.safeParse(document).success).toBe(true);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    expect(error.file).toBe(file);
    expect(error.field.length).toBeGreaterThan(0);
    expect(error.problem.length).toBeGreaterThan(0);
  }
}

describe("ingest formats under random changes", () => {
  it("canonical JSON: reads or refuses with the file and the field", () => {
    const original = fixture("canonical/loi-exemple.json") as Json;
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (changes) => {
        const changed = changes.reduce<Json>((doc, change) => mutate(doc, change), original);
        readOrRefuse(() => parseCanonicalFile(changed, "loi.json"), "loi.json");
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 1000) },
    );
  }, 120_000);

  it("LEGI code JSON: reads or refuses with the file and the field", () => {
    const original = fixture("legi/code-du-travail-excerpt.json") as Json;
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (changes) => {
        const changed = changes.reduce<Json>((doc, change) => mutate(doc, change), original);
        readOrRefuse(
          () => [adaptLegiCode(changed as unknown as LegiCode, "code.json", null).document],
          "code.json",
        );
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 1000) },
    );
  }, 120_000);

  it("any JSON at all: refused with the file named", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        readOrRefuse(() => parseCanonicalFile(value, "any.json"), "any.json");
        readOrRefuse(
          () => [adaptLegiCode(value as unknown as LegiCode, "any.json", null).document],
          "any.json",
        );
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 1000) },
    );
  }, 120_000);
});

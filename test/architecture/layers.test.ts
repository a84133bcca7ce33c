import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The layers of docs/ARCHITECTURE.md, checked: which folder may import which. A layer may import
 * its own folder and the layers listed for it; `types` lists layers it may take types from only
 * (records it presents, the context it runs in), never code that runs. A new import across the
 * rules fails here, naming the file and what it imports.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Layers by folder, most specific first. Files elsewhere (test/, infra/, bin/) are not checked. */
const LAYERS: Array<[prefix: string, layer: string]> = [
  ["services/core/", "core"],
  ["services/store/", "store"],
  ["services/access/", "access"],
  ["services/search/", "search"],
  ["services/corpus/", "corpus"],
  ["services/answer/", "answer"],
  ["services/presenters/", "presenters"],
  ["services/mcp/", "mcp"],
  ["services/console/", "console"],
  ["services/api/", "api"],
  ["services/jobs/", "jobs"],
  ["services/runtime/", "runtime"],
  ["ingest/", "ingest"],
  ["cli/", "cli"],
];

interface Rule {
  imports: string[];
  types?: string[];
}

const RULES: Record<string, Rule> = {
  core: { imports: [] },
  store: { imports: ["core"] },
  access: { imports: ["core", "store"] },
  search: { imports: ["core", "store", "access"] },
  ingest: { imports: ["core", "store"] },
  corpus: { imports: ["core", "store", "access", "search"] },
  answer: { imports: ["core", "store", "access", "search", "corpus"], types: ["runtime"] },
  presenters: { imports: ["core", "access", "search", "corpus", "answer"], types: ["store"] },
  mcp: { imports: ["core", "access", "corpus", "presenters", "answer"], types: ["store", "runtime"] },
  console: { imports: ["core", "access", "store", "corpus", "presenters"], types: ["runtime"] },
  jobs: { imports: ["core", "store", "search", "ingest"] },
  api: {
    imports: ["core", "access", "corpus", "presenters", "answer", "mcp", "console", "jobs", "store"],
    types: ["runtime", "search"],
  },
  runtime: {
    imports: [
      "core",
      "store",
      "access",
      "search",
      "corpus",
      "answer",
      "jobs",
      "ingest",
      "api",
      "mcp",
      "presenters",
      "cli",
    ],
  },
  cli: { imports: ["core", "store", "access", "search", "jobs", "ingest"] },
};

const layerOf = (file: string) => LAYERS.find(([prefix]) => file.startsWith(prefix))?.[1];

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts"))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)));
}

/**
 * Every relative import of a file, resolved, and whether it takes types only. Read with patterns,
 * not a parser (TypeScript 7 has no JavaScript API): the code is formatted by Biome, so every
 * static import or re-export starts a line and ends with `from "…";`.
 */
function importsOf(file: string): Array<{ target: string; typeOnly: boolean }> {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const found: Array<{ target: string; typeOnly: boolean }> = [];
  const add = (specifier: string, typeOnly: boolean) => {
    if (specifier.startsWith(".")) found.push({ target: path.join(path.dirname(file), specifier), typeOnly });
  };
  for (const m of text.matchAll(/^(import|export)\s+(type\s+)?([^;]*?)\s*from\s+"([^"]+)";/gms)) {
    const names =
      /\{([^}]*)\}/
        .exec(m[3]!)?.[1]
        ?.split(",")
        .map((n) => n.trim())
        .filter(Boolean) ?? [];
    const everyNameTypeOnly =
      !/^\w+\s*,|^\*/.test(m[3]!.trim()) && names.length > 0 && names.every((n) => n.startsWith("type "));
    add(m[4]!, !!m[2] || everyNameTypeOnly);
  }
  for (const m of text.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)) add(m[1]!, false);
  return found;
}

function violations(): string[] {
  const found: string[] = [];
  for (const file of [...sourceFiles("services"), ...sourceFiles("ingest"), ...sourceFiles("cli")]) {
    const from = layerOf(file);
    if (!from) continue;
    const rule = RULES[from]!;
    for (const { target, typeOnly } of importsOf(file)) {
      const to = layerOf(target);
      if (!to || to === from || rule.imports.includes(to)) continue;
      if (typeOnly && rule.types?.includes(to)) continue;
      found.push(`${file} -> ${target}`);
    }
  }
  return found.sort();
}

describe("layers (docs/ARCHITECTURE.md)", () => {
  const found = violations();

  it("every folder under services/, ingest/ and cli/ belongs to a layer with rules", () => {
    const unknown = [...sourceFiles("services"), ...sourceFiles("ingest"), ...sourceFiles("cli")].filter(
      (file) => !layerOf(file),
    );
    expect(unknown).toEqual([]);
    for (const [, layer] of LAYERS) expect(RULES[layer], layer).toBeDefined();
  });

  it("no import crosses the rules", () => {
    expect(found).toEqual([]);
  });

  it("reads imports as they are written: values, types, several lines, re-exports", () => {
    const app = importsOf("services/api/app.ts");
    expect(app).toContainEqual({ target: "services/api/openapi.ts", typeOnly: false });
    expect(app).toContainEqual({ target: "services/runtime/context.ts", typeOnly: true });
    // `import { type A, b }` takes a value; `import { type A }` and `import type { A }` do not.
    const access = importsOf("services/api/middleware/access.ts");
    expect(access).toContainEqual({ target: "services/access/keys.ts", typeOnly: false });
    expect(access).toContainEqual({ target: "services/store/access.ts", typeOnly: true });
  });
});

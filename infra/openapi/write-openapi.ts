import { writeFileSync } from "node:fs";
import { buildOpenApiDocument } from "../../services/api/openapi.ts";

/** Writes the generated OpenAPI document to a file (for the linter, or to publish it). */
const target = process.argv[2] ?? "openapi.json";
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument("https://api.example.org"), null, 2)}\n`);
console.log(`OpenAPI document written to ${target}`);

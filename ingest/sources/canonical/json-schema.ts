import { z } from "zod";
import { canonicalFileSchema } from "./format.ts";

/** The JSON Schema of the canonical file format, from the zod schema that validates it. */
export function canonicalJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(canonicalFileSchema, { io: "input", target: "draft-2020-12" }),
    $id: "https://legal-corpus.example/schemas/canonical-document.schema.json",
    title: "Legal corpus canonical document file",
  };
}

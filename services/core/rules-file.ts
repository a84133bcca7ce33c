import { parse as parseYaml } from "yaml";
import type { z } from "zod";
import { InputError } from "./errors.ts";

/**
 * A YAML file editors maintain (domain rules, synonyms), checked against its schema. Errors name
 * the file and the field: "ingest/rules/synonyms.yaml: groups.3: a group needs at least two members".
 */
export function parseRulesFile<T extends z.ZodTypeAny>(source: string, file: string, schema: T): z.infer<T> {
  let raw: unknown;
  try {
    raw = parseYaml(source);
  } catch (error) {
    throw new InputError(file, "(yaml)", `malformed YAML: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InputError(file, issue.path.join(".") || "(root)", issue.message);
  }
  return parsed.data;
}

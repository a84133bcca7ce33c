import { existsSync, readFileSync } from "node:fs";
import { InputError } from "../../services/core/errors.ts";
import { jsonTooDeep, MAX_JSON_DEPTH } from "../../services/core/json-depth.ts";

/** Reads a JSON file, naming the file in every failure. */
export function readJsonFile(file: string): unknown {
  if (!existsSync(file)) throw new InputError(file, "path", "no such file");
  const raw = readFileSync(file, "utf8");
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new InputError(file, "(json)", `malformed JSON: ${(error as Error).message}`);
  }
  if (jsonTooDeep(value)) throw new InputError(file, "(json)", `nests deeper than ${MAX_JSON_DEPTH} levels`);
  return value;
}

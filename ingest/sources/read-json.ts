import { existsSync, readFileSync } from "node:fs";
import { InputError } from "../../services/core/errors.ts";

/** Reads a JSON file, naming the file in every failure. */
export function readJsonFile(file: string): unknown {
  if (!existsSync(file)) throw new InputError(file, "path", "no such file");
  const raw = readFileSync(file, "utf8");
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw new InputError(file, "(json)", `malformed JSON: ${(error as Error).message}`);
  }
}

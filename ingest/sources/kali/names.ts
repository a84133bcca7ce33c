import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { InputError } from "../../../services/core/errors.ts";
import { parseRulesFile } from "../../../services/core/rules-file.ts";

/** The usual names editors give collective agreements, by IDCC (ingest/rules/agreement-names.yaml). */
export const AGREEMENT_NAMES_FILE = fileURLToPath(
  new URL("../../rules/agreement-names.yaml", import.meta.url),
);

const namesFileSchema = z
  .object({
    version: z.literal(1),
    names: z.record(
      z.string().regex(/^\d{1,5}$/, "an IDCC"),
      z.array(z.string().trim().min(2).max(80)).min(1),
    ),
  })
  .strict();

/** IDCC (without leading zeros) → usual names. */
export function loadAgreementNames(file = AGREEMENT_NAMES_FILE): Map<string, string[]> {
  let source: string;
  try {
    source = readFileSync(file, "utf8");
  } catch (error) {
    throw new InputError(file, "(file)", `cannot read: ${(error as Error).message}`);
  }
  const parsed = parseRulesFile(source, file, namesFileSchema);
  return new Map(Object.entries(parsed.names).map(([idcc, names]) => [String(Number(idcc)), names]));
}

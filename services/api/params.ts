import { z } from "zod";
import { DOMAINS, isDomain } from "../core/domains.ts";

/**
 * Query parameter schemas the routes share. Validation and the OpenAPI document use these very
 * objects (openapi.ts), so the two cannot drift.
 */

/**
 * A whole number in a query string, from `min` to `max`: one message for every way to get it
 * wrong (`abc`, `1.5`, `0`, `99`), saying what it must be.
 */
export const wholeNumberParam = (min: number, max?: number) => {
  const error = `must be a whole number${max === undefined ? `, ${min} or more` : ` from ${min} to ${max}`}`;
  const number = z.coerce.number({ error }).int({ error }).min(min, { error });
  return max === undefined ? number : number.max(max, { error });
};

/** A list in a query string, comma-separated (`a,b`) or repeated (`x=a&x=b`); optional. */
export const listParam = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (value) =>
      value === undefined
        ? undefined
        : (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(",")),
    z.array(item).min(1).optional(),
  );

/** `domains=labour,tax` or `domains=labour&domains=tax`: any of them (OR). */
export const domainsParam = listParam(
  z
    .string()
    .trim()
    .refine(isDomain, {
      error: (issue) => `unknown domain "${issue.input}"; expected one of ${DOMAINS.join(", ")}`,
    }),
).meta({
  description: `Fields of law, comma-separated or repeated; a provision matches if it has any of them. Values: ${DOMAINS.join(", ")}.`,
  example: ["labour", "tax"],
});

/** `true` or `false` in a query string; a boolean in the OpenAPI document, as clients expect. */
export const booleanParam = (byDefault: boolean, description: string) =>
  z
    .stringbool({ truthy: ["true"], falsy: ["false"] })
    .default(byDefault)
    .meta({
      description,
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        jsonSchema.type = "boolean";
        jsonSchema.default = byDefault;
      },
    });

export const documentParam = z.string().min(1).max(200).optional().meta({
  description:
    "Only this document: its public id (code-du-travail) or source id (LEGITEXT…). A document not loaded is a 400.",
});

export const isoDateParam = z.iso.date().meta({ description: "A date, YYYY-MM-DD.", example: "2024-01-01" });

import { z } from "zod";

/** The fields of law of the spec (section 2), exact and lower case. */
export const DOMAINS = [
  "constitutional",
  "civil",
  "criminal",
  "administrative",
  "labour",
  "family",
  "housing",
  "consumer",
  "tax",
  "business",
  "traffic",
  "digital",
  "intellectual-property",
  "land",
  "procedure",
] as const;

export type Domain = (typeof DOMAINS)[number];

export const domainSchema = z.enum(DOMAINS);

export function isDomain(value: string): value is Domain {
  return (DOMAINS as readonly string[]).includes(value);
}

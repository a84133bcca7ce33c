import { z } from "zod";

/**
 * What a corpus editor asks for when submitting a run (admin endpoint or `corpus runs submit`).
 * Validated with this schema at submission, stored with the run, and read back by whoever runs it.
 */
export const ingestRunRequestSchema = z
  .discriminatedUnion("source", [
    z
      .object({
        source: z.literal("legi"),
        version: z
          .string()
          .regex(/^\d+\.\d+\.\d+$/, "a published version, e.g. 2.513.0")
          .optional()
          .meta({ description: "A published version of @socialgouv/legi-data; default: the installed one." }),
        codes: z
          .array(z.string().regex(/^LEGITEXT\d{12}$/, "a LEGITEXT id"))
          .min(1)
          .optional()
          .meta({ description: "Only these codes." }),
      })
      .strict(),
    z
      .object({
        source: z.literal("kali"),
        version: z
          .string()
          .regex(/^\d+\.\d+\.\d+$/, "a published version, e.g. 3.449.0")
          .optional()
          .meta({
            description:
              "A published version of @socialgouv/kali-data (collective agreements), fetched on demand; default: the latest.",
          }),
        idcc: z
          .array(z.string().regex(/^\d{1,5}$/, "an IDCC, e.g. 1486"))
          .min(1)
          .max(500)
          .optional()
          .meta({
            description:
              "Only these agreements, by IDCC; default: every agreement the snapshot holds articles of.",
          }),
      })
      .strict(),
    z
      .object({
        source: z.literal("canonical"),
        name: z
          .string()
          .min(1)
          .max(200)
          .default("submitted.json")
          .meta({ description: "Names the file in messages." }),
        file: z
          .unknown()
          .meta({ description: "The content of a canonical JSON file (docs/canonical-format.md)." }),
      })
      .strict(),
  ])
  .meta({ id: "IngestRunRequest" });

export type IngestRunRequest = z.infer<typeof ingestRunRequestSchema>;

import { z } from "zod";
import { readProvision } from "../../corpus/provisions.ts";
import { presentProvision, provisionResponseSchema } from "../../presenters/provision.ts";
import { defineTool } from "../tool.ts";

export const getProvisionTool = defineTool({
  name: "get_provision",
  title: "Read one provision",
  description:
    "One provision by public id (e.g. 'code-du-travail/L1237-1-1') or LEGI id: its text, status, effective dates, section path, versions and the acts that amended it. With as_of, the text in force that day when we hold it. Cite the public id and dates.",
  scope: "corpus:read",
  input: z.object({
    id: z
      .string()
      .min(1)
      .max(300)
      .describe(
        "Public id '<document>/<number>' as returned by search, or a LEGI article or version id (LEGIARTI…).",
      ),
    as_of: z.iso.date().optional().describe("Read the provision as in force on this day, YYYY-MM-DD."),
  }),
  output: provisionResponseSchema,
  run: async ({ ctx, who, meta }, input) =>
    presentProvision(await readProvision(ctx.db, who, input.id, input.as_of), meta),
});

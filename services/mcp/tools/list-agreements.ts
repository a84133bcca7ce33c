import { z } from "zod";
import { listAgreements } from "../../corpus/agreements.ts";
import { agreementsResponseSchema, presentAgreements } from "../../presenters/agreements.ts";
import { defineTool } from "../tool.ts";

export const listAgreementsTool = defineTool({
  name: "list_agreements",
  title: "Collective agreements loaded",
  description:
    "The collective agreements (conventions collectives) loaded, by IDCC, with their short title, usual names (« Syntec »), snapshot and number of provisions. With query, only those it names ('IDCC 1486', 'Syntec', 'convention collective des journalistes') or whose names hold its words ('boulangerie'). Search one agreement with search_provisions document='idcc-<IDCC>'; read it with get_document.",
  scope: "corpus:read",
  input: z.object({
    query: z
      .string()
      .trim()
      .max(200)
      .optional()
      .describe("An IDCC, a name or words of the branch; absent: every agreement loaded."),
  }),
  output: agreementsResponseSchema,
  run: async ({ ctx, meta }, { query }) => presentAgreements(await listAgreements(ctx.db, query), meta),
});

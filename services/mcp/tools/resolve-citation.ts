import { z } from "zod";
import { resolveCitation } from "../../corpus/citations.ts";
import { presentCitation, resolveCitationOutput } from "../../presenters/citation.ts";
import { defineTool } from "../tool.ts";

export const resolveCitationTool = defineTool({
  name: "resolve_citation",
  title: "Find the provision a citation names",
  description:
    "Turns a reference written as a person writes it ('article L. 1237-1-1 du code du travail', 'art. R4451-39 C. trav.', 'CSS L161-1') into the provision, with its text and dates. Says plainly when the document is not loaded.",
  scope: "corpus:read",
  input: z.object({
    citation: z
      .string()
      .trim()
      .min(1)
      .max(300)
      .describe("The reference, as written: article number and, ideally, the code or act."),
  }),
  output: resolveCitationOutput,
  run: async ({ ctx, who, meta }, { citation }) =>
    presentCitation(await resolveCitation(ctx.db, who, citation), meta),
});

import { z } from "zod";
import { documentBody, documentResponseSchema, MAX_DOCUMENT_PAGE } from "../../api/routes/documents.ts";
import { defineTool } from "../tool.ts";

export const getDocumentTool = defineTool({
  name: "get_document",
  title: "Read a document's table of contents and provisions",
  description:
    "One normative document (a code or an act) by public id (e.g. 'code-du-travail'): its table of contents and a page of its provisions, optionally under one section. Page with offset.",
  scope: "corpus:read",
  input: z.object({
    id: z
      .string()
      .min(1)
      .max(200)
      .describe("Public id of the document (e.g. 'code-du-travail') or its LEGI id (LEGITEXT…)."),
    section: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe("Only provisions under this section: an id from the table of contents."),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_DOCUMENT_PAGE)
      .default(20)
      .describe(`Provisions per page, 1–${MAX_DOCUMENT_PAGE}.`),
    offset: z.number().int().min(0).default(0).describe("Provisions to skip, for the next page."),
    include_toc: z
      .boolean()
      .default(true)
      .describe("Include the table of contents (large for a whole code; false on later pages)."),
  }),
  output: documentResponseSchema,
  run: ({ ctx, who, meta }, { id, include_toc, ...page }) =>
    documentBody(ctx, who, id, { ...page, toc: include_toc }, meta),
});

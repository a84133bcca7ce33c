import { z } from "zod";
import { MAX_DOCUMENT_PAGE, readDocument } from "../../corpus/documents.ts";
import { documentResponseSchema, presentDocument } from "../../presenters/document.ts";
import { MAX_TOOL_RESULT_CHARS } from "../result-size.ts";
import { defineTool } from "../tool.ts";

export const getDocumentTool = defineTool({
  name: "get_document",
  title: "Read a document's table of contents and provisions",
  description: `One normative document (a code or an act) by public id (e.g. 'code-du-travail'): a page of its provisions, optionally under one section, and on request its table of contents to a given depth (ask again with section=<id> for what is below). Page with offset; a page is cut short to stay under ${MAX_TOOL_RESULT_CHARS.toLocaleString("en")} characters (pagination.next_offset says where to go on).`,
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
      .default(false)
      .describe("Include the table of contents (a whole code's is thousands of sections: see toc_depth)."),
    toc_depth: z
      .number()
      .int()
      .min(1)
      .max(10)
      .default(2)
      .describe("Levels of the table of contents to include (default 2: parts and books of a code)."),
  }),
  output: documentResponseSchema,
  run: async ({ ctx, who, meta }, { id, include_toc, toc_depth, ...page }) => {
    const read = await readDocument(ctx.db, who, id, page);
    const body = presentDocument(read, { ...page, toc: include_toc, tocDepth: toc_depth }, meta);
    // Cut the page short rather than send more than an agent can read at once.
    const provisions = body.data.provisions;
    let size = JSON.stringify(body).length;
    while (provisions.length > 1 && size > MAX_TOOL_RESULT_CHARS)
      size -= JSON.stringify(provisions.pop()).length + 1; // and its comma
    const next = page.offset + provisions.length;
    body.pagination.next_offset = provisions.length > 0 && next < body.pagination.total ? next : null;
    return body;
  },
});

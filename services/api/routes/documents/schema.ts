import { z } from "zod";
import { MAX_DOCUMENT_PAGE } from "../../../corpus/documents.ts";
import { booleanParam, wholeNumberParam } from "../../params.ts";

export const documentQuerySchema = z
  .object({
    limit: wholeNumberParam(1, MAX_DOCUMENT_PAGE)
      .default(50)
      .meta({ description: `Provisions per page, 1–${MAX_DOCUMENT_PAGE}.` }),
    offset: wholeNumberParam(0).default(0),
    section: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .meta({ description: "Only the provisions under this section (its id from `toc`)." }),
    toc: booleanParam(true, "Include the table of contents."),
  })
  .strict();

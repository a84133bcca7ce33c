import { z } from "zod";
import { readDomains } from "../../corpus/catalogue.ts";
import { domainsResponseSchema, presentDomains } from "../../presenters/catalogue.ts";
import { defineTool } from "../tool.ts";

export const listDomainsTool = defineTool({
  name: "list_domains",
  title: "Fields of law",
  description:
    "The fields of law usable as filters (labour, tax…), whether this key may use each, and how many provisions are loaded in each.",
  scope: "corpus:read",
  input: z.object({}),
  output: domainsResponseSchema,
  run: async ({ ctx, who, meta }) => presentDomains(await readDomains(ctx.db, who), meta),
});

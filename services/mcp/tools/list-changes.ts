import { z } from "zod";
import { type Domain, domainSchema } from "../../core/domains.ts";
import { CHANGE_KINDS, changesByEffectiveDate, MAX_CHANGES_LIMIT } from "../../corpus/changes.ts";
import { changesResponseSchema, presentChangesPage } from "../../presenters/changes.ts";
import { defineTool } from "../tool.ts";

export const listChangesTool = defineTool({
  name: "list_changes",
  title: "What changed in the law since a date",
  description:
    "Provisions added, amended or repealed that took effect from a date, oldest first, with the amending act when known. Page with the returned cursor.",
  scope: "changes:read",
  input: z.object({
    since: z.iso.date().describe("Changes that took effect on or after this day, YYYY-MM-DD."),
    until: z.iso.date().optional().describe("…and on or before this day, YYYY-MM-DD."),
    kinds: z
      .array(z.enum(CHANGE_KINDS))
      .min(1)
      .optional()
      .describe("Only these kinds of change (default all)."),
    domains: z.array(domainSchema).min(1).optional().describe("Only provisions in these fields of law."),
    document: z.string().min(1).max(200).optional().describe("Only this document, by public id."),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_CHANGES_LIMIT)
      .default(50)
      .describe(`Entries per page, 1–${MAX_CHANGES_LIMIT}.`),
    cursor: z
      .string()
      .max(500)
      .optional()
      .describe("page.next_cursor of the previous call, with the same other arguments."),
  }),
  output: changesResponseSchema,
  run: async ({ ctx, who, meta }, { kinds, ...input }) => {
    const page = await changesByEffectiveDate(ctx.db, who, {
      ...input,
      kind: kinds,
      domains: input.domains as Domain[] | undefined,
    });
    return presentChangesPage(page, input.limit, meta);
  },
});

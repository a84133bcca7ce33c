import { z } from "zod";
import { CHANGE_KINDS, MAX_CHANGES_LIMIT } from "../../../corpus/changes.ts";
import { documentParam, domainsParam, isoDateParam, listParam, wholeNumberParam } from "../../params.ts";

const kindsParam = listParam(
  z.enum(CHANGE_KINDS, {
    error: (issue) => `unknown kind "${issue.input}"; expected ${CHANGE_KINDS.join(", ")}`,
  }),
).meta({
  description: "added, amended, repealed: comma-separated or repeated; default all.",
  example: ["repealed"],
});

const limitParam = wholeNumberParam(1, MAX_CHANGES_LIMIT)
  .default(100)
  .meta({ description: `Entries per page, 1–${MAX_CHANGES_LIMIT}.` });

export const changesQuerySchema = z
  .object({
    since: isoDateParam.meta({
      description:
        "Required. Changes that took effect on or after this date (for a change whose date the source does not give, the latest date it can have taken effect).",
      example: "2025-01-01",
    }),
    until: isoDateParam.optional().meta({ description: "Changes that took effect on or before this date." }),
    kind: kindsParam,
    domains: domainsParam,
    document: documentParam,
    limit: limitParam,
    cursor: z
      .string()
      .max(500)
      .optional()
      .meta({ description: "From page.next_cursor of the previous page, with the same other parameters." }),
  })
  .strict()
  .refine((q) => !q.until || q.until >= q.since, { error: "must not be before since", path: ["until"] });

export const changesFeedQuerySchema = z
  .object({
    recorded_since: z.iso.datetime({ offset: true }).optional().meta({
      description:
        "Start with entries recorded at or after this instant (ISO 8601). Give this or cursor; neither means from the beginning.",
      example: "2026-11-01T00:00:00Z",
    }),
    cursor: z
      .string()
      .max(500)
      .optional()
      .meta({ description: "page.next_cursor from the previous call: resume exactly after it." }),
    domains: domainsParam,
    limit: limitParam,
  })
  .strict()
  .refine((q) => !(q.cursor && q.recorded_since), {
    error: "give recorded_since or cursor, not both",
    path: ["cursor"],
  });

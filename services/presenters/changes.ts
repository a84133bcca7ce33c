import { z } from "zod";
import { type Domain, domainSchema } from "../core/domains.ts";
import { CHANGE_KINDS, type ChangesPage } from "../corpus/changes.ts";
import type { ChangeRecord } from "../store/change-log.ts";
import { filterBlock, filterSchema, type Meta, metaSchema, provisionUrl } from "./envelope.ts";

/** Change-log entries: a listing by effective date, and the feed in recording order. */

const changeSchema = z
  .object({
    id: z.string().meta({ description: "The entry's recording sequence number." }),
    kind: z.enum(CHANGE_KINDS),
    provision: z.object({
      id: z.string().meta({ example: "code-du-travail/L1237-19-1" }),
      number: z.string().meta({ description: "The number after the change." }),
      url: z.string(),
    }),
    document: z.object({ id: z.string(), title: z.string() }),
    domains: z.array(domainSchema),
    effective_on: z.string().nullable().meta({
      description:
        "The date the change took legal effect (may be in the future). Null when the source does not say.",
    }),
    effective_window: z
      .object({
        after: z
          .string()
          .nullable()
          .meta({ description: "The change took effect after this date (the previous snapshot's)." }),
        by: z.string().meta({ description: "…and on or before this one (the snapshot that revealed it)." }),
      })
      .nullable()
      .meta({ description: "When effective_on is null: the window the change took effect in." }),
    listed_on: z.string().meta({
      description: "The date since/until filter and sort on: effective_on, or else effective_window.by.",
    }),
    version_before: z.string().nullable(),
    version_after: z.string().nullable(),
    number_before: z
      .string()
      .nullable()
      .meta({ description: "Set when the change renumbered the provision." }),
    amending_act: z
      .object({ id: z.string(), title: z.string().nullable(), date: z.string().nullable() })
      .nullable()
      .meta({ description: "The act that made the change, when the source names it." }),
    origin: z.enum(["source_history", "snapshot_comparison"]).meta({
      description:
        "source_history: from the version history the source carries. snapshot_comparison: found by comparing a newer snapshot with what was stored.",
    }),
    source_snapshot: z.string().nullable().meta({ description: "The snapshot the change was found in." }),
    recorded_at: z.string().meta({ description: "When the change entered our change log." }),
  })
  .meta({ id: "Change" });

const pageSchema = z
  .object({
    limit: z.number(),
    next_cursor: z.string().nullable(),
    has_more: z.boolean(),
  })
  .meta({ id: "ChangesPage" });

export const changesResponseSchema = z
  .object({
    data: z.array(changeSchema),
    page: pageSchema.extend({
      as_of_entry: z.string().meta({
        description:
          "The listing covers entries recorded up to this id, fixed by its first page, so paging neither repeats nor skips entries while new changes arrive. Newer ones: the feed.",
      }),
    }),
    filter: filterSchema.optional().meta({ description: "Present when a domain filter applied." }),
    meta: metaSchema,
  })
  .meta({ id: "ChangesResponse" });

export const changesFeedResponseSchema = z
  .object({
    data: z.array(changeSchema),
    page: pageSchema.extend({
      next_cursor: z.string().meta({
        description:
          "Always present: call again with it to get what was recorded after this page (store it to resume).",
      }),
    }),
    filter: filterSchema.optional(),
    meta: metaSchema,
  })
  .meta({ id: "ChangesFeedResponse" });

function presentChange(c: ChangeRecord): z.infer<typeof changeSchema> {
  return {
    id: String(c.seq),
    kind: c.kind,
    provision: {
      id: c.provision.publicId,
      number: c.provision.number,
      url: provisionUrl(c.provision.publicId),
    },
    document: { id: c.document.publicId, title: c.document.title },
    domains: c.provision.domains as Domain[],
    effective_on: c.effectiveOn,
    effective_window:
      c.effectiveOn === null && c.effectiveBy ? { after: c.effectiveAfter, by: c.effectiveBy } : null,
    listed_on: c.listedOn,
    version_before: c.versionBefore,
    version_after: c.versionAfter,
    number_before: c.numberBefore,
    amending_act: c.act,
    origin: c.origin,
    source_snapshot: c.sourceVersion,
    recorded_at: c.recordedAt,
  };
}

export function presentChangesPage(
  page: ChangesPage & { asOfEntry: number },
  limit: number,
  meta: Meta,
): z.infer<typeof changesResponseSchema> {
  return {
    data: page.entries.map(presentChange),
    page: {
      limit,
      next_cursor: page.nextCursor,
      has_more: page.hasMore,
      as_of_entry: String(page.asOfEntry),
    },
    ...filterBlock(page.filter, "exact"),
    meta,
  };
}

export function presentChangesFeed(
  page: ChangesPage & { nextCursor: string },
  limit: number,
  meta: Meta,
): z.infer<typeof changesFeedResponseSchema> {
  return {
    data: page.entries.map(presentChange),
    page: { limit, next_cursor: page.nextCursor, has_more: page.hasMore },
    ...filterBlock(page.filter, "exact"),
    meta,
  };
}

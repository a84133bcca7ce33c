import { Router } from "express";
import { z } from "zod";
import { authorizeDomains } from "../../access/domains.ts";
import type { Principal } from "../../access/keys.ts";
import { type Domain, domainSchema } from "../../core/domains.ts";
import { AppError } from "../../core/errors.ts";
import { contentHash } from "../../core/hash.ts";
import { type ChangeRecord, changeFeed, lastSeq, listChanges, seqBefore } from "../../store/change-log.ts";
import { findDocument } from "../../store/corpus-queries.ts";
import type { AppContext } from "../context.ts";
import { type Meta, meta } from "../envelope.ts";
import { type access, principal } from "../middleware/access.ts";
import { parsed, validate } from "../middleware/validate.ts";
import { filterBlock, provisionUrl } from "../presenters/search.ts";
import {
  documentParam,
  domainsParam,
  filterSchema,
  isoDateParam,
  listParam,
  metaSchema,
  unknownDocument,
  wholeNumberParam,
} from "../schemas.ts";

/**
 * GET /api/v1/changes: provisions added, amended or repealed, by the date the change took
 * effect. GET /api/v1/changes/feed: the same entries in the order we recorded them, for clients
 * that keep a copy in sync.
 */

export const MAX_CHANGES_LIMIT = 500;
const KINDS = ["added", "amended", "repealed"] as const;

const kindsParam = listParam(
  z.enum(KINDS, { error: (issue) => `unknown kind "${issue.input}"; expected ${KINDS.join(", ")}` }),
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

const changeSchema = z
  .object({
    id: z.string().meta({ description: "The entry's recording sequence number." }),
    kind: z.enum(KINDS),
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

/** Cursors are opaque to clients: base64url JSON with the position and a hash of the query they belong to. */
const encodeCursor = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

function decodeCursor<T extends z.ZodType>(cursor: string, schema: T): z.infer<T> {
  try {
    return schema.parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
  } catch {
    throw new AppError("invalid_request", "cursor: not a cursor this endpoint handed out", "cursor");
  }
}

const listCursor = z.object({ q: z.string(), l: z.iso.date(), s: z.number().int(), h: z.number().int() });
const feedCursor = z.object({ f: z.literal(1), s: z.number().int().min(0) });

/** Changes by effective date: the HTTP route's and the MCP tool's response. */
export async function changesBody(
  ctx: AppContext,
  who: Principal,
  query: z.output<typeof changesQuerySchema>,
  meta: Meta,
): Promise<z.infer<typeof changesResponseSchema>> {
  const filter = authorizeDomains(who, query.domains as Domain[] | undefined);
  let documentId: number | undefined;
  if (query.document) {
    const document = await findDocument(ctx.db, query.document);
    if (!document) throw unknownDocument(query.document);
    documentId = document.id;
  }
  // The cursor belongs to one query: the same parameters, page size aside.
  const { cursor: _cursor, limit: _limit, ...criteria } = query;
  const queryHash = contentHash({ ...criteria, domains: filter.domains });
  const position = query.cursor ? decodeCursor(query.cursor, listCursor) : undefined;
  if (position && position.q !== queryHash)
    throw new AppError("invalid_request", "cursor: it belongs to a listing with other parameters", "cursor");
  const upToSeq = position?.h ?? (await lastSeq(ctx.db));
  const rows = await listChanges(ctx.db, {
    since: query.since,
    until: query.until,
    kinds: query.kind,
    domains: filter.domains ?? undefined,
    documentId,
    upToSeq,
    after: position ? { listedOn: position.l, seq: position.s } : undefined,
    limit: query.limit,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const hasMore = rows.length > query.limit;
  return {
    data: page.map(presentChange),
    page: {
      limit: query.limit,
      next_cursor:
        hasMore && last ? encodeCursor({ q: queryHash, l: last.listedOn, s: last.seq, h: upToSeq }) : null,
      has_more: hasMore,
      as_of_entry: String(upToSeq),
    },
    ...filterBlock(filter, "exact"),
    meta,
  };
}

/** Changes in recording order after a cursor. */
export async function changesFeedBody(
  ctx: AppContext,
  who: Principal,
  query: z.output<typeof changesFeedQuerySchema>,
  meta: Meta,
): Promise<z.infer<typeof changesFeedResponseSchema>> {
  const filter = authorizeDomains(who, query.domains as Domain[] | undefined);
  const afterSeq = query.cursor
    ? decodeCursor(query.cursor, feedCursor).s
    : query.recorded_since
      ? await seqBefore(ctx.db, new Date(query.recorded_since))
      : 0;
  const rows = await changeFeed(ctx.db, {
    afterSeq,
    domains: filter.domains ?? undefined,
    limit: query.limit,
  });
  const page = rows.slice(0, query.limit);
  return {
    data: page.map(presentChange),
    page: {
      limit: query.limit,
      next_cursor: encodeCursor({ f: 1, s: page.at(-1)?.seq ?? afterSeq }),
      has_more: rows.length > query.limit,
    },
    ...filterBlock(filter, "exact"),
    meta,
  };
}

export function changesRouter(ctx: AppContext, guard: ReturnType<typeof access>): Router {
  return Router()
    .get(
      "/changes/feed",
      guard("changes:read"),
      validate("query", changesFeedQuerySchema),
      async (_req, res) => {
        res.json(
          await changesFeedBody(ctx, principal(res), parsed(res, "query", changesFeedQuerySchema), meta(res)),
        );
      },
    )
    .get("/changes", guard("changes:read"), validate("query", changesQuerySchema), async (_req, res) => {
      res.json(await changesBody(ctx, principal(res), parsed(res, "query", changesQuerySchema), meta(res)));
    });
}

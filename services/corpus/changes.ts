import { z } from "zod";
import { authorizeDomains, type DomainFilter } from "../access/domains.ts";
import type { Principal } from "../access/keys.ts";
import type { Domain } from "../core/domains.ts";
import { AppError } from "../core/errors.ts";
import { contentHash } from "../core/hash.ts";
import {
  type ChangeKind,
  type ChangeRecord,
  changeFeed,
  lastSeq,
  listChanges,
  seqBefore,
} from "../store/change-log.ts";
import { findDocument } from "../store/corpus-queries.ts";
import type { Database } from "../store/database.ts";
import { unknownDocument } from "./documents.ts";

/**
 * The change log, read two ways: by the date changes took effect (a listing whose pages hold
 * still while new changes arrive), and in the order we recorded them (a feed to keep a copy in
 * sync). Cursors are opaque to clients: base64url JSON with the position and, for a listing, a
 * hash of the query it belongs to.
 */

export const MAX_CHANGES_LIMIT = 500;
export const CHANGE_KINDS = ["added", "amended", "repealed"] as const;

export interface ChangesQuery {
  since: string;
  until?: string | undefined;
  kind?: ChangeKind[] | undefined;
  domains?: Domain[] | undefined;
  /** A document's public id or source id. */
  document?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

export interface ChangesFeedQuery {
  recorded_since?: string | undefined;
  cursor?: string | undefined;
  domains?: Domain[] | undefined;
  limit: number;
}

export interface ChangesPage {
  entries: ChangeRecord[];
  filter: DomainFilter;
  nextCursor: string | null;
  hasMore: boolean;
}

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

/** Changes by effective date, oldest first; `asOfEntry` is the last entry the listing covers. */
export async function changesByEffectiveDate(
  db: Database,
  who: Principal,
  query: ChangesQuery,
): Promise<ChangesPage & { asOfEntry: number }> {
  const filter = authorizeDomains(who, query.domains);
  let documentId: number | undefined;
  if (query.document) {
    const document = await findDocument(db, query.document);
    if (!document) throw unknownDocument(query.document);
    documentId = document.id;
  }
  // The cursor belongs to one query: the same parameters, page size aside.
  const { cursor: _cursor, limit: _limit, ...criteria } = query;
  const queryHash = contentHash({ ...criteria, domains: filter.domains });
  const position = query.cursor ? decodeCursor(query.cursor, listCursor) : undefined;
  if (position && position.q !== queryHash)
    throw new AppError("invalid_request", "cursor: it belongs to a listing with other parameters", "cursor");
  const upToSeq = position?.h ?? (await lastSeq(db));
  const rows = await listChanges(db, {
    since: query.since,
    until: query.until,
    kinds: query.kind,
    domains: filter.domains ?? undefined,
    documentId,
    upToSeq,
    after: position ? { listedOn: position.l, seq: position.s } : undefined,
    limit: query.limit,
  });
  const entries = rows.slice(0, query.limit);
  const last = entries.at(-1);
  const hasMore = rows.length > query.limit;
  return {
    entries,
    filter,
    nextCursor:
      hasMore && last ? encodeCursor({ q: queryHash, l: last.listedOn, s: last.seq, h: upToSeq }) : null,
    hasMore,
    asOfEntry: upToSeq,
  };
}

/** Changes in recording order after a cursor (or an instant); the next cursor is always given. */
export async function changesFeed(
  db: Database,
  who: Principal,
  query: ChangesFeedQuery,
): Promise<ChangesPage & { nextCursor: string }> {
  const filter = authorizeDomains(who, query.domains);
  const afterSeq = query.cursor
    ? decodeCursor(query.cursor, feedCursor).s
    : query.recorded_since
      ? await seqBefore(db, new Date(query.recorded_since))
      : 0;
  const rows = await changeFeed(db, { afterSeq, domains: filter.domains ?? undefined, limit: query.limit });
  const entries = rows.slice(0, query.limit);
  return {
    entries,
    filter,
    nextCursor: encodeCursor({ f: 1, s: entries.at(-1)?.seq ?? afterSeq }),
    hasMore: rows.length > query.limit,
  };
}

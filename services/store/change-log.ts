import type { ChangeEvent } from "./change-outbox.ts";
import type { Database, Queryable } from "./database.ts";
import type { OutboxRange } from "./outbox.ts";

/** The change log (migration 006): its writer and its readers. SQL only. */

/** Arbitrary constant: serialises the writer's transactions so recording order is commit order. */
const CHANGE_LOG_LOCK = 726_150_006;

/**
 * The change-log writer: inserts a batch's events and marks its outbox range written, in one
 * transaction. Events already in the log (same idempotency key) are skipped, so a retried or
 * duplicated job records nothing twice. Returns how many entries were new.
 */
export async function writeChangeBatch(db: Database, batch: OutboxRange<ChangeEvent>): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [CHANGE_LOG_LOCK]);
    const { rows } = await tx.query<{ n: number }>(
      `WITH inserted AS (
         INSERT INTO change_log (idempotency_key, provision_id, document_id, kind, effective_on, effective_after,
           effective_by, listed_on, version_before, version_after, number_before, number_after, act_id, act_title,
           act_date, origin, source_version, run_id, recorded_at)
         SELECT e->>'key', (e->>'provisionId')::int, (e->>'documentId')::int, e->>'kind',
           (e->>'effectiveOn')::date, (e->>'effectiveAfter')::date, (e->>'effectiveBy')::date, (e->>'listedOn')::date,
           e->>'versionBefore', e->>'versionAfter', e->>'numberBefore', e->>'numberAfter',
           e->'act'->>'id', e->'act'->>'title', (e->'act'->>'date')::date,
           e->>'origin', e->>'sourceVersion', (e->>'runId')::int, clock_timestamp()
         FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(e, n)
         ORDER BY n
         ON CONFLICT (idempotency_key) DO NOTHING
         RETURNING 1)
       SELECT count(*)::int AS n FROM inserted`,
      [JSON.stringify(batch.items)],
    );
    await tx.query(
      "UPDATE change_outbox SET written_at = now() WHERE id BETWEEN $1 AND $2 AND written_at IS NULL",
      [batch.firstId, batch.lastId],
    );
    return rows[0]?.n ?? 0;
  });
}

/** What a change did to a provision. */
export type ChangeKind = "added" | "amended" | "repealed";

export interface ChangeRecord {
  seq: number;
  kind: ChangeKind;
  provision: { publicId: string; number: string; domains: string[] };
  document: { publicId: string; title: string };
  effectiveOn: string | null;
  effectiveAfter: string | null;
  effectiveBy: string | null;
  listedOn: string;
  versionBefore: string | null;
  versionAfter: string | null;
  numberBefore: string | null;
  act: { id: string; title: string | null; date: string | null } | null;
  origin: "source_history" | "snapshot_comparison";
  sourceVersion: string | null;
  recordedAt: string;
}

const CHANGE_SELECT = `SELECT c.seq, c.kind, c.number_after, c.number_before, c.version_before, c.version_after,
    to_char(c.effective_on, 'YYYY-MM-DD') AS effective_on, to_char(c.effective_after, 'YYYY-MM-DD') AS effective_after,
    to_char(c.effective_by, 'YYYY-MM-DD') AS effective_by, to_char(c.listed_on, 'YYYY-MM-DD') AS listed_on,
    c.act_id, c.act_title, to_char(c.act_date, 'YYYY-MM-DD') AS act_date, c.origin, c.source_version, c.recorded_at,
    p.public_id AS provision_public_id, p.domains, d.public_id AS document_public_id, d.title AS document_title
  FROM change_log c JOIN provisions p ON p.id = c.provision_id JOIN documents d ON d.id = c.document_id`;

function toChange(r: Record<string, unknown>): ChangeRecord {
  const s = (key: string) => (r[key] as string | null) ?? null;
  return {
    seq: Number(r.seq),
    kind: r.kind as ChangeKind,
    provision: {
      publicId: r.provision_public_id as string,
      number: r.number_after as string,
      domains: r.domains as string[],
    },
    document: { publicId: r.document_public_id as string, title: r.document_title as string },
    effectiveOn: s("effective_on"),
    effectiveAfter: s("effective_after"),
    effectiveBy: s("effective_by"),
    listedOn: r.listed_on as string,
    versionBefore: s("version_before"),
    versionAfter: s("version_after"),
    numberBefore: s("number_before"),
    act: r.act_id ? { id: r.act_id as string, title: s("act_title"), date: s("act_date") } : null,
    origin: r.origin as ChangeRecord["origin"],
    sourceVersion: s("source_version"),
    recordedAt: new Date(r.recorded_at as string | Date).toISOString(),
  };
}

export interface ChangeFilter {
  since: string;
  until?: string | undefined;
  kinds?: ChangeKind[] | undefined;
  domains?: string[] | undefined;
  documentId?: number | undefined;
  /** Only entries recorded up to this sequence number: fixed by the first page of a listing. */
  upToSeq: number;
  /** Keyset position: after this (listed_on, seq). */
  after?: { listedOn: string; seq: number } | undefined;
  limit: number;
}

/** Changes by the date they took effect, oldest first; limit + 1 rows so the caller knows if more follow. */
export async function listChanges(db: Database, f: ChangeFilter): Promise<ChangeRecord[]> {
  const where = ["c.listed_on >= $1", "c.seq <= $2"];
  const params: unknown[] = [f.since, f.upToSeq];
  const add = (clause: string, value: unknown) => {
    params.push(value);
    where.push(clause.replace("?", `$${params.length}`));
  };
  if (f.until) add("c.listed_on <= ?", f.until);
  if (f.kinds?.length) add("c.kind = ANY(?)", f.kinds);
  if (f.domains?.length) add("p.domains && ?::text[]", f.domains);
  if (f.documentId !== undefined) add("c.document_id = ?", f.documentId);
  if (f.after) {
    params.push(f.after.listedOn, f.after.seq);
    where.push(`(c.listed_on, c.seq) > ($${params.length - 1}::date, $${params.length})`);
  }
  params.push(f.limit + 1);
  const { rows } = await db.query<Record<string, unknown>>(
    `${CHANGE_SELECT} WHERE ${where.join(" AND ")} ORDER BY c.listed_on, c.seq LIMIT $${params.length}`,
    params,
  );
  return rows.map(toChange);
}

/** Changes in recording order after a sequence number: what a client syncing its copy reads. */
export async function changeFeed(
  db: Database,
  f: { afterSeq: number; domains?: string[] | undefined; limit: number },
): Promise<ChangeRecord[]> {
  const params: unknown[] = [f.afterSeq, f.limit + 1];
  let domainClause = "";
  if (f.domains?.length) {
    params.push(f.domains);
    domainClause = " AND p.domains && $3::text[]";
  }
  const { rows } = await db.query<Record<string, unknown>>(
    `${CHANGE_SELECT} WHERE c.seq > $1${domainClause} ORDER BY c.seq LIMIT $2`,
    params,
  );
  return rows.map(toChange);
}

/** The last sequence number recorded before a moment (0 when none): where a feed from that moment starts. */
export async function seqBefore(db: Database, moment: Date): Promise<number> {
  const { rows } = await db.query<{ seq: string | null }>(
    "SELECT max(seq) AS seq FROM change_log WHERE recorded_at < $1",
    [moment],
  );
  return Number(rows[0]?.seq ?? 0);
}

export async function lastSeq(db: Database): Promise<number> {
  const { rows } = await db.query<{ seq: string | null }>("SELECT max(seq) AS seq FROM change_log");
  return Number(rows[0]?.seq ?? 0);
}

/** The latest entries in recording order, newest first: what the console's editor view lists. */
export async function recentChanges(db: Database, limit: number): Promise<ChangeRecord[]> {
  const { rows } = await db.query<Record<string, unknown>>(`${CHANGE_SELECT} ORDER BY c.seq DESC LIMIT $1`, [
    limit,
  ]);
  return rows.map(toChange);
}

/** The idempotency keys already in the change log for these provisions. */
export async function loggedChangeKeys(db: Queryable, provisionIds: number[]): Promise<Set<string>> {
  const { rows } = await db.query<{ idempotency_key: string }>(
    "SELECT idempotency_key FROM change_log WHERE provision_id = ANY($1)",
    [provisionIds],
  );
  return new Set(rows.map((r) => r.idempotency_key));
}

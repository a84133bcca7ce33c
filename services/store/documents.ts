import type { CanonicalDocument, CanonicalProvision } from "../../ingest/model.ts";
import {
  type ChangeEvent,
  type DocumentContext,
  historyEvents,
  vanishedEvent,
  withRenumbering,
} from "../changes/derive.ts";
import type { Domain } from "../core/domains.ts";
import { InputError } from "../core/errors.ts";
import { assignProvisionIds } from "../core/public-ids.ts";
import { recordChanges } from "./change-outbox.ts";
import {
  documentRow,
  linkRows,
  type ProvisionRow,
  provisionRow,
  sectionPaths,
  sectionRows,
  versionRows,
} from "./corpus-rows.ts";
import type { Database, Queryable } from "./database.ts";
import { recordForIndexing } from "./search-outbox.ts";

/**
 * Writing one canonical document into the corpus. A document is written in one transaction
 * (atomic: readers and a crash see it fully old or fully new) and only what differs is touched
 * (idempotent: the same snapshot twice writes nothing). The changes it makes to provisions go to
 * the change outbox in the same transaction (see services/changes/derive.ts).
 */

export interface PersistInput {
  doc: CanonicalDocument;
  /** Domains of the document and of each provision (by source id), from the rules. */
  domains: { document: Domain[]; provisions: Map<string, Domain[]> };
  rulesHash: string;
  runId: number;
  /** Named in errors. */
  file: string;
  /** Record changed provisions in the search outbox (when an Elasticsearch/OpenSearch index follows the store). */
  searchOutbox?: boolean;
}

export interface PersistOutcome {
  publicId: string;
  /** `stale`: the store holds a newer snapshot of this document; nothing was written. */
  outcome: "created" | "updated" | "unchanged" | "stale";
  provisions: { added: number; changed: number; unchanged: number; absent: number };
  versions: number;
  /** Change events recorded for the change log. */
  changes: number;
}

const BATCH = 2000;

async function inBatches<T>(rows: T[], write: (batch: T[]) => Promise<void>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await write(rows.slice(i, i + BATCH));
}

const DOCUMENT_FIELDS = `public_id, source, source_id, source_version, kind, title, jurisdiction, status,
  source_status, effective_from, effective_to, modified_on, domains, content_hash, rules_hash, last_run_id`;

const PROVISION_COLUMNS = `public_id text, source_id text, version_id text, number text, number_key text, text text,
  text_html text, notes text, status text, source_status text, effective_from date, effective_to date,
  section_source_id text, section_path text[], position int, domains text[], content_hash text`;

const PROVISION_FIELDS = `public_id, source_id, version_id, number, number_key, text, text_html, notes, status,
  source_status, effective_from, effective_to, section_source_id, section_path, position, domains, content_hash`;

/** Which source document holds a public id, if any. */
export async function findPublicIdOwner(
  db: Queryable,
  publicId: string,
): Promise<{ source: string; sourceId: string } | undefined> {
  const { rows } = await db.query<{ source: string; source_id: string }>(
    "SELECT source, source_id FROM documents WHERE public_id = $1",
    [publicId],
  );
  return rows[0] ? { source: rows[0].source, sourceId: rows[0].source_id } : undefined;
}

export async function persistDocument(db: Database, input: PersistInput): Promise<PersistOutcome> {
  return db.transaction((tx) => persistInTransaction(tx, input));
}

async function persistInTransaction(
  tx: Queryable,
  { doc, domains, rulesHash, runId, file, searchOutbox }: PersistInput,
) {
  const owner = await findPublicIdOwner(tx, doc.publicId);
  if (owner && !(owner.source === doc.source.name && owner.sourceId === doc.source.documentId)) {
    throw new InputError(
      file,
      "publicId",
      `public id ${doc.publicId} already belongs to ${owner.source} ${owner.sourceId}`,
    );
  }

  const row = documentRow(doc, domains.document, rulesHash, runId);
  const existing = (
    await tx.query<{
      id: number;
      content_hash: string;
      rules_hash: string;
      source_version: string | null;
      title: string;
      domains: string[];
      modified_on: string | null;
    }>(
      `SELECT id, content_hash, rules_hash, source_version, title, domains, to_char(modified_on, 'YYYY-MM-DD') AS modified_on
       FROM documents WHERE source = $1 AND source_id = $2 FOR UPDATE`,
      [row.source, row.source_id],
    )
  ).rows[0];
  const nothing = { added: 0, changed: 0, unchanged: 0, absent: 0 };
  if (existing?.modified_on && doc.modifiedOn && doc.modifiedOn < existing.modified_on) {
    // An older snapshot must never roll the corpus (or its change log) back.
    return {
      publicId: doc.publicId,
      outcome: "stale" as const,
      provisions: nothing,
      versions: 0,
      changes: 0,
    };
  }
  if (existing && existing.content_hash === row.content_hash && existing.rules_hash === rulesHash) {
    if (existing.source_version !== row.source_version) {
      await tx.query("UPDATE documents SET source_version = $2, last_run_id = $3 WHERE id = $1", [
        existing.id,
        row.source_version,
        runId,
      ]);
    }
    const provisions = { ...nothing, unchanged: doc.provisions.length };
    return { publicId: doc.publicId, outcome: "unchanged" as const, provisions, versions: 0, changes: 0 };
  }

  const documentId = (
    await tx.query<{ id: number }>(
      `INSERT INTO documents (${DOCUMENT_FIELDS})
       SELECT ${DOCUMENT_FIELDS} FROM jsonb_populate_record(NULL::documents, $1::jsonb)
       ON CONFLICT (source, source_id) DO UPDATE SET
         public_id = excluded.public_id, source_version = excluded.source_version, kind = excluded.kind,
         title = excluded.title, jurisdiction = excluded.jurisdiction, status = excluded.status,
         source_status = excluded.source_status, effective_from = excluded.effective_from,
         effective_to = excluded.effective_to, modified_on = excluded.modified_on, domains = excluded.domains,
         content_hash = excluded.content_hash, rules_hash = excluded.rules_hash,
         last_run_id = excluded.last_run_id, updated_at = now()
       RETURNING id`,
      [JSON.stringify(row)],
    )
  ).rows[0]!.id;

  await replaceSections(tx, documentId, doc);
  const context: DocumentContext = {
    documentId,
    sourceVersion: doc.source.version,
    runId,
    snapshotDate: doc.modifiedOn ?? new Date().toISOString().slice(0, 10),
    previousSnapshotDate: existing?.modified_on ?? null,
  };
  const provisions = await writeProvisions(tx, context, doc, domains.provisions);
  // History the log already holds is dropped here, not only by the writer: a newer snapshot
  // repeats every changed provision's whole history, and most of it is known.
  provisions.events = await notYetLogged(tx, provisions.events);
  await recordChanges(tx, provisions.events);
  // The search index copies the document's title and domains into every provision: when they
  // change, every provision of the document is re-indexed; otherwise only those that changed.
  const documentFieldsChanged =
    !existing || existing.title !== doc.title || existing.domains.join() !== domains.document.join();
  if (searchOutbox) {
    await recordForIndexing(
      tx,
      documentFieldsChanged ? await allPublicIds(tx, documentId) : provisions.touched,
    );
  }
  return {
    publicId: doc.publicId,
    outcome: existing ? ("updated" as const) : ("created" as const),
    provisions: provisions.counts,
    versions: provisions.versions,
    changes: provisions.events.length,
  };
}

async function replaceSections(tx: Queryable, documentId: number, doc: CanonicalDocument) {
  await tx.query("DELETE FROM sections WHERE document_id = $1", [documentId]);
  await inBatches(sectionRows(doc), async (batch) => {
    await tx.query(
      `INSERT INTO sections (document_id, source_id, parent_source_id, position, depth, title, status, effective_from, effective_to)
       SELECT $1, r.* FROM jsonb_to_recordset($2::jsonb) AS r(source_id text, parent_source_id text, position int,
         depth int, title text, status text, effective_from date, effective_to date)`,
      [documentId, JSON.stringify(batch)],
    );
  });
}

async function writeProvisions(
  tx: Queryable,
  context: DocumentContext,
  doc: CanonicalDocument,
  domains: Map<string, Domain[]>,
) {
  const { documentId, runId } = context;
  const stored = (
    await tx.query<{
      id: number;
      source_id: string;
      public_id: string;
      content_hash: string;
      present_in_source: boolean;
      position: number;
      number: string;
      version_id: string;
    }>(
      `SELECT id, source_id, public_id, content_hash, present_in_source, position, number, version_id
       FROM provisions WHERE document_id = $1`,
      [documentId],
    )
  ).rows;
  const storedBySource = new Map(stored.map((row) => [row.source_id, row]));
  const publicIds = assignProvisionIds(
    doc.publicId,
    doc.provisions,
    new Map(stored.map((r) => [r.source_id, r.public_id])),
  );
  const paths = sectionPaths(doc);

  const added: ProvisionRow[] = [];
  const changed: Array<ProvisionRow & { id: number }> = [];
  const reordered: Array<{ id: number; position: number }> = [];
  const byRow = new Map<string, CanonicalProvision>();
  doc.provisions.forEach((p, position) => {
    const row = provisionRow(
      p,
      publicIds.get(p.sourceId)!,
      position,
      p.sectionId ? (paths.get(p.sectionId) ?? []) : [],
      domains.get(p.sourceId) ?? [],
    );
    byRow.set(p.sourceId, p);
    const before = storedBySource.get(p.sourceId);
    if (!before) added.push(row);
    else if (before.content_hash !== row.content_hash || !before.present_in_source)
      changed.push({ ...row, id: before.id });
    else if (before.position !== position) reordered.push({ id: before.id, position });
  });
  const present = new Set(doc.provisions.map((p) => p.sourceId));
  const absentRows = stored.filter((row) => row.present_in_source && !present.has(row.source_id));
  const absent = absentRows.map((row) => row.id);

  const written = new Map<string, number>();
  await inBatches(added, async (batch) => {
    const { rows } = await tx.query<{ id: number; source_id: string }>(
      `INSERT INTO provisions (document_id, last_run_id, ${PROVISION_FIELDS})
       SELECT $1, $2, ${PROVISION_FIELDS} FROM jsonb_to_recordset($3::jsonb) AS r(${PROVISION_COLUMNS})
       RETURNING id, source_id`,
      [documentId, runId, JSON.stringify(batch)],
    );
    for (const row of rows) written.set(row.source_id, row.id);
  });
  await inBatches(changed, async (batch) => {
    await tx.query(
      `UPDATE provisions p SET ${PROVISION_FIELDS.split(",")
        .map((f) => `${f.trim()} = r.${f.trim()}`)
        .join(", ")}, present_in_source = true, last_run_id = $2, updated_at = now()
       FROM jsonb_to_recordset($1::jsonb) AS r(id int, ${PROVISION_COLUMNS})
       WHERE p.id = r.id`,
      [JSON.stringify(batch), runId],
    );
    for (const row of batch) written.set(row.source_id, row.id);
  });
  await inBatches(reordered, async (batch) => {
    await tx.query(
      `UPDATE provisions p SET position = r.position FROM jsonb_to_recordset($1::jsonb) AS r(id int, position int)
       WHERE p.id = r.id`,
      [JSON.stringify(batch)],
    );
  });
  if (absent.length > 0) {
    await tx.query(
      "UPDATE provisions SET present_in_source = false, last_run_id = $2, updated_at = now() WHERE id = ANY($1)",
      [absent, runId],
    );
  }

  const versions = await replaceVersionsAndLinks(tx, written, byRow);
  const events: ChangeEvent[] = absentRows.map((row) =>
    vanishedEvent({ provisionId: row.id, versionId: row.version_id, number: row.number }, context),
  );
  for (const [sourceId, provisionId] of written) {
    const p = byRow.get(sourceId)!;
    const ctx = { ...context, provisionId };
    const before = storedBySource.get(sourceId);
    const history = historyEvents(p, ctx);
    events.push(
      ...(before
        ? withRenumbering(history, p, { number: before.number, versionId: before.version_id }, ctx)
        : history),
    );
  }
  return {
    events,
    touched: [...added, ...changed, ...absentRows].map((row) => row.public_id),
    counts: {
      added: added.length,
      changed: changed.length,
      unchanged: doc.provisions.length - added.length - changed.length,
      absent: absent.length,
    },
    versions,
  };
}

async function notYetLogged(tx: Queryable, events: ChangeEvent[]): Promise<ChangeEvent[]> {
  if (events.length === 0) return events;
  const { rows } = await tx.query<{ idempotency_key: string }>(
    "SELECT idempotency_key FROM change_log WHERE provision_id = ANY($1)",
    [[...new Set(events.map((e) => e.provisionId))]],
  );
  const logged = new Set(rows.map((r) => r.idempotency_key));
  return events.filter((e) => !logged.has(e.key));
}

async function allPublicIds(tx: Queryable, documentId: number): Promise<string[]> {
  const { rows } = await tx.query<{ public_id: string }>(
    "SELECT public_id FROM provisions WHERE document_id = $1",
    [documentId],
  );
  return rows.map((r) => r.public_id);
}

async function replaceVersionsAndLinks(
  tx: Queryable,
  written: Map<string, number>,
  bySource: Map<string, CanonicalProvision>,
) {
  const ids = [...written.values()];
  if (ids.length === 0) return 0;
  // Versions are kept, not replaced: the text of a version that was current when an earlier
  // snapshot was loaded stays once a newer snapshot (which gives only the new text) arrives.
  await tx.query("DELETE FROM provision_links WHERE provision_id = ANY($1)", [ids]);
  const versions: object[] = [];
  const links: object[] = [];
  for (const [sourceId, provisionId] of written) {
    const p = bySource.get(sourceId)!;
    versions.push(...versionRows(provisionId, p));
    links.push(...linkRows(provisionId, p));
  }
  await inBatches(versions, async (batch) => {
    await tx.query(
      `INSERT INTO provision_versions (provision_id, version_id, label, status, source_status, effective_from, effective_to, text, repealed_on)
       SELECT r.* FROM jsonb_to_recordset($1::jsonb) AS r(provision_id int, version_id text, label text, status text,
         source_status text, effective_from date, effective_to date, text text, repealed_on date)
       ON CONFLICT (provision_id, version_id) DO UPDATE SET
         label = excluded.label, status = excluded.status, source_status = excluded.source_status,
         effective_from = excluded.effective_from, effective_to = excluded.effective_to,
         text = coalesce(excluded.text, provision_versions.text), repealed_on = excluded.repealed_on`,
      [JSON.stringify(batch)],
    );
  });
  await inBatches(links, async (batch) => {
    await tx.query(
      `INSERT INTO provision_links (provision_id, position, act_id, act_title, act_kind, relation, direction,
         act_article_id, act_article_number, act_published_on, act_signed_on, effective_on)
       SELECT r.* FROM jsonb_to_recordset($1::jsonb) AS r(provision_id int, position int, act_id text, act_title text,
         act_kind text, relation text, direction text, act_article_id text, act_article_number text,
         act_published_on date, act_signed_on date, effective_on date)`,
      [JSON.stringify(batch)],
    );
  });
  return versions.length;
}

import type { Domain } from "../core/domains.ts";
import type { Queryable } from "./database.ts";

/**
 * Documents, their sections and provisions, with their versions and amending acts, as ingest
 * writes them: SQL in, rows out. What to write (the diff against what is stored, the change
 * events) is decided by ingest/pipeline/persist.ts, inside one transaction per document.
 */

/**
 * The rows of the corpus tables, column for column (ingest/pipeline/rows.ts builds them). Type
 * aliases, not interfaces, so that they pass as plain records (the ingest benchmark COPYs them).
 */
export type DocumentRow = {
  public_id: string;
  source: string;
  source_id: string;
  source_version: string | null;
  kind: string;
  title: string;
  short_title: string | null;
  aliases: string[];
  jurisdiction: string;
  status: string;
  source_status: string | null;
  effective_from: string | null;
  effective_to: string | null;
  modified_on: string | null;
  domains: Domain[];
  content_hash: string;
  rules_hash: string;
  last_run_id: number;
};

export type SectionRow = {
  source_id: string;
  parent_source_id: string | null;
  position: number;
  depth: number;
  title: string;
  status: string | null;
  effective_from: string | null;
  effective_to: string | null;
};

export type ProvisionRow = {
  public_id: string;
  source_id: string;
  version_id: string;
  number: string;
  number_key: string;
  text: string;
  text_html: string | null;
  notes: string | null;
  status: string;
  source_status: string | null;
  effective_from: string | null;
  effective_to: string | null;
  /** Its in-force span across the versions the source lists (ingest/pipeline/rows.ts, inForceSpan). */
  in_force_from: string | null;
  in_force_to: string | null;
  section_source_id: string | null;
  section_path: string[];
  position: number;
  domains: string[];
  content_hash: string;
};

export type VersionRow = {
  provision_id: number;
  version_id: string;
  label: string | null;
  status: string;
  source_status: string | null;
  effective_from: string | null;
  effective_to: string | null;
  text: string | null;
  repealed_on: string | null;
};

export type LinkRow = {
  provision_id: number;
  position: number;
  act_id: string;
  act_title: string | null;
  act_kind: string | null;
  relation: string;
  direction: string;
  act_article_id: string | null;
  act_article_number: string | null;
  act_published_on: string | null;
  act_signed_on: string | null;
  effective_on: string | null;
};

const BATCH = 2000;

async function inBatches<T>(rows: T[], write: (batch: T[]) => Promise<void>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await write(rows.slice(i, i + BATCH));
}

const DOCUMENT_FIELDS = `public_id, source, source_id, source_version, kind, title, short_title, aliases, jurisdiction, status,
  source_status, effective_from, effective_to, modified_on, domains, content_hash, rules_hash, last_run_id`;

const PROVISION_COLUMNS = `public_id text, source_id text, version_id text, number text, number_key text, text text,
  text_html text, notes text, status text, source_status text, effective_from date, effective_to date,
  in_force_from date, in_force_to date, section_source_id text, section_path text[], position int, domains text[], content_hash text`;

const PROVISION_FIELDS = `public_id, source_id, version_id, number, number_key, text, text_html, notes, status,
  source_status, effective_from, effective_to, in_force_from, in_force_to, section_source_id, section_path, position, domains, content_hash`;

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

/** What ingest compares a new snapshot of a document with. */
export interface StoredDocument {
  id: number;
  contentHash: string;
  rulesHash: string;
  sourceVersion: string | null;
  title: string;
  domains: string[];
  modifiedOn: string | null;
}

/** The stored document of this source id, locked until the transaction ends. */
export async function lockDocument(
  tx: Queryable,
  source: string,
  sourceId: string,
): Promise<StoredDocument | undefined> {
  const { rows } = await tx.query<{
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
    [source, sourceId],
  );
  const r = rows[0];
  return r
    ? {
        id: r.id,
        contentHash: r.content_hash,
        rulesHash: r.rules_hash,
        sourceVersion: r.source_version,
        title: r.title,
        domains: r.domains,
        modifiedOn: r.modified_on,
      }
    : undefined;
}

/** An unchanged document seen in a newer snapshot: only the snapshot label and the run move on. */
export async function setDocumentSnapshot(
  tx: Queryable,
  documentId: number,
  sourceVersion: string | null,
  runId: number,
): Promise<void> {
  await tx.query("UPDATE documents SET source_version = $2, last_run_id = $3 WHERE id = $1", [
    documentId,
    sourceVersion,
    runId,
  ]);
}

/** Inserts or updates the document row; returns its id. */
export async function upsertDocument(tx: Queryable, row: DocumentRow): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO documents (${DOCUMENT_FIELDS})
     SELECT ${DOCUMENT_FIELDS} FROM jsonb_populate_record(NULL::documents, $1::jsonb)
     ON CONFLICT (source, source_id) DO UPDATE SET
       public_id = excluded.public_id, source_version = excluded.source_version, kind = excluded.kind,
       title = excluded.title, short_title = excluded.short_title, aliases = excluded.aliases,
       jurisdiction = excluded.jurisdiction, status = excluded.status,
       source_status = excluded.source_status, effective_from = excluded.effective_from,
       effective_to = excluded.effective_to, modified_on = excluded.modified_on, domains = excluded.domains,
       content_hash = excluded.content_hash, rules_hash = excluded.rules_hash,
       last_run_id = excluded.last_run_id, updated_at = now()
     RETURNING id`,
    [JSON.stringify(row)],
  );
  return rows[0]!.id;
}

export async function replaceSections(
  tx: Queryable,
  documentId: number,
  sections: SectionRow[],
): Promise<void> {
  await tx.query("DELETE FROM sections WHERE document_id = $1", [documentId]);
  await inBatches(sections, async (batch) => {
    await tx.query(
      `INSERT INTO sections (document_id, source_id, parent_source_id, position, depth, title, status, effective_from, effective_to)
       SELECT $1, r.* FROM jsonb_to_recordset($2::jsonb) AS r(source_id text, parent_source_id text, position int,
         depth int, title text, status text, effective_from date, effective_to date)`,
      [documentId, JSON.stringify(batch)],
    );
  });
}

/** What ingest compares each provision of a new snapshot with. */
export interface StoredProvision {
  id: number;
  source_id: string;
  public_id: string;
  content_hash: string;
  present_in_source: boolean;
  position: number;
  number: string;
  version_id: string;
}

export async function storedProvisions(tx: Queryable, documentId: number): Promise<StoredProvision[]> {
  const { rows } = await tx.query<StoredProvision>(
    `SELECT id, source_id, public_id, content_hash, present_in_source, position, number, version_id
     FROM provisions WHERE document_id = $1`,
    [documentId],
  );
  return rows;
}

/** New provisions; returns their ids by source id. */
export async function insertProvisions(
  tx: Queryable,
  documentId: number,
  runId: number,
  provisions: ProvisionRow[],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  await inBatches(provisions, async (batch) => {
    const { rows } = await tx.query<{ id: number; source_id: string }>(
      `INSERT INTO provisions (document_id, last_run_id, ${PROVISION_FIELDS})
       SELECT $1, $2, ${PROVISION_FIELDS} FROM jsonb_to_recordset($3::jsonb) AS r(${PROVISION_COLUMNS})
       RETURNING id, source_id`,
      [documentId, runId, JSON.stringify(batch)],
    );
    for (const row of rows) ids.set(row.source_id, row.id);
  });
  return ids;
}

/** Provisions whose content changed (or that are back in the source): every column rewritten. */
export async function updateProvisions(
  tx: Queryable,
  runId: number,
  provisions: Array<ProvisionRow & { id: number }>,
): Promise<void> {
  await inBatches(provisions, async (batch) => {
    await tx.query(
      `UPDATE provisions p SET ${PROVISION_FIELDS.split(",")
        .map((f) => `${f.trim()} = r.${f.trim()}`)
        .join(", ")}, present_in_source = true, last_run_id = $2, updated_at = now()
       FROM jsonb_to_recordset($1::jsonb) AS r(id int, ${PROVISION_COLUMNS})
       WHERE p.id = r.id`,
      [JSON.stringify(batch), runId],
    );
  });
}

/** Unchanged provisions that moved in the document. */
export async function moveProvisions(
  tx: Queryable,
  moves: Array<{ id: number; position: number }>,
): Promise<void> {
  await inBatches(moves, async (batch) => {
    await tx.query(
      `UPDATE provisions p SET position = r.position FROM jsonb_to_recordset($1::jsonb) AS r(id int, position int)
       WHERE p.id = r.id`,
      [JSON.stringify(batch)],
    );
  });
}

/** Provisions the latest snapshot no longer lists: kept, marked absent. */
export async function markProvisionsAbsent(tx: Queryable, ids: number[], runId: number): Promise<void> {
  if (ids.length === 0) return;
  await tx.query(
    "UPDATE provisions SET present_in_source = false, last_run_id = $2, updated_at = now() WHERE id = ANY($1)",
    [ids, runId],
  );
}

/**
 * The versions and amending acts of the provisions written. Versions are kept, not replaced: the
 * text of a version that was current when an earlier snapshot was loaded stays once a newer
 * snapshot (which gives only the new text) arrives. Links are replaced.
 */
export async function writeVersionsAndLinks(
  tx: Queryable,
  provisionIds: number[],
  versions: VersionRow[],
  links: LinkRow[],
): Promise<void> {
  if (provisionIds.length === 0) return;
  await tx.query("DELETE FROM provision_links WHERE provision_id = ANY($1)", [provisionIds]);
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
}

/**
 * Marks stored versions superseded, ending them on `endsOn` when it is known: versions a newer
 * snapshot replaced without listing them (ingest/pipeline/derive-changes.ts).
 */
export async function supersedeVersions(
  tx: Queryable,
  versions: Array<{ provisionId: number; versionId: string; endsOn: string | null }>,
): Promise<void> {
  if (versions.length === 0) return;
  await tx.query(
    `UPDATE provision_versions v SET status = 'superseded', effective_to = coalesce(r.ends_on, v.effective_to)
     FROM jsonb_to_recordset($1::jsonb) AS r(provision_id int, version_id text, ends_on date)
     WHERE v.provision_id = r.provision_id AND v.version_id = r.version_id`,
    [
      JSON.stringify(
        versions.map((v) => ({ provision_id: v.provisionId, version_id: v.versionId, ends_on: v.endsOn })),
      ),
    ],
  );
}

/** Every public id of a document's provisions. */
export async function documentProvisionIds(tx: Queryable, documentId: number): Promise<string[]> {
  const { rows } = await tx.query<{ public_id: string }>(
    "SELECT public_id FROM provisions WHERE document_id = $1",
    [documentId],
  );
  return rows.map((r) => r.public_id);
}

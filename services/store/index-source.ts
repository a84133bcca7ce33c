import type { Database } from "./database.ts";

/**
 * What the search index is built from. Postgres writes each index document's JSON itself (one
 * expression, the only definition of the document's shape, see index-document.ts): the rebuild
 * and the jobs send exactly the same bytes for the same row, and Node neither parses rows into
 * objects nor serialises them again on the hot path (bench:index). The document's fields are
 * described in services/search/index-document.ts.
 */

/** An index document as Postgres wrote it: its id (the public id) and its JSON, sent as is. */
export interface IndexDocumentJson {
  id: string;
  json: string;
  /** The document's `content_hash` (what verification compares), also inside `json`. */
  hash: string;
}

/**
 * The guides field, as Postgres search reads it (migration 013): the guides' wording and the
 * notions the text defines.
 */
const GUIDES_FIELD = "corpus_guides_field(p.guides, p.text)";

/**
 * What an index document must match: the row's content, its guides field, how often it is cited,
 * its document's kind, whether it opens its division, its in-force span and the names of the
 * divisions it opens (so an index made before `document_kind`, `opens_section`, the span or
 * `opened_divisions` existed reads as stale; the names are empty, so change no hash, for the
 * articles opening nothing).
 */
const INDEXED_HASH = `md5(p.content_hash || ${GUIDES_FIELD} || coalesce(a.cited_by, 0) || d.kind
    || coalesce(a.opens_section, false) || coalesce(p.in_force_from::text, 'open') || coalesce(p.in_force_to::text, 'open')
    || array_to_string(p.opened_divisions, ' | '))`;

const DOCUMENT_JSON = `json_build_object(
    'public_id', p.public_id, 'source_id', p.source_id, 'version_id', p.version_id,
    'document_id', d.public_id, 'document_title', d.title, 'document_kind', d.kind, 'number', p.number, 'number_key', p.number_key,
    'section_path', p.section_path, 'opened_divisions', p.opened_divisions, 'text', p.text, 'guides', ${GUIDES_FIELD}, 'status', p.status,
    'effective_from', p.effective_from, 'effective_to', p.effective_to, 'in_force_from', p.in_force_from, 'in_force_to', p.in_force_to,
    'domains', p.domains, 'document_domains', d.domains,
    'present_in_source', p.present_in_source, 'cited_by', coalesce(a.cited_by, 0),
    'opens_section', coalesce(a.opens_section, false),
    'content_hash', h.content_hash)::text`;

const FROM = `FROM provisions p JOIN documents d ON d.id = p.document_id
       LEFT JOIN search_authority a ON a.provision_id = p.id
       CROSS JOIN LATERAL (SELECT ${INDEXED_HASH} AS content_hash) h`;

const SELECT = `SELECT p.id, p.public_id, h.content_hash, ${DOCUMENT_JSON} AS json ${FROM}`;

type Row = { id: number; public_id: string; content_hash: string; json: string };
const toDocument = (row: Row): IndexDocumentJson => ({
  id: row.public_id,
  json: row.json,
  hash: row.content_hash,
});

export async function* provisionsForIndex(
  db: Database,
  pageSize = 2000,
): AsyncGenerator<IndexDocumentJson[]> {
  let after = 0;
  for (;;) {
    const { rows } = await db.query<Row>(`${SELECT} WHERE p.id > $1 ORDER BY p.id LIMIT $2`, [
      after,
      pageSize,
    ]);
    if (rows.length === 0) return;
    after = rows[rows.length - 1]!.id;
    yield rows.map(toDocument);
  }
}

export async function provisionsByPublicId(db: Database, publicIds: string[]): Promise<IndexDocumentJson[]> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE p.public_id = ANY($1)`, [publicIds]);
  return rows.map(toDocument);
}

/** public id → content hash of every provision: what a verification compares the index with. */
export async function provisionHashes(db: Database): Promise<Map<string, string>> {
  const { rows } = await db.query<{ public_id: string; content_hash: string }>(
    `SELECT p.public_id, h.content_hash ${FROM}`,
  );
  return new Map(rows.map((r) => [r.public_id, r.content_hash]));
}

/** public id → content hash of these provisions (those that exist). */
export async function provisionHashesOf(db: Database, publicIds: string[]): Promise<Map<string, string>> {
  const { rows } = await db.query<{ public_id: string; content_hash: string }>(
    `SELECT p.public_id, h.content_hash ${FROM} WHERE p.public_id = ANY($1)`,
    [publicIds],
  );
  return new Map(rows.map((r) => [r.public_id, r.content_hash]));
}

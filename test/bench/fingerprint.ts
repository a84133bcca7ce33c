import type { Database } from "../../services/store/database.ts";

/**
 * What a load stored, reduced to a row count and a digest per table, so that the ingest and the
 * floor can be shown to have written the same rows. Generated ids and timestamps differ by nature
 * and are left out; a reference to a document or a provision is replaced by its public id. The
 * search vectors the database computed from the provisions' columns are digested apart
 * (`provisions.search_vector`) and must agree too, on either database: PGlite and a Postgres
 * server read the texts through the same corpus_search_text (migration 025).
 */
export type Fingerprint = Record<string, { rows: number; digest: string }>;

const ROWS_OF: Record<string, string> = {
  documents: "SELECT to_jsonb(x) - 'id' - 'created_at' - 'updated_at' FROM documents x",
  sections: `SELECT (to_jsonb(x) - 'document_id') || jsonb_build_object('document', d.public_id)
    FROM sections x JOIN documents d ON d.id = x.document_id`,
  provisions: `SELECT (to_jsonb(x) - 'id' - 'document_id' - 'created_at' - 'updated_at' - 'search_vector')
      || jsonb_build_object('document', d.public_id)
    FROM provisions x JOIN documents d ON d.id = x.document_id`,
  "provisions.search_vector":
    "SELECT jsonb_build_object('provision', x.public_id, 'vector', x.search_vector) FROM provisions x",
  provision_versions: `SELECT (to_jsonb(x) - 'provision_id') || jsonb_build_object('provision', p.public_id)
    FROM provision_versions x JOIN provisions p ON p.id = x.provision_id`,
  provision_links: `SELECT (to_jsonb(x) - 'provision_id') || jsonb_build_object('provision', p.public_id)
    FROM provision_links x JOIN provisions p ON p.id = x.provision_id`,
};

export async function fingerprint(db: Database): Promise<Fingerprint> {
  const result: Fingerprint = {};
  for (const [table, rows] of Object.entries(ROWS_OF)) {
    // Digests of rows, sorted: independent of insertion order, small enough to aggregate anywhere.
    const { rows: found } = await db.query<{ rows: number; digest: string | null }>(
      `SELECT count(*)::int AS rows, md5(string_agg(h, '' ORDER BY h)) AS digest
       FROM (SELECT md5(r.row::text) AS h FROM (${rows}) AS r(row)) AS t`,
    );
    result[table] = { rows: found[0]!.rows, digest: found[0]!.digest ?? "(empty)" };
  }
  return result;
}

/** The search vectors' digest (the one column ingest does not write: each database computes it). */
export const SEARCH_VECTORS = "provisions.search_vector";

/** Tables whose stored rows differ between two fingerprints (empty when they match). */
export function differingTables(a: Fingerprint, b: Fingerprint): string[] {
  return Object.keys(ROWS_OF).filter(
    (table) => a[table]?.rows !== b[table]?.rows || a[table]?.digest !== b[table]?.digest,
  );
}

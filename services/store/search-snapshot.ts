import type { Queryable } from "./database.ts";

/**
 * What an in-memory copy of the search model reads from the store (services/search/memory-search.ts):
 * the search generation (migration 012), and every provision present in its source with its
 * `search_vector` and the columns search filters and priors read.
 */

/** One provision as search reads it. */
export interface IndexedProvision {
  id: number;
  publicId: string;
  documentPublicId: string;
  /** The document's kind (`code`, `collective_agreement`…): the reach prior (RANKING.agreement). */
  documentKind: string;
  numberKey: string;
  domains: string[];
  status: string;
  /** When it is in force, whichever version is (migration 022). */
  inForceFrom: string | null;
  inForceTo: string | null;
  citedBy: number;
  /** Whether it opens its division (migration 020): the opening prior (RANKING.opening). */
  opensSection: boolean;
  /**
   * `search_vector::text`: number A, headings (and the names of the divisions it opens) B, text C,
   * guides and defined notions D (migrations 003, 010, 013, 029).
   */
  vector: string;
}

export async function readSearchGeneration(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ value: string }>("SELECT value::text AS value FROM search_generation");
  return rows[0]?.value ?? "0";
}

/**
 * The provisions search reads, in batches by id: each batch is one short statement, so an
 * embedded store keeps answering other requests between them.
 */
export async function* readIndexedProvisions(
  db: Queryable,
  batch = 2_000,
): AsyncGenerator<IndexedProvision[]> {
  let after = 0;
  for (;;) {
    const { rows } = await db.query<IndexedProvision>(
      `SELECT p.id, p.public_id AS "publicId", d.public_id AS "documentPublicId", d.kind AS "documentKind", p.number_key AS "numberKey",
              p.domains, p.status, p.in_force_from AS "inForceFrom", p.in_force_to AS "inForceTo",
              coalesce(a.cited_by, 0) AS "citedBy",
              coalesce(a.opens_section, false) AS "opensSection", coalesce(p.search_vector::text, '') AS vector
       FROM provisions p JOIN documents d ON d.id = p.document_id
            LEFT JOIN search_authority a ON a.provision_id = p.id
       WHERE p.present_in_source AND p.id > $1
       ORDER BY p.id LIMIT $2`,
      [after, batch],
    );
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1]!.id;
  }
}

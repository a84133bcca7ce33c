import type { Queryable } from "./database.ts";
import { recordForIndexing } from "./search-outbox.ts";

/**
 * Citation authority (migration 011): search_authority holds, per provision, how many other
 * provisions cite it, from the references triggers keep. Refreshed after an ingest run (a run
 * changes who cites whom, also for provisions it did not load); only the counts that changed are
 * written, and with an index engine those provisions are queued for re-indexing. Returns their
 * public ids.
 */
export async function refreshSearchAuthority(tx: Queryable, searchOutbox: boolean): Promise<string[]> {
  const { rows } = await tx.query<{ provision_id: number }>(
    `WITH counts AS (
       SELECT t.id AS provision_id, count(DISTINCT r.provision_id)::int AS cited_by
       FROM provision_references r
            JOIN provisions t ON t.document_id = r.document_id AND t.number_key = r.number_key
       WHERE t.present_in_source
       GROUP BY t.id),
     gone AS (
       DELETE FROM search_authority a WHERE NOT EXISTS (SELECT 1 FROM counts c WHERE c.provision_id = a.provision_id)
       RETURNING a.provision_id),
     written AS (
       INSERT INTO search_authority (provision_id, cited_by) SELECT provision_id, cited_by FROM counts
       ON CONFLICT (provision_id) DO UPDATE SET cited_by = excluded.cited_by
         WHERE search_authority.cited_by <> excluded.cited_by
       RETURNING provision_id)
     SELECT provision_id FROM gone UNION SELECT provision_id FROM written`,
  );
  if (rows.length === 0) return [];
  const { rows: ids } = await tx.query<{ public_id: string }>(
    "SELECT public_id FROM provisions WHERE id = ANY($1::int[])",
    [rows.map((r) => r.provision_id)],
  );
  const changed = ids.map((r) => r.public_id);
  if (searchOutbox) await recordForIndexing(tx, changed);
  return changed;
}

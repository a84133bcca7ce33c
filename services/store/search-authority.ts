import type { Queryable } from "./database.ts";
import { recordForIndexing } from "./search-outbox.ts";

/**
 * Search's structural priors (migrations 011, 020, 021, 028, 029 and 032): search_authority holds, per
 * provision, how many other provisions cite it, from the references triggers keep, and whether
 * it opens its division (corpus_section_openers: the first in force of its section, in its
 * document's order, outside divisions of special rules; an article stating only its division's
 * scope, and defining no notion, leaves that to the next); provisions.opened_divisions holds the
 * names of the divisions an article opens, which its headings field reads a second time.
 * Refreshed after an ingest run (a run changes who cites whom, also for provisions it did not
 * load, and an article inserted or repealed changes which one opens its division); only the rows
 * that changed are written, and with an index engine those provisions are queued for re-indexing.
 * Returns their public ids.
 *
 * Who opens a division, and the names it opens, depend on the article's own document only: they
 * are recomputed for the documents listed in search_priors_pending since the last refresh, which
 * triggers fill in the writers' own transactions, and kept as they are for the others (migration
 * 032). The citation counts are always recomputed over the whole store.
 */
export async function refreshSearchAuthority(tx: Queryable, searchOutbox: boolean): Promise<string[]> {
  // NULL would read every document (a store before migration 032, test/helpers/stores.ts).
  const { rows: pending } = await tx.query<{ documents: number[] | null }>(
    "SELECT corpus_take_priors_pending() AS documents",
  );
  const scope = pending[0]!.documents;
  const { rows } = await tx.query<{ provision_id: number }>(
    `WITH counts AS (
       SELECT t.id AS provision_id, count(DISTINCT r.provision_id)::int AS cited_by
       FROM provision_references r
            JOIN provisions t ON t.document_id = r.document_id AND t.number_key = r.number_key
       WHERE t.present_in_source
       GROUP BY t.id),
     openers AS (
       SELECT provision_id FROM corpus_section_openers($1::int[])
       UNION ALL
       -- In the documents no writer changed, the articles opening a division are as they were.
       SELECT a.provision_id FROM search_authority a JOIN provisions p ON p.id = a.provision_id
       WHERE a.opens_section AND $1::int[] IS NOT NULL AND p.document_id <> ALL ($1::int[])),
     priors AS (
       SELECT coalesce(c.provision_id, o.provision_id) AS provision_id, coalesce(c.cited_by, 0) AS cited_by,
              o.provision_id IS NOT NULL AS opens_section
       FROM counts c FULL JOIN openers o ON o.provision_id = c.provision_id),
     gone AS (
       DELETE FROM search_authority a WHERE NOT EXISTS (SELECT 1 FROM priors c WHERE c.provision_id = a.provision_id)
       RETURNING a.provision_id),
     written AS (
       INSERT INTO search_authority (provision_id, cited_by, opens_section)
       SELECT provision_id, cited_by, opens_section FROM priors
       ON CONFLICT (provision_id) DO UPDATE SET cited_by = excluded.cited_by, opens_section = excluded.opens_section
         WHERE (search_authority.cited_by, search_authority.opens_section)
               IS DISTINCT FROM (excluded.cited_by, excluded.opens_section)
       RETURNING provision_id)
     SELECT provision_id FROM gone UNION SELECT provision_id FROM written`,
    [scope],
  );
  // The names of the divisions each article opens, read again in its headings (migration 029).
  const { rows: named } =
    scope?.length === 0
      ? { rows: [] }
      : await tx.query<{ provision_id: number }>(
          "SELECT provision_id FROM corpus_write_opened_divisions($1::int[]) AS provision_id",
          [scope],
        );
  if (rows.length === 0 && named.length === 0) return [];
  const { rows: ids } = await tx.query<{ public_id: string }>(
    "SELECT public_id FROM provisions WHERE id = ANY($1::int[])",
    [[...rows, ...named].map((r) => r.provision_id)],
  );
  const changed = ids.map((r) => r.public_id);
  if (searchOutbox) {
    // A provision the run wrote has an entry waiting to be handed to a job: locked here, the
    // dispatcher skips it until this transaction commits, and the job then reads the row with its
    // new priors. Only the others need an entry of their own.
    const { rows: waiting } = await tx.query<{ public_id: string }>(
      `SELECT public_id FROM search_outbox
       WHERE dispatched_at IS NULL AND indexed_at IS NULL AND public_id = ANY($1::text[]) FOR UPDATE`,
      [changed],
    );
    const queued = new Set(waiting.map((r) => r.public_id));
    await recordForIndexing(
      tx,
      changed.filter((id) => !queued.has(id)),
    );
  }
  return changed;
}

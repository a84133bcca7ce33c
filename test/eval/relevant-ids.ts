import type { Queryable } from "../../services/store/database.ts";
import type { QuerySet } from "./query-sets.ts";

/** A query whose relevant set is named by the store's public ids. */
export interface EvalQuery {
  query: string;
  guide: string;
  /** Query.group: wordings of one question, resampled together. */
  group?: string;
  relevant: string[];
}

/** The same rule as the API's default in_force filter (IN_FORCE in services/search/postgres-ranking-sql.ts). */
export const IN_FORCE = `((p.in_force_from IS NULL OR p.in_force_from <= $2::date)
    AND (p.in_force_to > $2::date OR (p.in_force_to IS NULL AND p.status <> 'repealed')))`;

/**
 * Maps a set's LEGI ids to public ids, once: an id is an article's cid (provisions.source_id), its
 * current version (provisions.version_id) or an earlier one (provision_versions.version_id).
 * Returns the queries holding at least one loaded relevant provision, and what did not map.
 */
export async function mapRelevant(
  db: Queryable,
  set: QuerySet,
  today: string,
  limit = Number.POSITIVE_INFINITY,
) {
  const ids = [...new Set(set.queries.flatMap((q) => q.relevant))];
  const { rows } = await db.query<{ id: string; public_id: string; document: string; in_force: boolean }>(
    `SELECT m.id, p.public_id, d.source_id AS document, (p.present_in_source AND ${IN_FORCE}) AS in_force
       FROM (SELECT source_id AS id, id AS provision FROM provisions WHERE source_id = ANY($1::text[])
             UNION SELECT version_id, id FROM provisions WHERE version_id = ANY($1::text[])
             UNION SELECT version_id, provision_id FROM provision_versions WHERE version_id = ANY($1::text[])) m
       JOIN provisions p ON p.id = m.provision JOIN documents d ON d.id = p.document_id`,
    [ids, today],
  );
  const publicIds = new Map<string, Set<string>>();
  const inForce = new Set<string>();
  const otherDocument = new Set<string>();
  const mappedIds = new Set<string>();
  for (const row of rows) {
    mappedIds.add(row.id);
    if (
      (set.relevantDocument && row.document !== set.relevantDocument) ||
      (set.otherThanDocument && row.document === set.otherThanDocument)
    ) {
      otherDocument.add(row.id);
      continue;
    }
    if (!publicIds.has(row.id)) publicIds.set(row.id, new Set());
    publicIds.get(row.id)!.add(row.public_id);
    if (row.in_force) inForce.add(row.public_id);
  }
  const all = set.queries.map((q) => ({
    query: q.query,
    guide: q.guide,
    group: q.group,
    relevant: [...new Set(q.relevant.flatMap((id) => [...(publicIds.get(id) ?? [])]))].sort(),
  }));
  const queries: EvalQuery[] = all.filter((q) => q.relevant.length > 0).slice(0, limit);
  return {
    queries,
    stats: {
      ids: ids.length,
      unmapped: ids.filter((id) => !mappedIds.has(id)),
      otherDocument: otherDocument.size,
      dropped: all.filter((q) => q.relevant.length === 0).length,
      // Queries every relevant provision of which is out of force today: no default search can find them.
      outOfForce: queries.filter((q) => q.relevant.every((id) => !inForce.has(id))).length,
    },
  };
}

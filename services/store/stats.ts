import { DOMAINS } from "../core/domains.ts";
import type { Database } from "./database.ts";
import { type GuideSourceRow, listGuideSources } from "./guides.ts";

export interface CorpusStats {
  documents: number;
  provisions: number;
  provisionsInForce: number;
  provisionsUnclassified: number;
  versions: number;
  links: number;
  perDomain: Record<string, number>;
  /** Documents holding at least one provision of the domain. */
  documentsPerDomain: Record<string, string[]>;
  perDocument: Array<{
    publicId: string;
    title: string;
    kind: string;
    source: string;
    sourceVersion: string | null;
    domains: string[];
    provisions: number;
    loadedAt: string;
  }>;
  lastIngest: { runId: number; source: string; sourceVersion: string | null; finishedAt: string } | null;
  /** Guide sources loaded for search's document expansion (`corpus ingest guides`). */
  guides: GuideSourceRow[];
}

/** Counts of what is loaded. Provisions no longer in their source are left out of the counts. */
export async function corpusStats(db: Database): Promise<CorpusStats> {
  const [totals, perDomain, perDocument, last, guides] = await Promise.all([
    db.query<Record<string, number>>(
      `SELECT (SELECT count(*) FROM documents)::int AS documents,
              (SELECT count(*) FROM provisions WHERE present_in_source)::int AS provisions,
              (SELECT count(*) FROM provisions WHERE present_in_source AND status = 'in_force')::int AS in_force,
              (SELECT count(*) FROM provisions WHERE present_in_source AND cardinality(domains) = 0)::int AS unclassified,
              (SELECT count(*) FROM provision_versions)::int AS versions,
              (SELECT count(*) FROM provision_links)::int AS links`,
    ),
    db.query<{ domain: string; n: number; documents: string[] }>(
      `SELECT dom AS domain, count(*)::int AS n, array_agg(DISTINCT d.public_id) AS documents
       FROM provisions p JOIN documents d ON d.id = p.document_id, unnest(p.domains) AS dom
       WHERE p.present_in_source GROUP BY dom`,
    ),
    db.query<{
      public_id: string;
      title: string;
      kind: string;
      source: string;
      source_version: string | null;
      domains: string[];
      n: number;
      updated_at: Date;
    }>(
      `SELECT d.public_id, d.title, d.kind, d.source, d.source_version, d.domains, d.updated_at, count(p.id)::int AS n
       FROM documents d LEFT JOIN provisions p ON p.document_id = d.id AND p.present_in_source
       GROUP BY d.id ORDER BY d.public_id`,
    ),
    db.query<{ id: number; source: string; source_version: string | null; finished_at: Date }>(
      "SELECT id, source, source_version, finished_at FROM ingest_runs WHERE status = 'succeeded' ORDER BY id DESC LIMIT 1",
    ),
    listGuideSources(db),
  ]);
  const t = totals.rows[0]!;
  const counts = new Map(perDomain.rows.map((r) => [r.domain, r.n]));
  const lastRun = last.rows[0];
  return {
    documents: t.documents!,
    provisions: t.provisions!,
    provisionsInForce: t.in_force!,
    provisionsUnclassified: t.unclassified!,
    versions: t.versions!,
    links: t.links!,
    perDomain: Object.fromEntries(DOMAINS.map((d) => [d, counts.get(d) ?? 0])),
    documentsPerDomain: Object.fromEntries(
      DOMAINS.map((d) => [d, perDomain.rows.find((r) => r.domain === d)?.documents.sort() ?? []]),
    ),
    perDocument: perDocument.rows.map((r) => ({
      publicId: r.public_id,
      title: r.title,
      kind: r.kind,
      source: r.source,
      sourceVersion: r.source_version,
      domains: r.domains,
      provisions: r.n,
      loadedAt: new Date(r.updated_at).toISOString(),
    })),
    lastIngest: lastRun
      ? {
          runId: lastRun.id,
          source: lastRun.source,
          sourceVersion: lastRun.source_version,
          finishedAt: new Date(lastRun.finished_at).toISOString(),
        }
      : null,
    guides,
  };
}

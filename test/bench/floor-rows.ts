import type { CanonicalDocument } from "../../ingest/model.ts";
import {
  documentRow,
  linkRows,
  provisionRow,
  sectionPaths,
  sectionRows,
  versionRows,
} from "../../ingest/pipeline/rows.ts";
import { classify, type DomainRules } from "../../services/core/classify.ts";
import { assignProvisionIds } from "../../services/core/public-ids.ts";
import { CopyTable } from "./copy-text.ts";

/**
 * The rows `ingest/pipeline/persist.ts` writes for a first ingest into an empty store, computed
 * the cheapest way: the same adapter, classification, public ids and content hashes, but no zod
 * validation, no JSON round trip through jsonb_to_recordset, no per-document transactions.
 * Rows come from ingest/pipeline/rows.ts, as in persist.ts; the benchmark still checks
 * that both paths stored identical rows.
 */

export interface FloorTables {
  documents: CopyTable;
  sections: CopyTable;
  provisions: CopyTable;
  versions: CopyTable;
  links: CopyTable;
}

const newTables = (): FloorTables => ({
  documents: new CopyTable(
    "documents",
    `public_id source source_id source_version kind title short_title aliases jurisdiction status source_status
     effective_from effective_to modified_on domains content_hash rules_hash last_run_id`,
  ),
  sections: new CopyTable(
    "sections",
    "document_id source_id parent_source_id position depth title status effective_from effective_to",
  ),
  provisions: new CopyTable(
    "provisions",
    `document_id last_run_id public_id source_id version_id number number_key text text_html notes status
     source_status effective_from effective_to in_force_from in_force_to section_source_id section_path position domains content_hash`,
  ),
  versions: new CopyTable(
    "provision_versions",
    "provision_id version_id label status source_status effective_from effective_to text repealed_on",
  ),
  links: new CopyTable(
    "provision_links",
    `provision_id position act_id act_title act_kind relation direction act_article_id act_article_number
     act_published_on act_signed_on effective_on`,
  ),
});

/**
 * Encodes every row of the documents (test/bench/bench-source.ts reads them as the ingest does). Ids are those an empty database hands out (identity
 * columns count from 1 in insertion order), which is what lets one COPY per table replace the
 * ingest's INSERT … RETURNING id round trips.
 */
export function buildFloorTables(
  documents: Iterable<CanonicalDocument>,
  rules: DomainRules,
  runId: number,
): FloorTables {
  const tables = newTables();
  let documentId = 0;
  let provisionId = 0;
  for (const doc of documents) {
    const domains = classify(doc, rules);
    documentId += 1;
    tables.documents.add(documentRow(doc, domains.document, rules.hash, runId));
    for (const section of sectionRows(doc)) tables.sections.add({ document_id: documentId, ...section });

    const paths = sectionPaths(doc);
    const publicIds = assignProvisionIds(doc.publicId, doc.provisions);
    doc.provisions.forEach((p, position) => {
      provisionId += 1;
      const path = p.sectionId ? (paths.get(p.sectionId) ?? []) : [];
      const row = provisionRow(
        p,
        publicIds.get(p.sourceId)!,
        position,
        path,
        domains.provisions.get(p.sourceId) ?? [],
      );
      tables.provisions.add({ document_id: documentId, last_run_id: runId, ...row });
      for (const version of versionRows(provisionId, p)) tables.versions.add(version);
      for (const link of linkRows(provisionId, p)) tables.links.add(link);
    });
  }
  return tables;
}

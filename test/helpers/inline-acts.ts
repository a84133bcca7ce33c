import type { CanonicalDocumentInput } from "../../ingest/model.ts";
import { type IngestSummary, ingest } from "../../ingest/pipeline/ingest.ts";
import { parseDomainRules } from "../../services/core/classify.ts";
import type { Database } from "../../services/store/database.ts";

/**
 * Loads acts written in a test (canonical documents) as `corpus ingest` loads a source, in one
 * run; `rules` the domain rules (YAML), none unless given; `runId` a run queued beforehand, as the
 * worker runs one (otherwise a new run is recorded).
 */
export function ingestInline(
  db: Database,
  documents: CanonicalDocumentInput[],
  rules = "version: 1\nrules: []\n",
  runId?: number,
): Promise<IngestSummary> {
  return ingest(db, {
    source: "canonical",
    sourceVersion: "inline",
    parameters: {},
    documentsTotal: documents.length,
    documents: documents.map((document) => ({ file: "inline", document })),
    rules: parseDomainRules(rules, "inline.yaml"),
    runId,
  });
}

/**
 * A law in force since 2020 with no sections, its articles given as [number, text], each in force
 * since 2020 too: the act most ranking tests need. `key` names its source ids (KEY-number).
 */
export function lawOf(
  key: string,
  publicId: string,
  title: string,
  articles: string[][],
): CanonicalDocumentInput {
  return {
    source: { name: "canonical", documentId: key, version: null },
    publicId,
    kind: "law",
    title,
    jurisdiction: "FR",
    status: "in_force",
    effectiveFrom: "2020-01-01",
    effectiveTo: null,
    sections: [],
    provisions: articles.map(([number, text]) => ({
      sourceId: `${key}-${number}`,
      versionId: `${key}-${number}-v1`,
      number: number!,
      text: text!,
      status: "in_force",
      effectiveFrom: "2020-01-01",
      effectiveTo: null,
      sectionId: null,
    })),
  };
}

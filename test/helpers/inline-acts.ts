import type { CanonicalDocumentInput } from "../../ingest/model.ts";
import { type IngestSummary, ingest } from "../../ingest/pipeline/ingest.ts";
import { parseDomainRules } from "../../services/core/classify.ts";
import type { Database } from "../../services/store/database.ts";

/**
 * Loads acts written in a test (canonical documents) as `corpus ingest` loads a source, in one
 * run; `rules` the domain rules (YAML), none unless given.
 */
export function ingestInline(
  db: Database,
  documents: CanonicalDocumentInput[],
  rules = "version: 1\nrules: []\n",
): Promise<IngestSummary> {
  return ingest(db, {
    source: "canonical",
    sourceVersion: "inline",
    parameters: {},
    documentsTotal: documents.length,
    documents: documents.map((document) => ({ file: "inline", document })),
    rules: parseDomainRules(rules, "inline.yaml"),
  });
}

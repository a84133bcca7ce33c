import path from "node:path";
import { loadDomainRules } from "../services/core/classify.ts";
import type { Config } from "../services/core/config.ts";
import { InputError } from "../services/core/errors.ts";
import type { Database } from "../services/store/database.ts";
import { findPublicIdOwner } from "../services/store/documents.ts";
import type { CanonicalDocumentInput } from "./model.ts";
import { type IngestProgress, type IngestSummary, ingest } from "./pipeline/ingest.ts";
import { rejectDuplicateNumbers, validateDocument } from "./pipeline/validate.ts";
import { parseCanonicalFile } from "./sources/canonical/adapter.ts";
import { loadAgreementNames } from "./sources/kali/names.ts";
import { readKaliAgreements, resolveKaliSnapshot, selectAgreements } from "./sources/kali/snapshot.ts";
import { readLegiCodes, resolveLegiSnapshot } from "./sources/legi/snapshot.ts";
import { readJsonFile } from "./sources/read-json.ts";

/**
 * Loading a source into the store: LEGI codes or KALI agreements from a snapshot, or a canonical file. Shared by the
 * CLI, the server's first start and the ingest-run job, which hand the run's change events to the
 * change log afterwards (services/jobs/change-log-job.ts).
 */

export interface LegiIngestOptions {
  version?: string | undefined;
  path?: string | undefined;
  codes?: string[] | undefined;
  onProgress?: (progress: IngestProgress) => void;
  /** A run queued beforehand. */
  runId?: number | undefined;
}

export async function ingestLegi(
  db: Database,
  config: Config,
  options: LegiIngestOptions,
): Promise<IngestSummary> {
  const rules = loadDomainRules(config.DOMAIN_RULES);
  const snapshot = await resolveLegiSnapshot({
    version: options.version,
    path: options.path,
    cacheDir: path.join(config.DATA_DIR, "sources"),
  });
  const codes = options.codes?.length ? options.codes : snapshot.codes;
  return ingest(db, {
    source: "legi",
    sourceVersion: snapshot.label,
    parameters: { version: options.version ?? null, path: options.path ?? null, codes },
    documentsTotal: codes.length,
    documents: readLegiCodes(snapshot, codes),
    rules,
    runId: options.runId,
    searchOutbox: config.SEARCH_ENGINE !== "postgres",
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
}

export interface KaliIngestOptions {
  /** A published version of @socialgouv/kali-data; default: the latest. */
  version?: string | undefined;
  path?: string | undefined;
  /** Only these agreements, by IDCC. */
  idcc?: string[] | undefined;
  onProgress?: (progress: IngestProgress) => void;
  runId?: number | undefined;
}

export interface KaliIngestSummary extends IngestSummary {
  /** Agreements the snapshot lists by title only, without any article: nothing to load. */
  titleOnly: number;
}

/** `corpus ingest kali`: collective agreements, one document per agreement (ingest/sources/kali/). */
export async function ingestKali(
  db: Database,
  config: Config,
  options: KaliIngestOptions,
): Promise<KaliIngestSummary> {
  const rules = loadDomainRules(config.DOMAIN_RULES);
  const snapshot = await resolveKaliSnapshot({
    version: options.version,
    path: options.path,
    cacheDir: path.join(config.DATA_DIR, "sources"),
  });
  const agreements = selectAgreements(snapshot, options.idcc);
  const names = loadAgreementNames();
  const documents = function* () {
    for (const { file, document, withoutText, idcc } of readKaliAgreements(snapshot, agreements))
      if (document)
        yield { file, document: { ...document, aliases: names.get(idcc ?? "") ?? [] }, withoutText };
  };
  const summary = await ingest(db, {
    source: "kali",
    sourceVersion: snapshot.label,
    parameters: { version: options.version ?? null, path: options.path ?? null, idcc: options.idcc ?? null },
    documentsTotal: agreements.length,
    documents: documents(),
    rules,
    runId: options.runId,
    searchOutbox: config.SEARCH_ENGINE !== "postgres",
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  const titleOnly = options.idcc?.length ? 0 : snapshot.agreements.filter((a) => !a.hasArticles).length;
  return { ...summary, titleOnly };
}

async function rejectIdClashes(db: Database, documents: CanonicalDocumentInput[], file: string) {
  const publicIds = new Map<string, number>();
  const sourceIds = new Map<string, number>();
  for (const [i, doc] of documents.entries()) {
    const sourceKey = `${doc.source.name} ${doc.source.documentId}`;
    const samePublic = publicIds.get(doc.publicId);
    if (samePublic !== undefined) {
      throw new InputError(
        file,
        `documents.${i}.id`,
        `public id ${doc.publicId} is also that of documents.${samePublic}`,
      );
    }
    const sameSource = sourceIds.get(sourceKey);
    if (sameSource !== undefined) {
      throw new InputError(
        file,
        `documents.${i}.sourceId`,
        `source id ${sourceKey} is also that of documents.${sameSource}`,
      );
    }
    publicIds.set(doc.publicId, i);
    sourceIds.set(sourceKey, i);
    const owner = await findPublicIdOwner(db, doc.publicId);
    if (owner && `${owner.source} ${owner.sourceId}` !== sourceKey) {
      throw new InputError(
        file,
        `documents.${i}.id`,
        `public id ${doc.publicId} already belongs to ${owner.source} ${owner.sourceId}`,
      );
    }
  }
}

export async function ingestCanonicalFile(
  db: Database,
  config: Config,
  file: string,
  onProgress?: (progress: IngestProgress) => void,
): Promise<IngestSummary> {
  const resolved = path.resolve(file);
  return ingestCanonicalContent(db, config, readJsonFile(resolved), resolved, { onProgress });
}

/** A canonical file's content (parsed JSON), checked whole, against itself and the store, before anything is written. */
export async function ingestCanonicalContent(
  db: Database,
  config: Config,
  raw: unknown,
  label: string,
  options: { onProgress?: ((progress: IngestProgress) => void) | undefined; runId?: number | undefined } = {},
): Promise<IngestSummary> {
  const rules = loadDomainRules(config.DOMAIN_RULES);
  const documents = parseCanonicalFile(raw, label).map((document) => {
    rejectDuplicateNumbers(validateDocument(document, label), label);
    return { file: label, document };
  });
  await rejectIdClashes(
    db,
    documents.map((d) => d.document),
    label,
  );
  return ingest(db, {
    source: "canonical",
    sourceVersion: path.basename(label),
    parameters: { file: label },
    documentsTotal: documents.length,
    documents,
    rules,
    searchOutbox: config.SEARCH_ENGINE !== "postgres",
    runId: options.runId,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
}

import type { Domain } from "../../services/core/domains.ts";
import { InputError } from "../../services/core/errors.ts";
import { assignProvisionIds } from "../../services/core/public-ids.ts";
import { loggedChangeKeys } from "../../services/store/change-log.ts";
import { type ChangeEvent, recordChanges } from "../../services/store/change-outbox.ts";
import type { Database, Queryable } from "../../services/store/database.ts";
import {
  documentProvisionIds,
  findPublicIdOwner,
  insertProvisions,
  lockDocument,
  markProvisionsAbsent,
  moveProvisions,
  type ProvisionRow,
  replaceSections,
  type StoredProvision,
  setDocumentSnapshot,
  storedProvisions,
  supersedeVersions,
  updateProvisions,
  upsertDocument,
  writeVersionsAndLinks,
} from "../../services/store/documents.ts";
import { recordForIndexing } from "../../services/store/search-outbox.ts";
import type { CanonicalDocument, CanonicalProvision } from "../model.ts";
import {
  againstStored,
  type DocumentContext,
  historyEvents,
  type StoredState,
  unlistedStoredVersion,
  vanishedEvent,
  withRenumbering,
} from "./derive-changes.ts";
import { documentRow, linkRows, provisionRow, sectionPaths, sectionRows, versionRows } from "./rows.ts";

/**
 * Writing one canonical document into the corpus. A document is written in one transaction
 * (atomic: readers and a crash see it fully old or fully new) and only what differs is touched
 * (idempotent: the same snapshot twice writes nothing). The changes it makes to provisions go to
 * the change outbox in the same transaction (derive-changes.ts), and, when an index engine
 * follows the store, the provisions to re-index to the search outbox.
 */

export interface PersistInput {
  doc: CanonicalDocument;
  /** Domains of the document and of each provision (by source id), from the rules. */
  domains: { document: Domain[]; provisions: Map<string, Domain[]> };
  rulesHash: string;
  runId: number;
  /** Named in errors. */
  file: string;
  /** Record changed provisions in the search outbox (when an Elasticsearch/OpenSearch index follows the store). */
  searchOutbox?: boolean;
}

export interface PersistOutcome {
  publicId: string;
  /** `stale`: the store holds a newer snapshot of this document; nothing was written. */
  outcome: "created" | "updated" | "unchanged" | "stale";
  provisions: { added: number; changed: number; unchanged: number; absent: number };
  versions: number;
  /** Change events recorded for the change log. */
  changes: number;
}

export async function persistDocument(db: Database, input: PersistInput): Promise<PersistOutcome> {
  return db.transaction((tx) => persistInTransaction(tx, input));
}

async function persistInTransaction(
  tx: Queryable,
  { doc, domains, rulesHash, runId, file, searchOutbox }: PersistInput,
): Promise<PersistOutcome> {
  const owner = await findPublicIdOwner(tx, doc.publicId);
  if (owner && !(owner.source === doc.source.name && owner.sourceId === doc.source.documentId)) {
    throw new InputError(
      file,
      "publicId",
      `public id ${doc.publicId} already belongs to ${owner.source} ${owner.sourceId}`,
    );
  }

  const row = documentRow(doc, domains.document, rulesHash, runId);
  const existing = await lockDocument(tx, row.source, row.source_id);
  const nothing = { added: 0, changed: 0, unchanged: 0, absent: 0 };
  if (existing?.modifiedOn && doc.modifiedOn && doc.modifiedOn < existing.modifiedOn) {
    // An older snapshot must never roll the corpus (or its change log) back.
    return { publicId: doc.publicId, outcome: "stale", provisions: nothing, versions: 0, changes: 0 };
  }
  if (existing && existing.contentHash === row.content_hash && existing.rulesHash === rulesHash) {
    if (existing.sourceVersion !== row.source_version)
      await setDocumentSnapshot(tx, existing.id, row.source_version, runId);
    const provisions = { ...nothing, unchanged: doc.provisions.length };
    return { publicId: doc.publicId, outcome: "unchanged", provisions, versions: 0, changes: 0 };
  }

  const documentId = await upsertDocument(tx, row);
  await replaceSections(tx, documentId, sectionRows(doc));
  const context: DocumentContext = {
    documentId,
    sourceVersion: doc.source.version,
    runId,
    snapshotDate: doc.modifiedOn ?? new Date().toISOString().slice(0, 10),
    previousSnapshotDate: existing?.modifiedOn ?? null,
  };
  const provisions = await writeProvisions(tx, context, doc, domains.provisions);
  // History the log already holds is dropped here, not only by the writer: a newer snapshot
  // repeats every changed provision's whole history, and most of it is known.
  const events = await notYetLogged(tx, provisions.events);
  await recordChanges(tx, events);
  // The search index copies the document's title and domains into every provision: when they
  // change, every provision of the document is re-indexed; otherwise only those that changed.
  const documentFieldsChanged =
    !existing || existing.title !== doc.title || existing.domains.join() !== domains.document.join();
  if (searchOutbox) {
    await recordForIndexing(
      tx,
      documentFieldsChanged ? await documentProvisionIds(tx, documentId) : provisions.touched,
    );
  }
  return {
    publicId: doc.publicId,
    outcome: existing ? "updated" : "created",
    provisions: provisions.counts,
    versions: provisions.versions,
    changes: events.length,
  };
}

const storedState = (row: StoredProvision): StoredState => ({
  versionId: row.version_id,
  presentInSource: row.present_in_source,
});

/** What differs between the snapshot's provisions and the stored ones. */
interface ProvisionDiff {
  added: ProvisionRow[];
  changed: Array<ProvisionRow & { id: number }>;
  moved: Array<{ id: number; position: number }>;
  /** Stored and present until now, but not in this snapshot. */
  absent: StoredProvision[];
}

function diffProvisions(
  doc: CanonicalDocument,
  stored: StoredProvision[],
  domains: Map<string, Domain[]>,
): ProvisionDiff {
  const storedBySource = new Map(stored.map((row) => [row.source_id, row]));
  const publicIds = assignProvisionIds(
    doc.publicId,
    doc.provisions,
    new Map(stored.map((r) => [r.source_id, r.public_id])),
  );
  const paths = sectionPaths(doc);
  const diff: ProvisionDiff = { added: [], changed: [], moved: [], absent: [] };
  doc.provisions.forEach((p, position) => {
    const row = provisionRow(
      p,
      publicIds.get(p.sourceId)!,
      position,
      p.sectionId ? (paths.get(p.sectionId) ?? []) : [],
      domains.get(p.sourceId) ?? [],
    );
    const before = storedBySource.get(p.sourceId);
    if (!before) diff.added.push(row);
    else if (before.content_hash !== row.content_hash || !before.present_in_source)
      diff.changed.push({ ...row, id: before.id });
    else if (before.position !== position) diff.moved.push({ id: before.id, position });
  });
  const present = new Set(doc.provisions.map((p) => p.sourceId));
  diff.absent = stored.filter((row) => row.present_in_source && !present.has(row.source_id));
  return diff;
}

async function writeProvisions(
  tx: Queryable,
  context: DocumentContext,
  doc: CanonicalDocument,
  domains: Map<string, Domain[]>,
) {
  const { documentId, runId } = context;
  const stored = await storedProvisions(tx, documentId);
  const { added, changed, moved, absent } = diffProvisions(doc, stored, domains);

  const written = await insertProvisions(tx, documentId, runId, added);
  await updateProvisions(tx, runId, changed);
  for (const row of changed) written.set(row.source_id, row.id);
  await moveProvisions(tx, moved);
  await markProvisionsAbsent(
    tx,
    absent.map((row) => row.id),
    runId,
  );

  const bySource = new Map<string, CanonicalProvision>(doc.provisions.map((p) => [p.sourceId, p]));
  const storedBySource = new Map(stored.map((row) => [row.source_id, row]));
  const versions = [...written].flatMap(([sourceId, id]) => versionRows(id, bySource.get(sourceId)!));
  const links = [...written].flatMap(([sourceId, id]) => linkRows(id, bySource.get(sourceId)!));
  await writeVersionsAndLinks(tx, [...written.values()], versions, links);
  // A version the snapshot no longer lists, replaced by another (KALI): closed where it ended.
  const superseded = [...written].flatMap(([sourceId, provisionId]) => {
    const p = bySource.get(sourceId)!;
    const before = storedBySource.get(sourceId);
    const versionId = unlistedStoredVersion(p, before && storedState(before));
    return versionId === null ? [] : [{ provisionId, versionId, endsOn: p.effectiveFrom }];
  });
  await supersedeVersions(tx, superseded);

  const events: ChangeEvent[] = absent.map((row) =>
    vanishedEvent({ provisionId: row.id, versionId: row.version_id, number: row.number }, context),
  );
  for (const [sourceId, provisionId] of written) {
    const p = bySource.get(sourceId)!;
    const ctx = { ...context, provisionId };
    const before = storedBySource.get(sourceId);
    const history = againstStored(historyEvents(p, ctx), p, before && storedState(before), ctx);
    events.push(
      ...(before
        ? withRenumbering(history, p, { number: before.number, versionId: before.version_id }, ctx)
        : history),
    );
  }
  return {
    events,
    touched: [...added, ...changed, ...absent].map((row) => row.public_id),
    counts: {
      added: added.length,
      changed: changed.length,
      unchanged: doc.provisions.length - added.length - changed.length,
      absent: absent.length,
    },
    versions: versions.length,
  };
}

async function notYetLogged(tx: Queryable, events: ChangeEvent[]): Promise<ChangeEvent[]> {
  if (events.length === 0) return events;
  const logged = await loggedChangeKeys(tx, [...new Set(events.map((e) => e.provisionId))]);
  return events.filter((e) => !logged.has(e.key));
}

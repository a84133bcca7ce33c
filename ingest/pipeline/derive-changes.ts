import { numberKey } from "../../services/core/public-ids.ts";
import type { ChangeKind } from "../../services/store/change-log.ts";
import type { ChangeEvent } from "../../services/store/change-outbox.ts";
import type { CanonicalLink, CanonicalProvision, CanonicalVersion } from "../model.ts";

/**
 * Change events, derived from what ingest knows about one provision. Pure: persist.ts calls it
 * inside the document's transaction and writes the events to the change outbox.
 *
 * From the version history the source carries (origin `source_history`):
 * - the first version that took effect → `added`, on its start date;
 * - each later version → `amended`, on its start date (a version following a repeal → `added`:
 *   the provision was enacted again under the same source id);
 * - a version that ends by repeal (`repealedOn`) → `repealed`, on that date, even if it is
 *   still to come (a scheduled repeal). The adapter decides what a repeal is: for LEGI, a
 *   repealed, annulled, lapsed or moved-away version that no other version continues the day
 *   it ends.
 * Versions that never took effect (start date on or after their end date, LEGI's "mort-né") are
 * skipped.
 *
 * From comparing a newer snapshot with what is stored (origin `snapshot_comparison`):
 * - a provision the newer snapshot no longer holds → `repealed`, date unknown, within the window
 *   between the two snapshots;
 * - a renumbered provision without a new version → `amended` with `number_before`.
 *
 * Idempotency keys name the legal event (provision, kind, version), never the run that saw it,
 * so history seen again in a later snapshot, a retry or a replay is recorded once.
 */

/** What every event of one document's ingest shares. */
export interface DocumentContext {
  documentId: number;
  sourceVersion: string | null;
  runId: number;
  /** The snapshot's date: the latest date a change it reveals can have taken effect. */
  snapshotDate: string;
  /** The date of the snapshot stored before this one; null on a first ingest. */
  previousSnapshotDate: string | null;
}

export type ProvisionContext = DocumentContext & { provisionId: number };

/** Acts that create, change and end provisions, as LEGI (and canonical files) name the link. */
const RELATIONS: Record<ChangeKind, string[]> = {
  added: ["CREE", "CREATION", "CODIFICATION", "DEPLACE", "TRANSFERE", "RETABLI"],
  amended: ["MODIFIE", "MODIFICATION", "RECTIFICATION", "DEPLACE", "TRANSFERE", "RENUMEROTE"],
  repealed: ["ABROGE", "ABROGATION", "ANNULE", "DISJONCTION", "PERIME", "TRANSFERE", "DEPLACE"],
};

const collapse = (value: string) => value.replace(/\s+/g, " ").trim();

/** The act that made this change: an `amended_by` link effective that day, of a matching kind first. */
export function amendingAct(
  links: CanonicalLink[],
  kind: ChangeKind,
  date: string | null,
): ChangeEvent["act"] {
  if (date === null) return null;
  const sameDay = links.filter((l) => l.direction === "amended_by" && l.effectiveOn === date);
  const link = sameDay.find((l) => RELATIONS[kind].includes(l.relation)) ?? sameDay[0];
  if (!link) return null;
  return {
    id: link.actId,
    title: link.actTitle ? collapse(link.actTitle) : null,
    date: link.publishedOn ?? link.signedOn,
  };
}

/**
 * A version took effect unless it starts on or after it ends. A start the source does not give
 * (LEGI's placeholder of a date not known yet, read as none) is later than any day: such a version
 * with an end never took effect (LEGI calls those "mort-né").
 */
const tookEffect = (v: CanonicalVersion) =>
  !(v.effectiveTo !== null && (v.effectiveFrom ?? "9999") >= v.effectiveTo);

/**
 * Versions that took effect, oldest first (the source's order breaks ties); a version whose start
 * the source does not give (LEGI's "date not known yet", read as no date) comes after those it
 * dates: it has not begun before them.
 */
export function effectiveVersions(p: CanonicalProvision): CanonicalVersion[] {
  return p.versions
    .map((v, i) => ({ v, i }))
    .filter(({ v }) => tookEffect(v))
    .sort((a, b) => (a.v.effectiveFrom ?? "9999").localeCompare(b.v.effectiveFrom ?? "9999") || a.i - b.i)
    .map(({ v }) => v);
}

/** Every change the provision's version history records. */
export function historyEvents(p: CanonicalProvision, ctx: ProvisionContext): ChangeEvent[] {
  const events: ChangeEvent[] = [];
  const base = {
    provisionId: ctx.provisionId,
    documentId: ctx.documentId,
    effectiveAfter: null,
    effectiveBy: null,
    numberBefore: null,
    numberAfter: p.number,
    origin: "source_history" as const,
    sourceVersion: ctx.sourceVersion,
    runId: ctx.runId,
  };
  let previous: CanonicalVersion | null = null;
  for (const v of effectiveVersions(p)) {
    const kind: ChangeKind = previous === null || previous.repealedOn !== null ? "added" : "amended";
    events.push({
      ...base,
      key: `p${ctx.provisionId}:${kind}:${v.versionId}`,
      kind,
      effectiveOn: v.effectiveFrom,
      listedOn: v.effectiveFrom ?? ctx.snapshotDate,
      versionBefore: kind === "added" ? null : previous!.versionId,
      versionAfter: v.versionId,
      act: amendingAct(p.links, kind, v.effectiveFrom),
    });
    if (v.repealedOn !== null) {
      events.push({
        ...base,
        key: `p${ctx.provisionId}:repealed:${v.versionId}`,
        kind: "repealed",
        effectiveOn: v.repealedOn,
        listedOn: v.repealedOn,
        versionBefore: v.versionId,
        versionAfter: null,
        act: amendingAct(p.links, "repealed", v.repealedOn),
      });
    }
    previous = v;
  }
  return events;
}

/** The stored state of a provision the newer snapshot no longer holds. */
export interface VanishedProvision {
  provisionId: number;
  versionId: string;
  number: string;
}

/**
 * A provision absent from a newer snapshot: repealed (or moved away) at a date the source no
 * longer tells. Keyed on its last version, like a repeal seen in history, so a scheduled repeal
 * already recorded is not recorded again when the provision finally leaves the snapshot.
 */
export function vanishedEvent(stored: VanishedProvision, ctx: DocumentContext): ChangeEvent {
  return {
    key: `p${stored.provisionId}:repealed:${stored.versionId}`,
    provisionId: stored.provisionId,
    documentId: ctx.documentId,
    kind: "repealed",
    effectiveOn: null,
    effectiveAfter: ctx.previousSnapshotDate,
    effectiveBy: ctx.snapshotDate,
    listedOn: ctx.snapshotDate,
    versionBefore: stored.versionId,
    versionAfter: null,
    numberBefore: null,
    numberAfter: stored.number,
    act: null,
    origin: "snapshot_comparison",
    sourceVersion: ctx.sourceVersion,
    runId: ctx.runId,
  };
}

/**
 * A provision whose number changed. With a new version, the history's `amended` event for it
 * carries the old number; without one, the renumbering is its own `amended` event.
 */
export function withRenumbering(
  events: ChangeEvent[],
  p: CanonicalProvision,
  before: { number: string; versionId: string },
  ctx: ProvisionContext,
): ChangeEvent[] {
  // "D. 312-1-3" and "D312-1-3" are one number written two ways.
  if (numberKey(before.number) === numberKey(p.number)) return events;
  if (before.versionId !== p.versionId) {
    return events.map((e) =>
      e.versionAfter === p.versionId && e.kind !== "repealed" ? { ...e, numberBefore: before.number } : e,
    );
  }
  return [
    ...events,
    {
      key: `p${ctx.provisionId}:renumbered:${before.number}:${p.number}`,
      provisionId: ctx.provisionId,
      documentId: ctx.documentId,
      kind: "amended",
      effectiveOn: null,
      effectiveAfter: ctx.previousSnapshotDate,
      effectiveBy: ctx.snapshotDate,
      listedOn: ctx.snapshotDate,
      versionBefore: p.versionId,
      versionAfter: p.versionId,
      numberBefore: before.number,
      numberAfter: p.number,
      act: null,
      origin: "snapshot_comparison",
      sourceVersion: ctx.sourceVersion,
      runId: ctx.runId,
    },
  ];
}

/** The stored state of a provision a snapshot holds again. */
export interface StoredState {
  versionId: string;
  /** False when an earlier snapshot had dropped it: holding it again is an `added`. */
  presentInSource: boolean;
}

/**
 * The stored current version of a provision when the snapshot holds the provision at another
 * version and does not list the stored one (KALI): that version was superseded, and the snapshot
 * says so only by its absence. Null otherwise.
 */
export function unlistedStoredVersion(p: CanonicalProvision, before: StoredState | undefined): string | null {
  if (!before?.presentInSource || before.versionId === p.versionId) return null;
  return p.versions.some((v) => v.versionId === before.versionId) ? null : before.versionId;
}

/**
 * What a snapshot without history (KALI gives an article's current version only) tells against
 * the stored state:
 * - a provision stored at a version the snapshot's history does not list, now at another, was
 *   amended: the history's `added` for its current version becomes `amended` from the stored one;
 * - a provision new to a document stored before, whose history gives no date, appeared between
 *   the two snapshots: its `added` gets that window (origin `snapshot_comparison`), as a
 *   provision that vanishes does.
 * LEGI's history always lists the stored version and dates new articles, so neither applies to it.
 */
export function againstStored(
  events: ChangeEvent[],
  p: CanonicalProvision,
  before: StoredState | undefined,
  ctx: ProvisionContext,
): ChangeEvent[] {
  if (before?.presentInSource) {
    if (unlistedStoredVersion(p, before) === null) return events;
    return events.map((e) =>
      e.kind === "added" && e.versionAfter === p.versionId
        ? {
            ...e,
            key: `p${ctx.provisionId}:amended:${p.versionId}`,
            kind: "amended",
            versionBefore: before.versionId,
            act: amendingAct(p.links, "amended", e.effectiveOn),
          }
        : e,
    );
  }
  if (before || ctx.previousSnapshotDate === null) return events;
  return events.map((e) =>
    e.kind === "added" && e.effectiveOn === null
      ? {
          ...e,
          effectiveAfter: ctx.previousSnapshotDate,
          effectiveBy: ctx.snapshotDate,
          listedOn: ctx.snapshotDate,
          origin: "snapshot_comparison",
        }
      : e,
  );
}

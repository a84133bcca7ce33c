import { diffWordsWithSpace } from "diff";
import type { VersionRecord } from "../store/corpus-queries.ts";

/** Point-in-time reading and word-level diffs over a provision's stored versions. Pure. */

const tookEffect = (v: VersionRecord) =>
  !(v.effectiveFrom !== null && v.effectiveTo !== null && v.effectiveFrom >= v.effectiveTo);

export type AsOfReading =
  | { kind: "in_force"; version: VersionRecord }
  | { kind: "not_yet_in_force"; firstFrom: string | null }
  | { kind: "ended"; endedOn: string | null; repealed: boolean };

/**
 * Which version was in force on a day: the one whose [from, to) holds it. Before the first
 * version, the provision was not yet in force; after the last one ends, it had ended (by repeal,
 * or by a move the source records as the end of the version).
 */
export function versionInForce(versions: VersionRecord[], day: string): AsOfReading {
  const effective = versions.filter(tookEffect);
  const version = effective.find(
    (v) =>
      (v.effectiveFrom === null || v.effectiveFrom <= day) && (v.effectiveTo === null || day < v.effectiveTo),
  );
  if (version) return { kind: "in_force", version };
  const starts = effective
    .map((v) => v.effectiveFrom)
    .filter((d): d is string => d !== null)
    .sort();
  if (starts.length === 0 || day < starts[0]!)
    return { kind: "not_yet_in_force", firstFrom: starts[0] ?? null };
  const last = effective.filter((v) => v.effectiveFrom === null || v.effectiveFrom <= day).at(-1);
  return { kind: "ended", endedOn: last?.effectiveTo ?? null, repealed: last?.repealedOn != null };
}

export interface DiffPart {
  op: "equal" | "insert" | "delete";
  text: string;
}

export interface WordDiff {
  parts: DiffPart[];
  /** Words inserted and deleted. */
  inserted: number;
  deleted: number;
}

/** Word-level diff (jsdiff's diffWordsWithSpace): runs of equal, deleted and inserted text, in order. */
export function wordDiff(before: string, after: string): WordDiff {
  const parts: DiffPart[] = diffWordsWithSpace(before, after).map((c) => ({
    op: c.added ? "insert" : c.removed ? "delete" : "equal",
    text: c.value,
  }));
  const words = (op: DiffPart["op"]) =>
    parts.filter((p) => p.op === op).reduce((n, p) => n + (p.text.match(/\S+/g)?.length ?? 0), 0);
  return { parts, inserted: words("insert"), deleted: words("delete") };
}

/** The version before another one, among those that took effect. */
export function previousVersion(versions: VersionRecord[], versionId: string): VersionRecord | undefined {
  const effective = versions.filter(tookEffect);
  const i = effective.findIndex((v) => v.versionId === versionId);
  return i > 0 ? effective[i - 1] : undefined;
}

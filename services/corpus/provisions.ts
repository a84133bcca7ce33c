import { ensureMayRead } from "../access/domains.ts";
import type { Principal } from "../access/keys.ts";
import { AppError } from "../core/errors.ts";
import {
  type AmendingActRecord,
  findProvision,
  listAmendingActs,
  listVersions,
  type ProvisionRecord,
  type VersionRecord,
} from "../store/corpus-queries.ts";
import type { Database } from "../store/database.ts";
import { type AsOfReading, previousVersion, versionInForce, type WordDiff, wordDiff } from "./versions.ts";

/**
 * Reading one provision: the record, its versions and the acts that amended it, as in force on a
 * day, and a word diff between two of its versions. Every read checks the calling key may read
 * the provision's fields of law.
 */

export const NO_TEXT_NOTE =
  "The source gives only the text in force when its snapshot was taken; we hold a version's text when a snapshot we loaded had that version as current.";

/** The provision with this public id (or LEGI id), if the key may read it; else not_found or forbidden. */
async function readableProvision(db: Database, who: Principal, id: string): Promise<ProvisionRecord> {
  const provision = await findProvision(db, id);
  if (!provision)
    throw new AppError(
      "not_found",
      `No published provision with id ${id}. It may not be loaded yet: see the coverage.`,
    );
  ensureMayRead(who, provision.domains, `provision ${provision.publicId}`);
  return provision;
}

export interface ProvisionReading {
  provision: ProvisionRecord;
  versions: VersionRecord[];
  acts: AmendingActRecord[];
  /** With a day asked for: which version was in force that day. */
  asOf?: { date: string; reading: AsOfReading };
}

/** A provision with its versions and amending acts; with `asOf`, also which version was in force that day. */
export async function readProvision(
  db: Database,
  who: Principal,
  id: string,
  asOf?: string,
): Promise<ProvisionReading> {
  const provision = await readableProvision(db, who, id);
  const [versions, acts] = await Promise.all([
    listVersions(db, provision.id, { withText: asOf !== undefined }),
    listAmendingActs(db, provision.id),
  ]);
  return {
    provision,
    versions,
    acts,
    ...(asOf ? { asOf: { date: asOf, reading: versionInForce(versions, asOf) } } : {}),
  };
}

/** Every version of a provision, oldest first, with the texts we hold. */
export async function readVersions(
  db: Database,
  who: Principal,
  id: string,
): Promise<{ provision: ProvisionRecord; versions: VersionRecord[] }> {
  const provision = await readableProvision(db, who, id);
  return { provision, versions: await listVersions(db, provision.id, { withText: true }) };
}

export interface ProvisionDiff {
  provision: ProvisionRecord;
  from: VersionRecord;
  to: VersionRecord;
  diff: WordDiff;
}

/**
 * The word diff between two versions: `to` defaults to the current version, `from` to the one
 * before `to`. A version unknown, or whose text we do not hold, is a 400 naming the field.
 */
export async function diffVersions(
  db: Database,
  who: Principal,
  id: string,
  wanted: { from?: string | undefined; to?: string | undefined },
): Promise<ProvisionDiff> {
  const { provision, versions } = await readVersions(db, who, id);
  const find = (field: "from" | "to", versionId: string) => {
    const version = versions.find((v) => v.versionId === versionId);
    if (!version)
      throw new AppError(
        "invalid_request",
        `${field}: ${provision.publicId} has no version ${versionId}; it has ${versions.map((v) => v.versionId).join(", ")}`,
        field,
      );
    if (version.text == null)
      throw new AppError(
        "invalid_request",
        `${field}: we do not hold the text of version ${versionId}. ${NO_TEXT_NOTE} Versions with text: ${
          versions
            .filter((v) => v.text != null)
            .map((v) => v.versionId)
            .join(", ") || "none"
        }.`,
        field,
      );
    return version;
  };
  const to = find("to", wanted.to ?? provision.versionId);
  const fromId = wanted.from ?? previousVersion(versions, to.versionId)?.versionId;
  if (!fromId)
    throw new AppError(
      "invalid_request",
      `from: version ${to.versionId} has no earlier version; give from`,
      "from",
    );
  const from = find("from", fromId);
  return { provision, from, to, diff: wordDiff(from.text!, to.text!) };
}

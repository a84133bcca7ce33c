import { describe, expect, it } from "vitest";
import type { VersionRecord } from "../store/corpus-queries.ts";
import { previousVersion, versionInForce, wordDiff } from "./versions.ts";

const v = (
  versionId: string,
  from: string | null,
  to: string | null,
  extra: Partial<VersionRecord> = {},
): VersionRecord => ({
  versionId,
  label: null,
  status: "superseded",
  effectiveFrom: from,
  effectiveTo: to,
  repealedOn: null,
  hasText: true,
  text: versionId,
  ...extra,
});

describe("versionInForce", () => {
  const versions = [
    v("v1", "2010-01-01", "2015-01-01"),
    v("dead", "2015-01-01", "2015-01-01"),
    v("v2", "2015-01-01", "2020-01-01", { repealedOn: "2020-01-01" }),
  ];

  it("finds the version whose [from, to) holds the day", () => {
    expect(versionInForce(versions, "2014-12-31")).toMatchObject({
      kind: "in_force",
      version: { versionId: "v1" },
    });
    expect(versionInForce(versions, "2015-01-01")).toMatchObject({
      kind: "in_force",
      version: { versionId: "v2" },
    });
  });

  it("says when the provision was not yet, or no longer, in force", () => {
    expect(versionInForce(versions, "2009-01-01")).toEqual({
      kind: "not_yet_in_force",
      firstFrom: "2010-01-01",
    });
    expect(versionInForce(versions, "2021-01-01")).toEqual({
      kind: "ended",
      endedOn: "2020-01-01",
      repealed: true,
    });
  });

  it("the version before another skips versions that never took effect", () => {
    expect(previousVersion(versions, "v2")?.versionId).toBe("v1");
    expect(previousVersion(versions, "v1")).toBeUndefined();
  });
});

describe("wordDiff", () => {
  it("gives runs that rebuild both texts, and counts words", () => {
    const before = "Le salarié peut rompre le contrat dans un délai de quinze jours.";
    const after = "Le salarié peut rompre le contrat de travail dans un délai de trente jours.";
    const { parts, inserted, deleted } = wordDiff(before, after);
    expect(
      parts
        .filter((p) => p.op !== "insert")
        .map((p) => p.text)
        .join(""),
    ).toBe(before);
    expect(
      parts
        .filter((p) => p.op !== "delete")
        .map((p) => p.text)
        .join(""),
    ).toBe(after);
    expect(parts.filter((p) => p.op === "delete").map((p) => p.text.trim())).toEqual(["quinze"]);
    expect(inserted).toBe(3);
    expect(deleted).toBe(1);
  });
});

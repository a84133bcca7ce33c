import { describe, expect, it } from "vitest";
import type { CanonicalVersion } from "../model.ts";
import { inForceUntil } from "./rows.ts";

const version = (
  versionId: string,
  effectiveFrom: string | null,
  effectiveTo: string | null,
): CanonicalVersion => ({
  versionId,
  label: null,
  status: "not_yet_in_force",
  sourceStatus: null,
  effectiveFrom,
  effectiveTo,
  text: null,
  repealedOn: null,
});

describe("inForceUntil", () => {
  it("is the text's end when no version follows it", () => {
    expect(inForceUntil({ effectiveTo: null, versions: [] })).toBeNull();
    expect(
      inForceUntil({ effectiveTo: "2024-01-01", versions: [version("v1", "2020-01-01", "2024-01-01")] }),
    ).toBe("2024-01-01");
  });

  it("carries on through the versions that start the day the previous one ends (L461-1)", () => {
    const versions = [
      version("held", "2018-07-01", "2026-09-30"),
      version("a", "2026-09-30", "2026-11-01"),
      version("b", "2026-11-01", "2027-01-01"),
      version("c", "2027-01-01", null),
    ];
    expect(inForceUntil({ effectiveTo: "2026-09-30", versions })).toBeNull();
    expect(inForceUntil({ effectiveTo: "2026-09-30", versions: versions.slice(0, 3) })).toBe("2027-01-01");
  });

  it("stops at a gap, and a version that never took effect carries nothing on", () => {
    const gap = [version("held", "2020-01-01", "2024-01-01"), version("later", "2024-06-01", null)];
    expect(inForceUntil({ effectiveTo: "2024-01-01", versions: gap })).toBe("2024-01-01");
    const stillborn = [
      version("held", "2020-01-01", "2024-01-01"),
      version("mort-né", "2024-01-01", "2024-01-01"),
    ];
    expect(inForceUntil({ effectiveTo: "2024-01-01", versions: stillborn })).toBe("2024-01-01");
  });
});

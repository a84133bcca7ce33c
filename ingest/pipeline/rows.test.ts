import { describe, expect, it } from "vitest";
import type { CanonicalVersion } from "../model.ts";
import { inForceSpan } from "./rows.ts";

const version = (effectiveFrom: string | null, effectiveTo: string | null): CanonicalVersion => ({
  versionId: `${effectiveFrom}-${effectiveTo}`,
  label: null,
  status: "superseded",
  sourceStatus: null,
  effectiveFrom,
  effectiveTo,
  text: null,
  repealedOn: null,
});

describe("inForceSpan", () => {
  it("is the text's dates when no version joins them", () => {
    expect(inForceSpan({ effectiveFrom: null, effectiveTo: null, versions: [] })).toEqual({
      from: null,
      to: null,
    });
    const alone = {
      effectiveFrom: "2020-01-01",
      effectiveTo: "2024-01-01",
      versions: [version("2020-01-01", "2024-01-01")],
    };
    expect(inForceSpan(alone)).toEqual({ from: "2020-01-01", to: "2024-01-01" });
  });

  it("carries on through the versions listed after and before the text (L461-1)", () => {
    const versions = [
      version("1985-12-21", "1993-01-30"),
      version("1993-01-30", "2018-07-01"),
      version("2018-07-01", "2026-09-30"),
      version("2026-09-30", "2026-11-01"),
      version("2026-11-01", "2027-01-01"),
      version("2027-01-01", null),
    ];
    const held = { effectiveFrom: "2018-07-01", effectiveTo: "2026-09-30" };
    expect(inForceSpan({ ...held, versions })).toEqual({ from: "1985-12-21", to: null });
    expect(inForceSpan({ ...held, versions: versions.slice(1, 5) })).toEqual({
      from: "1993-01-30",
      to: "2027-01-01",
    });
  });

  it("stops at a gap, and a version that never took effect joins nothing", () => {
    const held = { effectiveFrom: "2020-01-01", effectiveTo: "2024-01-01" };
    const gaps = [version("2015-01-01", "2019-06-01"), version("2024-06-01", null)];
    expect(inForceSpan({ ...held, versions: gaps })).toEqual({ from: "2020-01-01", to: "2024-01-01" });
    // Mort-né: it ends when it starts, or its start is not known.
    const stillborn = [version("2024-01-01", "2024-01-01"), version(null, "2020-01-01")];
    expect(inForceSpan({ ...held, versions: stillborn })).toEqual({ from: "2020-01-01", to: "2024-01-01" });
  });
});

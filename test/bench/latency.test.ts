import { describe, expect, it } from "vitest";
import { percentile, summariseLatencies } from "./latency.ts";

describe("percentile", () => {
  it("is the nearest rank: the smallest value at or above p% of the values", () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile(sorted, 100)).toBe(100);
    expect(percentile([1, 2, 3], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([7, 9], 0)).toBe(7);
  });

  it("is NaN for no values", () => {
    expect(percentile([], 50)).toBeNaN();
  });
});

describe("summariseLatencies", () => {
  it("sorts numerically, counts calls per second and summarises each query apart", () => {
    const summary = summariseLatencies([10, 9, 100, 2], 2, [[10, 100, 9], [2], []]);
    expect(summary).toMatchObject({ p50Ms: 9, p99Ms: 100, perSecond: 2, calls: 4 });
    expect(summary.perQueryP50Ms).toEqual([10, 2, Number.NaN]);
  });

  it("leaves the per-query figures out when the loader did not keep them", () => {
    expect(summariseLatencies([1], 1).perQueryP50Ms).toBeUndefined();
  });
});

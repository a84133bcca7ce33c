import { describe, expect, it } from "vitest";
import { meanMetrics, pairedBootstrap, rankMetrics } from "./metrics.ts";

describe("rankMetrics", () => {
  it("scores a ranking against a relevant set at 10", () => {
    const m = rankMetrics(["a", "x", "b", "y"], new Set(["b", "c"]));
    expect(m.hit).toBe(1);
    expect(m.mrr).toBeCloseTo(1 / 3);
    expect(m.recall).toBe(0.5);
    expect(m.ndcg).toBeCloseTo(1 / Math.log2(4) / (1 + 1 / Math.log2(3)));
  });

  it("counts nothing past the cut-off, and zero for a miss", () => {
    expect(rankMetrics([..."abcdefghij", "z"], new Set(["z"]))).toEqual({
      hit: 0,
      mrr: 0,
      recall: 0,
      ndcg: 0,
    });
    expect(meanMetrics([rankMetrics(["a"], new Set(["a"])), rankMetrics([], new Set(["a"]))]).hit).toBe(0.5);
  });
});

describe("pairedBootstrap", () => {
  it("brackets a clear difference away from zero, and a noisy one around it", () => {
    const clear = pairedBootstrap(
      Array.from({ length: 200 }, (_, i) => (i % 4 === 0 ? 1 : 0.5)),
      Array.from({ length: 200 }, () => 0.25),
    );
    expect(clear.mean).toBeCloseTo(0.375);
    expect(clear.low).toBeGreaterThan(0.3);
    expect(clear.high).toBeLessThan(0.45);
    // Half the pairs one way, half the other: no difference the data can show.
    const noisy = pairedBootstrap(
      Array.from({ length: 200 }, (_, i) => (i % 2 ? 1 : 0)),
      Array.from({ length: 200 }, (_, i) => (i % 2 ? 0 : 1)),
    );
    expect(noisy.mean).toBe(0);
    expect(noisy.low).toBeLessThan(0);
    expect(noisy.high).toBeGreaterThan(0);
  });

  it("gives the same interval on every run, and refuses unpaired series", () => {
    const a = [0.1, 0.9, 0.4, 0.7, 0.3];
    const b = [0.2, 0.5, 0.5, 0.1, 0.3];
    expect(pairedBootstrap(a, b)).toEqual(pairedBootstrap(a, b));
    expect(() => pairedBootstrap([1], [1, 2])).toThrow(/same/);
  });

  it("resamples whole groups: copies of one question do not narrow the interval", () => {
    const a = Array.from({ length: 40 }, (_, i) => (i % 4 === 0 ? 1 : 0));
    const b = Array.from({ length: 40 }, (_, i) => (i % 4 === 1 ? 1 : 0));
    const alone = pairedBootstrap(a, b);
    // Each pair its own group gives the same interval as no groups.
    expect(
      pairedBootstrap(
        a,
        b,
        5000,
        1,
        a.map((_, i) => `q${i}`),
      ),
    ).toEqual(alone);
    // The same 40 questions each asked in 10 wordings that succeed and fail together.
    const repeat = <T>(xs: T[]) => xs.flatMap((x) => Array.from({ length: 10 }, () => x));
    const groups = repeat(a.map((_, i) => `q${i}`));
    const clustered = pairedBootstrap(repeat(a), repeat(b), 5000, 1, groups);
    const naive = pairedBootstrap(repeat(a), repeat(b));
    expect(clustered.mean).toBe(alone.mean);
    expect(clustered.high - clustered.low).toBeGreaterThan(2 * (naive.high - naive.low));
    expect(clustered.high - clustered.low).toBeCloseTo(alone.high - alone.low, 1);
    expect(() => pairedBootstrap([1, 0], [0, 1], 100, 1, ["x"])).toThrow(/one group per pair/);
  });
});

import { describe, expect, it } from "vitest";
import { meanMetrics, rankMetrics } from "./metrics.ts";

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

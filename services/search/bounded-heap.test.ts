import { describe, expect, it } from "vitest";
import { BoundedHeap, compareIds } from "./bounded-heap.ts";

describe("BoundedHeap", () => {
  const ids = ["L5", "L1", "L3", "L2", "L4", "L10"];

  it("keeps the best `capacity` by key, best first, whatever the order they come in", () => {
    const keys = [0.5, 3, 1, 2.5, 0.1, 2];
    for (const order of [
      [0, 1, 2, 3, 4, 5],
      [5, 4, 3, 2, 1, 0],
      [2, 5, 0, 4, 1, 3],
    ]) {
      const heap = new BoundedHeap(3, ids);
      for (const doc of order) heap.offer(doc, keys[doc]!);
      expect(heap.sorted()).toEqual([1, 3, 5]);
    }
  });

  it("breaks ties by public id in byte order (L10 before L2)", () => {
    const heap = new BoundedHeap(3, ids);
    for (const doc of [0, 1, 2, 3, 4, 5]) heap.offer(doc, 1);
    // L1, L10, L2 of L5 L1 L3 L2 L4 L10: byte order, not numeric.
    expect(heap.sorted()).toEqual([1, 5, 3]);
  });

  it("holds fewer than its capacity when fewer come, and nothing at capacity 0", () => {
    const heap = new BoundedHeap(10, ids);
    heap.offer(2, 1);
    heap.offer(0, 2);
    expect(heap.sorted()).toEqual([0, 2]);
    const none = new BoundedHeap(0, ids);
    none.offer(1, 5);
    expect(none.sorted()).toEqual([]);
  });

  it("agrees with a full sort on many random offers, with many ties, at every capacity", () => {
    // A small linear congruential generator: the same draws on every run, so a failure repeats.
    let seed = 17;
    const draw = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; // exact 32-bit arithmetic
      return (seed >>> 16) % n; // the high bits: the low ones of such a generator cycle quickly
    };
    for (let round = 0; round < 200; round++) {
      const count = 1 + draw(60);
      const publicIds = Array.from({ length: count }, (_, i) => `code/L${(i * 7919) % 101}-${i}`);
      // Few distinct keys, so that ties are common and the tie-break decides.
      const keys = Array.from({ length: count }, () => draw(5) / 4);
      const capacity = draw(count + 3);
      const heap = new BoundedHeap(capacity, publicIds);
      // Offered in a shuffled order (Fisher–Yates).
      const order = Array.from({ length: count }, (_, i) => i);
      for (let i = count - 1; i > 0; i--) {
        const j = draw(i + 1);
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      for (const doc of order) heap.offer(doc, keys[doc]!);
      const expected = Array.from({ length: count }, (_, i) => i)
        .sort((a, b) => keys[b]! - keys[a]! || compareIds(publicIds[a]!, publicIds[b]!))
        .slice(0, capacity);
      expect(heap.sorted()).toEqual(expected);
    }
  });
});

import { describe, expect, it } from "vitest";
import { BoundedHeap } from "./bounded-heap.ts";

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
});

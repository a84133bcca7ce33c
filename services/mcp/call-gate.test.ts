import { describe, expect, it } from "vitest";
import { CallGate } from "./call-gate.ts";

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("CallGate", () => {
  it("runs at most `concurrency` calls at once, the others in turn", async () => {
    const gate = new CallGate(2, Date.now() + 60_000, new AbortController().signal, 60);
    let running = 0;
    let most = 0;
    const call = () =>
      gate.run(async () => {
        running += 1;
        most = Math.max(most, running);
        await tick();
        running -= 1;
        return "done";
      });
    expect(await Promise.all(Array.from({ length: 7 }, call))).toEqual(Array(7).fill("done"));
    expect(most).toBe(2);
  });

  it("starts nothing once the client has left or the budget is spent, and says why", async () => {
    const left = new AbortController();
    const gate = new CallGate(1, Date.now() + 60_000, left.signal, 60);
    left.abort();
    await expect(gate.run(async () => 1)).rejects.toThrow(/client closed the request/);
    const late = new CallGate(1, Date.now() - 1, new AbortController().signal, 30);
    await expect(late.run(async () => 1)).rejects.toThrow(/ran past 30 s/);
  });

  it("frees its slot when a call fails", async () => {
    const gate = new CallGate(1, Date.now() + 60_000, new AbortController().signal, 60);
    await expect(gate.run(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await gate.run(async () => "next")).toBe("next");
  });
});

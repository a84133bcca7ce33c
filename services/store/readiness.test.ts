import { describe, expect, it } from "vitest";
import type { Database, StoreActivity } from "./database.ts";
import { storeReadiness } from "./readiness.ts";

const limits = { recentAnswerMs: 5_000, probeWaitMs: 50, stalledMs: 60_000 };

/** A store whose activity is given and whose probe answers as told (or never). */
function fakeStore(activity: StoreActivity, probe: "answers" | "fails" | "hangs") {
  let probes = 0;
  const db = {
    kind: "pglite",
    activity: () => activity,
    query: async () => {
      probes += 1;
      if (probe === "answers") return { rows: [] };
      if (probe === "fails") throw new Error("connection refused");
      return new Promise(() => undefined);
    },
  } as unknown as Database;
  return { db, probes: () => probes };
}

describe("storeReadiness", () => {
  it("is ok without asking a store that answered lately", async () => {
    const store = fakeStore({ lastAnswerAt: Date.now() - 1_000, inFlight: 40 }, "hangs");
    expect(await storeReadiness(store.db, limits)).toEqual({ state: "ok", detail: "ok" });
    expect(store.probes()).toBe(0);
  });

  it("probes a quiet store", async () => {
    const store = fakeStore({ lastAnswerAt: Date.now() - 30_000, inFlight: 0 }, "answers");
    expect(await storeReadiness(store.db, limits)).toEqual({ state: "ok", detail: "ok" });
    expect(
      (await storeReadiness(fakeStore({ lastAnswerAt: undefined, inFlight: 0 }, "fails").db, limits)).state,
    ).toBe("unreachable");
  });

  it("calls a store busy when its probe waits behind work, unresponsive when nothing explains the wait", async () => {
    const busy = fakeStore({ lastAnswerAt: Date.now() - 10_000, inFlight: 3 }, "hangs");
    expect(await storeReadiness(busy.db, limits)).toEqual({
      state: "busy",
      detail: "busy: 3 statements queued or running",
    });
    const idle = fakeStore({ lastAnswerAt: Date.now() - 10_000, inFlight: 0 }, "hangs");
    expect((await storeReadiness(idle.db, limits)).state).toBe("unresponsive");
    const stalled = fakeStore({ lastAnswerAt: Date.now() - 120_000, inFlight: 3 }, "hangs");
    expect((await storeReadiness(stalled.db, limits)).state).toBe("unresponsive");
  });

  it("shares one probe between checks and does not count it as work ahead", async () => {
    const activity = { lastAnswerAt: Date.now() - 10_000, inFlight: 0 };
    const store = fakeStore(activity, "hangs");
    await storeReadiness(store.db, limits);
    activity.inFlight = 1; // the first check's probe, still waiting
    expect((await storeReadiness(store.db, limits)).state).toBe("unresponsive");
    expect(store.probes()).toBe(1);
  });
});

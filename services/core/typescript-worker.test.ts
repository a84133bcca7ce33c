import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startTypeScriptWorker } from "./typescript-worker.ts";

/** Field 19 of /proc/<pid>/task/<tid>/stat: the thread's nice value. */
const niceOf = (stat: string) => Number(stat.split(") ")[1]!.split(" ")[16]);

describe.runIf(process.platform === "linux")("yieldCpuToEventLoop", () => {
  it("lowers the calling worker thread's priority to nice 10, not the process's", async () => {
    const mainBefore = niceOf(readFileSync("/proc/thread-self/stat", "utf8"));
    const worker = startTypeScriptWorker(new URL("../../test/fixtures/nice-worker.ts", import.meta.url));
    try {
      const reply = await new Promise<{ before: number; after: number }>((resolve, reject) => {
        worker.once("message", resolve);
        worker.once("error", reject);
      });
      expect(reply.before).toBe(mainBefore);
      // A process already nicer than 10 stays as it is (raising priority needs privileges).
      expect(reply.after).toBe(Math.max(10, mainBefore));
      expect(niceOf(readFileSync("/proc/thread-self/stat", "utf8"))).toBe(mainBefore);
    } finally {
      await worker.terminate();
    }
  });
});

import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openStore, StoreBusyError } from "../../services/store/open.ts";

/**
 * The embedded store's lock holds while the process that owns it is busy: a PGlite query runs
 * synchronously and can block the main thread for seconds, longer than the lock's stale
 * threshold (10 s). This stopped `npm start` in CI before the lock moved to a thread of its own.
 */
describe("the embedded store's lock", () => {
  it("survives 15 s of a blocked main thread, and keeps a second process out meanwhile", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "lc-lock-"));
    const script = `
      import { openStore } from ${JSON.stringify(path.resolve("services/store/open.ts"))};
      const db = await openStore({ DATA_DIR: ${JSON.stringify(dataDir)} });
      console.log("open");
      const until = Date.now() + 15_000;
      while (Date.now() < until) {} // a long synchronous stretch, as a heavy WebAssembly query is
      await new Promise((resolve) => setTimeout(resolve, 4_000)); // the lock's thread reports here
      await db.query("SELECT 1");
      await db.close();
      console.log("closed cleanly");
    `;
    const owner = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, LOG_LEVEL: "warn" },
    });
    let output = "";
    owner.stdout.on("data", (chunk) => (output += chunk));
    owner.stderr.on("data", (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => owner.once("exit", resolve));
    while (!output.includes("open")) {
      if (owner.exitCode !== null) throw new Error(output);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // 12 s into the block: past the stale threshold, had the lock depended on the main thread.
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    await expect(openStore({ DATA_DIR: dataDir })).rejects.toBeInstanceOf(StoreBusyError);
    expect(await exited, output).toBe(0);
    expect(output).toContain("closed cleanly");
    // Released on close: the store opens now.
    const db = await openStore({ DATA_DIR: dataDir });
    await db.close();
  }, 60_000);
});

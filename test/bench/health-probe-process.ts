import { probeLoop } from "./health-probe.ts";

/**
 * The health probe's process (health-probe.ts): says it is ready, probes `/healthz` from its parent's
 * "begin" until its "stop", then sends what it measured.
 */
const [baseUrl, intervalMs] = process.argv.slice(2);
let stopped = false;
const begun = new Promise<void>((resolve) =>
  process.on("message", (message) => {
    if (message !== "begin") stopped = true;
    resolve();
  }),
);
// A parent that ends without saying "stop" (a failed load, a signal) leaves no probe running.
process.once("disconnect", () => process.exit(1));
process.send?.("ready");
await begun;
const result = await probeLoop(new URL("/healthz", baseUrl), Number(intervalMs), () => stopped);
process.send?.(result, () => process.exit(0));

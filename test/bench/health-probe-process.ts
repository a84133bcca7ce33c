import { probeLoop } from "./health-probe.ts";

/** The health probe's process (health-probe.ts): probes `/healthz` until its parent says "stop". */
const [baseUrl, intervalMs] = process.argv.slice(2);
let stopped = false;
process.once("message", () => {
  stopped = true;
});
const result = await probeLoop(new URL("/healthz", baseUrl), Number(intervalMs), () => stopped);
process.send?.(result, () => process.exit(0));

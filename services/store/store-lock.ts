import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";

/**
 * The embedded store's lock: one process at a time may open a PGlite data directory.
 *
 * proper-lockfile keeps a lock alive by touching the lock file every few seconds and treats a
 * lock not touched for `stale` ms as abandoned (a killed process). In the main thread, one long
 * PGlite query (WebAssembly, synchronous) could delay the touch past that threshold: the lock
 * would be declared compromised and the server would stop (seen in CI, on a loaded machine).
 * So the lock lives in a worker thread of its own, whose event loop nothing blocks; it dies with
 * the process, so a killed process still leaves a lock that goes stale within `stale` ms.
 */

const STALE_MS = 10_000;
const UPDATE_MS = 3_000;

// Dynamic imports: the same source runs whether the worker is read as CommonJS or as a module.
const WORKER_SOURCE = `
(async () => {
const { parentPort, workerData } = await import("node:worker_threads");
const lockfile = (await import(workerData.lockfileModule)).default;
lockfile
  .lock(workerData.dir, {
    lockfilePath: workerData.lockfilePath,
    stale: workerData.stale,
    update: workerData.update,
    onCompromised: (error) => parentPort.postMessage({ compromised: error.message }),
  })
  .then(
    (release) => {
      parentPort.on("message", (message) => {
        if (message === "release")
          release().then(
            () => parentPort.postMessage({ released: true }),
            (error) => parentPort.postMessage({ released: true, error: error.message }),
          );
      });
      parentPort.postMessage({ locked: true });
    },
    (error) => parentPort.postMessage({ error: { code: error.code, message: error.message } }),
  );
})();
`;

export class StoreLockedError extends Error {
  readonly code = "ELOCKED";
}

/**
 * Takes the lock on `dir` (lock file `<dir>.lock`) or rejects with StoreLockedError when another
 * live process holds it. `onCompromised` runs if the lock is ever lost (the file removed or
 * taken over): the caller should stop using the store. Resolves to the release function.
 */
export async function lockStore(
  dir: string,
  onCompromised: (reason: string) => void,
): Promise<() => Promise<void>> {
  const lockfileModule = pathToFileURL(createRequire(import.meta.url).resolve("proper-lockfile")).href;
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { dir, lockfilePath: `${dir}.lock`, stale: STALE_MS, update: UPDATE_MS, lockfileModule },
  });
  // The lock thread must not keep the process alive on its own.
  worker.unref();
  await new Promise<void>((resolve, reject) => {
    worker.once("error", reject);
    worker.once("message", (message: { locked?: true; error?: { code?: string; message: string } }) => {
      if (message.locked) return resolve();
      void worker.terminate();
      reject(
        message.error?.code === "ELOCKED"
          ? new StoreLockedError(message.error.message)
          : new Error(`cannot lock ${dir}: ${message.error?.message}`),
      );
    });
  });
  worker.on("message", (message: { compromised?: string }) => {
    if (message.compromised) onCompromised(message.compromised);
  });
  return async () => {
    const released = new Promise<void>((resolve) => {
      worker.on("message", (message: { released?: true }) => {
        if (message.released) resolve();
      });
    });
    worker.postMessage("release");
    await released;
    await worker.terminate();
  };
}

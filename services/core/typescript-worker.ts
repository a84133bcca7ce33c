import os from "node:os";
import { Worker } from "node:worker_threads";

/**
 * A worker thread running a TypeScript module, as the rest of the code runs, through tsx. On
 * Node 20 tsx's loader registers itself in the main thread only (`tsx file.ts`, `--import tsx`
 * and bin/corpus.js alike, and vitest has no loader to pass on), so the worker registers it
 * before importing its module.
 */
export function startTypeScriptWorker(entry: URL): Worker {
  const tsx = import.meta.resolve("tsx/esm/api");
  return new Worker(
    `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`,
    { eval: true },
  );
}

/**
 * Lowers the calling thread's CPU priority (nice 10), so that when every core is busy the
 * server's event loop (HTTP, /healthz) is scheduled before the threads doing a search's heavy
 * work. Linux only: there a thread's nice value is its own, and setpriority() with pid 0 names the
 * calling thread; elsewhere it would lower the whole process, so nothing is done.
 */
export function yieldCpuToEventLoop(): void {
  if (process.platform !== "linux") return;
  try {
    os.setPriority(0, 10);
  } catch {
    // Not permitted in this sandbox: the thread keeps the process's priority.
  }
}

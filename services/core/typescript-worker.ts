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

import type { Worker } from "node:worker_threads";
import { startTypeScriptWorker } from "../core/typescript-worker.ts";
import type { Database } from "../store/database.ts";
import { readIndexedProvisions, readSearchGeneration } from "../store/search-snapshot.ts";
import type { MemoryPage } from "./memory-index.ts";
import type { MemoryQuery, MemoryReply, MemoryRequest } from "./memory-protocol.ts";

export interface MemorySearchEvents {
  built?(info: { generation: string; provisions: number; postings: number; ms: number }): void;
  failed?(error: Error): void;
}

/**
 * Keeps an in-memory copy of the search model (memory-index.ts), held and run by a thread of its
 * own (memory-worker.ts), in step with the store. A copy is used only while the store's search
 * generation (migration 012) is the one it was built at: a search that finds the store moved on
 * is answered by SQL, and starts a rebuild. One build at a time; a build during which the store
 * moved is dropped (the next search starts another), so a copy never mixes two states of the
 * corpus. This side reads the store and sends the rows over in batches; the thread parses and
 * indexes them, so neither a build nor a search holds up the server's event loop.
 */
export class MemorySearch {
  private worker: Worker | undefined;
  /** The generation of the copy the thread holds, once built. */
  private built: string | undefined;
  private building: Promise<void> | undefined;
  private closed = false;
  private nextId = 0;
  private readonly waiting = new Map<
    number,
    { resolve: (reply: MemoryReply) => void; reject: (e: Error) => void }
  >();

  constructor(
    private readonly db: Database,
    private readonly events: MemorySearchEvents = {},
  ) {}

  /** For readiness: whether a copy has been built, and whether a build is under way. */
  get state(): { built: boolean; building: boolean } {
    return { built: this.built !== undefined, building: this.building !== undefined };
  }

  /** The generation of the copy the thread holds, if any (current or not). */
  get generation(): string | undefined {
    return this.built;
  }

  /** True if the copy is current at `generation`; otherwise false, and a rebuild under way. */
  current(generation: string): boolean {
    if (this.built === generation) return true;
    void this.refresh();
    return false;
  }

  /** The page by the copy at `generation`, or null if the thread no longer holds that copy. */
  async search(generation: string, query: MemoryQuery): Promise<MemoryPage | null> {
    const reply = await this.ask(this.nextId++, (id) => ({ op: "search", id, generation, query }));
    if (reply.op === "search-failed") throw new Error(`in-memory search failed: ${reply.message}`);
    return reply.op === "searched" ? reply.page : null;
  }

  /** Builds a copy unless one is current or being built; resolves when that build is over. */
  refresh(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.building ??= this.build()
      .catch((error: Error) => this.events.failed?.(error))
      .finally(() => {
        this.building = undefined;
      });
    return this.building;
  }

  private async build(): Promise<void> {
    const started = performance.now();
    const generation = await readSearchGeneration(this.db);
    if (this.built === generation) return;
    const worker = this.thread();
    const build = this.nextId++;
    worker.postMessage({ op: "build-start", build } satisfies MemoryRequest);
    for await (const provisions of readIndexedProvisions(this.db)) {
      if (this.closed) return;
      worker.postMessage({ op: "build-add", build, provisions } satisfies MemoryRequest);
    }
    // The corpus moved while it was read: this copy would mix two states. Drop it.
    if ((await readSearchGeneration(this.db)) !== generation) return;
    const reply = await this.ask(build, () => ({ op: "build-finish", build, generation }));
    if (reply.op === "build-failed") throw new Error(`in-memory search model not built: ${reply.message}`);
    if (reply.op !== "built") return;
    this.built = reply.generation;
    this.events.built?.({
      generation: reply.generation,
      provisions: reply.provisions,
      postings: reply.postings,
      ms: Math.round(performance.now() - started),
    });
  }

  private ask(id: number, request: (id: number) => MemoryRequest): Promise<MemoryReply> {
    const worker = this.thread();
    // Held while an answer is awaited; let go when idle, so the thread never keeps a process up.
    worker.ref();
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage(request(id));
    });
  }

  /** The thread, started on first use, and again after one died. */
  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = startTypeScriptWorker(new URL("./memory-worker.ts", import.meta.url));
    worker.on("message", (reply: MemoryReply) => {
      const key = "id" in reply ? reply.id : reply.build;
      const waiter = this.waiting.get(key);
      this.waiting.delete(key);
      if (this.waiting.size === 0) worker.unref();
      waiter?.resolve(reply);
    });
    const stopped = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.built = undefined;
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
      if (!this.closed) this.events.failed?.(error);
    };
    worker.on("error", stopped);
    worker.on("exit", (code) =>
      stopped(new Error(`the in-memory search thread stopped (exit code ${code})`)),
    );
    worker.unref();
    this.worker = worker;
    return worker;
  }

  /** Stops building and stops the thread. */
  async close(): Promise<void> {
    this.closed = true;
    await this.building;
    const worker = this.worker;
    this.worker = undefined;
    this.built = undefined;
    await worker?.terminate();
  }
}

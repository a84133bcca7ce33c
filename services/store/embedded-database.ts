import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Worker } from "node:worker_threads";
import { startTypeScriptWorker } from "../core/typescript-worker.ts";
import { within } from "../core/within.ts";
import type { Database, Queryable, StoreActivity } from "./database.ts";
import {
  type EmbeddedNotification,
  type EmbeddedReply,
  type EmbeddedRequest,
  fromWire,
} from "./embedded-protocol.ts";

/** The worker thread was stopped or crashed: every query waiting on it gets this. */
export class EmbeddedStoreStopped extends Error {
  constructor(reason: string) {
    super(`The embedded store (PGlite worker thread) stopped: ${reason}`);
    this.name = "EmbeddedStoreStopped";
  }
}

/** How long close() waits for PGlite to finish the statements under way and close its files. */
const CLOSE_WAIT_MS = 10_000;

type WithoutId<T> = T extends unknown ? Omit<T, "id"> : never;
type Request = WithoutId<EmbeddedRequest>;

interface Listener {
  onNotify: (payload: string) => void;
  onState: (listening: boolean) => void;
}

/**
 * Embedded PGlite, run in a worker thread (services/store/embedded-worker.ts) so that a long query
 * never stalls the server's event loop: health checks, key checks and responses go on while a
 * search runs. Every call is a message to the worker and its answer; results and errors come back
 * as PGlite gave them (dates as strings, counts as numbers, Postgres error fields kept).
 */
export class EmbeddedDatabase implements Database {
  readonly kind = "pglite" as const;
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  private readonly listeners = new Map<number, Listener>();
  private nextId = 1;
  /** Set once the worker cannot answer any more (closed, crashed): later calls reject with it. */
  private stopped: Error | undefined;
  private closing: Promise<void> | undefined;
  private lastAnswerAt: number | undefined;

  private constructor(
    private readonly worker: Worker,
    readonly location: string,
    onStopped: (error: Error) => void,
  ) {
    const crashed = (error: Error) => {
      if (this.stopped) return;
      this.stop(error);
      onStopped(error);
    };
    worker.on("message", (message: EmbeddedReply | EmbeddedNotification) => this.receive(message));
    worker.on("error", (error) => crashed(new EmbeddedStoreStopped(error.message)));
    worker.on("exit", (code) => crashed(new EmbeddedStoreStopped(`the thread exited with code ${code}`)));
  }

  /** `onStopped` hears of a worker that stopped without being closed (a crash). */
  static async open(
    dataDir: string | undefined,
    onStopped: (error: Error) => void = () => undefined,
  ): Promise<EmbeddedDatabase> {
    if (dataDir) mkdirSync(path.dirname(dataDir), { recursive: true });
    const db = new EmbeddedDatabase(startWorker(), dataDir ?? "memory://", onStopped);
    try {
      await db.request({ op: "open", dataDir });
    } catch (error) {
      // The caller hears of this failure by the rejection, not as a crash of an open store.
      db.stop(new Error("The embedded store did not open"));
      await db.worker.terminate();
      throw error;
    }
    return db;
  }

  async query<Row>(sql: string, params?: unknown[]) {
    return { rows: (await this.request({ op: "query", sql, params, tx: undefined })) as Row[] };
  }

  async exec(sql: string) {
    await this.request({ op: "exec", sql, tx: undefined });
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    const tx = this.nextId++;
    await this.request({ op: "begin" }, tx);
    let result: T;
    try {
      result = await work({
        query: async <Row>(sql: string, params?: unknown[]) => ({
          rows: (await this.request({ op: "query", sql, params, tx })) as Row[],
        }),
        exec: async (sql: string) => {
          await this.request({ op: "exec", sql, tx });
        },
      });
    } catch (error) {
      await this.request({ op: "end", tx, commit: false }).catch(() => undefined);
      throw error;
    }
    await this.request({ op: "end", tx, commit: true });
    return result;
  }

  async listen(
    channel: string,
    onNotify: (payload: string) => void,
    onState: (listening: boolean) => void = () => {},
  ) {
    const listener = this.nextId++;
    this.listeners.set(listener, { onNotify, onState });
    try {
      await this.request({ op: "listen", channel }, listener);
    } catch (error) {
      this.listeners.delete(listener);
      throw error;
    }
    onState(true);
    return async () => {
      if (!this.listeners.delete(listener) || this.stopped) return;
      await this.request({ op: "unlisten", listener });
    };
  }

  activity(): StoreActivity {
    return { lastAnswerAt: this.lastAnswerAt, inFlight: this.pending.size };
  }

  /** PGlite cannot cancel a running statement (it ignores statement_timeout): no limit here. */
  withStatementTimeout(): Database {
    return this;
  }

  async close() {
    this.closing ??= this.shutDown();
    await this.closing;
  }

  private async shutDown() {
    if (this.stopped) return;
    try {
      // PGlite closes its files first; the thread, with nothing left to do, is then stopped.
      await within(this.request({ op: "close" }), CLOSE_WAIT_MS, undefined);
    } finally {
      this.stop(new Error("The embedded store is closed"));
      await this.worker.terminate();
    }
  }

  /** `id` names the request's answer; a transaction and a LISTEN are known by their request's. */
  private request(request: Request, id = this.nextId++): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // An idle store keeps the process up no more than in-thread PGlite did; a waiting call does.
      if (this.pending.size === 1) this.worker.ref();
      try {
        this.worker.postMessage({ ...request, id });
      } catch (error) {
        this.settle(id);
        reject(error);
      }
    });
  }

  private settle(id: number) {
    const pending = this.pending.get(id);
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
    return pending;
  }

  private receive(message: EmbeddedReply | EmbeddedNotification) {
    if ("notify" in message) {
      this.listeners.get(message.notify)?.onNotify(message.payload);
      return;
    }
    const pending = this.settle(message.id);
    if (message.ok) {
      this.lastAnswerAt = Date.now();
      pending?.resolve(message.value);
    } else {
      pending?.reject(fromWire(message.error));
    }
  }

  private stop(reason: Error) {
    this.stopped ??= reason;
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(this.stopped);
    for (const listener of this.listeners.values()) listener.onState(false);
    this.listeners.clear();
  }
}

/** The worker thread running PGlite (embedded-worker.ts). */
function startWorker(): Worker {
  return startTypeScriptWorker(new URL("./embedded-worker.ts", import.meta.url));
}

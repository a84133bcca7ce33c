import { parentPort } from "node:worker_threads";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { yieldCpuToEventLoop } from "../core/typescript-worker.ts";
import {
  type EmbeddedNotification,
  type EmbeddedReply,
  type EmbeddedRequest,
  toWire,
} from "./embedded-protocol.ts";
import { parsers } from "./type-parsers.ts";

/**
 * The embedded store's worker thread: PGlite runs its WebAssembly here, so a long query blocks
 * this thread and not the server's. PGlite's own locks order the work exactly as in-thread: a
 * query outside a transaction waits for the open transaction to end, statements of a transaction
 * run inside it. Started by services/store/embedded-database.ts.
 */
const port = parentPort!;
yieldCpuToEventLoop();
let db: PGlite | undefined;

/** A transaction opened by a `begin` request, held open until its `end` request decides. */
class OpenTransaction {
  tx: Transaction | undefined;
  decide: (commit: boolean) => void = () => undefined;
  readonly decided = new Promise<boolean>((resolve) => {
    this.decide = resolve;
  });
  done: Promise<void> = Promise.resolve();
}

const transactions = new Map<number, OpenTransaction>();
const unlisteners = new Map<number, () => Promise<void>>();

function reply(message: EmbeddedReply | EmbeddedNotification) {
  try {
    port.postMessage(message);
  } catch (error) {
    // A value structured cloning refuses; the caller still gets its answer.
    if ("id" in message) port.postMessage({ id: message.id, ok: false, error: toWire(error) });
  }
}

function database(): PGlite {
  if (!db) throw new Error("The embedded store is not open");
  return db;
}

function target(tx: number | undefined): PGlite | Transaction {
  if (tx === undefined) return database();
  const transaction = transactions.get(tx)?.tx;
  if (!transaction) throw new Error("Transaction is closed");
  return transaction;
}

/** BEGIN is answered from inside PGlite's transaction, which then waits for the `end` request. */
function begin(id: number) {
  const transaction = new OpenTransaction();
  transaction.done = Promise.resolve().then(() =>
    database().transaction(async (tx) => {
      transaction.tx = tx;
      transactions.set(id, transaction);
      reply({ id, ok: true });
      if (!(await transaction.decided)) await tx.rollback();
    }),
  );
  // Once begun, the outcome is the `end` request's answer.
  transaction.done.catch((error: unknown) => {
    if (!transaction.tx) reply({ id, ok: false, error: toWire(error) });
  });
}

async function handle(request: Exclude<EmbeddedRequest, { op: "begin" }>): Promise<unknown> {
  switch (request.op) {
    case "open":
      db = await PGlite.create({ dataDir: request.dataDir, extensions: { unaccent }, parsers });
      return undefined;
    case "query":
      return (await target(request.tx).query(request.sql, request.params)).rows;
    case "exec":
      await target(request.tx).exec(request.sql);
      return undefined;
    case "end": {
      const transaction = transactions.get(request.tx);
      if (!transaction) throw new Error("Transaction is closed");
      transactions.delete(request.tx);
      transaction.decide(request.commit);
      await transaction.done;
      return undefined;
    }
    case "listen":
      unlisteners.set(
        request.id,
        await database().listen(request.channel, (payload) => reply({ notify: request.id, payload })),
      );
      return undefined;
    case "unlisten":
      await unlisteners.get(request.listener)?.();
      unlisteners.delete(request.listener);
      return undefined;
    case "close":
      await db?.close();
      db = undefined;
      return undefined;
  }
}

port.on("message", (request: EmbeddedRequest) => {
  if (request.op === "begin") {
    begin(request.id);
    return;
  }
  handle(request).then(
    (value) => reply({ id: request.id, ok: true, value }),
    (error: unknown) => reply({ id: request.id, ok: false, error: toWire(error) }),
  );
});

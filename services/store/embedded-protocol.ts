/**
 * Messages between the embedded store (services/store/embedded-database.ts, main thread) and the
 * worker thread that runs PGlite (services/store/embedded-worker.ts). Every request carries an id
 * and gets exactly one reply with that id; notifications carry the id of the LISTEN request.
 */
export type EmbeddedRequest =
  | { id: number; op: "open"; dataDir: string | undefined }
  /** `tx`: the id of the `begin` request whose transaction the statement runs in. */
  | { id: number; op: "query"; sql: string; params: unknown[] | undefined; tx: number | undefined }
  | { id: number; op: "exec"; sql: string; tx: number | undefined }
  /** Answered once BEGIN has run; the transaction holds PGlite's transaction lock until `end`. */
  | { id: number; op: "begin" }
  | { id: number; op: "end"; tx: number; commit: boolean }
  | { id: number; op: "listen"; channel: string }
  | { id: number; op: "unlisten"; listener: number }
  | { id: number; op: "close" };

export type EmbeddedReply =
  | { id: number; ok: true; value?: unknown }
  | { id: number; ok: false; error: WireError };

export interface EmbeddedNotification {
  notify: number;
  payload: string;
}

/** An error as it crosses the thread boundary: structured cloning would drop Postgres's fields. */
export interface WireError {
  name: string;
  message: string;
  stack: string | undefined;
  /** The error's own properties: code, detail, constraint, severity… */
  fields: Record<string, unknown>;
}

export function toWire(error: unknown): WireError {
  if (!(error instanceof Error))
    return { name: "Error", message: String(error), stack: undefined, fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (key !== "name" && key !== "message" && key !== "stack" && isCloneable(value)) fields[key] = value;
  }
  return { name: error.name, message: error.message, stack: error.stack, fields };
}

/** The error as callers knew it in-thread: same message, name and fields (`error.code` still works). */
export function fromWire(wire: WireError): Error {
  const error = Object.assign(new Error(wire.message), wire.fields);
  error.name = wire.name;
  if (wire.stack) error.stack = `${wire.stack}\n    at (the embedded store's worker thread)`;
  return error;
}

function isCloneable(value: unknown): boolean {
  if (typeof value === "function" || typeof value === "symbol") return false;
  try {
    structuredClone(value);
    return true;
  } catch {
    return false;
  }
}

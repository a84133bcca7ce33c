import { type ChildProcess, fork } from "node:child_process";
import http from "node:http";
import net from "node:net";
import type { Logger } from "pino";
import { contextHeaders } from "../api/middleware/request-context.ts";
import type { Liveness, Readiness } from "../presenters/health.ts";

/**
 * The front of `npm start` (issue 17: "/healthz and /readyz never wait on a search").
 *
 * The API runs in a child process (api-process.ts); this process owns the listening port and does
 * two things only. It reads the request line of each new connection: a probe (`GET /healthz`,
 * `GET /readyz`) it answers itself, from what the API process last reported, and every other
 * connection it hands to the API process as a socket (handle passing over the IPC channel, with the
 * bytes already read), after which it never sees that connection again. A probe therefore waits
 * on nothing the API is doing, however many searches keep the API's event loop busy, and liveness
 * still means the API answers: the API process reports every second from its event loop, and when
 * its reports stop for `stallSeconds` /healthz says 503.
 *
 * The pattern (read the first bytes, send the socket with them, `emit("connection")` and
 * re-emit the bytes in the child) is the one @socket.io/sticky uses to route connections to cluster
 * workers.
 */

/** Messages from the API process. Any of them proves its event loop ran. */
export type ApiMessage =
  | { type: "started"; hint: string }
  | { type: "alive" }
  | { type: "readiness"; readiness: Readiness };

/** Messages to the API process; `connection` comes with the socket. */
export interface ConnectionMessage {
  type: "connection";
  /** What this process read from the socket before handing it over. */
  head: Buffer;
}

/** How often the API process reports; /readyz reports older than three periods count as missing. */
export const REPORT_INTERVAL_MS = 1_000;
const READINESS_STALE_MS = 3 * REPORT_INTERVAL_MS;
/** A connection that has not sent its request line by then is closed (as the API's headersTimeout). */
const REQUEST_LINE_TIMEOUT_MS = 20_000;
/** Longer than any request line the API accepts: such a connection goes to the API, which refuses it. */
const MAX_SNIFF_BYTES = 8 * 1024;

const PROBE_PREFIXES = ["GET /healthz", "GET /readyz", "HEAD /healthz", "HEAD /readyz"].map((prefix) =>
  Buffer.from(prefix, "latin1"),
);
const PROBE_LINE = /^(?:GET|HEAD) \/(?:healthz|readyz)(?:\?[^ ]*)? HTTP\/1\.[01]\r?$/;

/**
 * Where a connection's first bytes send it: `probe` (answered here), `api` (handed over), or
 * `undecided` (they could still begin a probe's request line: read more). Anything that is not
 * exactly a probe's request line goes to the API, which answers probes too and refuses what is
 * malformed with its own errors.
 */
export function routeOf(head: Buffer): "probe" | "api" | "undecided" {
  const couldBeProbe = PROBE_PREFIXES.some((prefix) => {
    const n = Math.min(prefix.length, head.length);
    return head.subarray(0, n).equals(prefix.subarray(0, n));
  });
  if (!couldBeProbe) return "api";
  const lineEnd = head.indexOf(0x0a);
  if (lineEnd === -1) return head.length >= MAX_SNIFF_BYTES ? "api" : "undecided";
  return PROBE_LINE.test(head.subarray(0, lineEnd).toString("latin1")) ? "probe" : "api";
}

/** What the front knows of the API process: when it last reported, and its last readiness. */
export class ApiState {
  private lastReportAt: number | undefined;
  private last: { readiness: Readiness; at: number } | undefined;

  constructor(private readonly stallMs: number) {}

  heard(message: ApiMessage, now = Date.now()): void {
    this.lastReportAt = now;
    if (message.type === "readiness") this.last = { readiness: message.readiness, at: now };
  }

  /** GET /healthz: alive while the API process reports; 503 once it has been silent `stallMs`. */
  liveness(now = Date.now()): Liveness {
    const silentMs = this.lastReportAt === undefined ? Number.POSITIVE_INFINITY : now - this.lastReportAt;
    if (silentMs < this.stallMs) return { httpStatus: 200, body: { status: "ok" } };
    return {
      httpStatus: 503,
      body: { status: "unresponsive", detail: `the API process has not answered for ${seconds(silentMs)}` },
    };
  }

  /** GET /readyz: the API process's last readiness while recent; else 503 with `checks.api` saying why. */
  readiness(now = Date.now()): Readiness {
    if (this.last && now - this.last.at <= READINESS_STALE_MS) return this.last.readiness;
    const silentMs = this.last === undefined ? Number.POSITIVE_INFINITY : now - this.last.at;
    const unknown = "unknown: the API process has not reported";
    return {
      httpStatus: 503,
      body: {
        status: "unavailable",
        checks: {
          api: `unresponsive: no readiness report for ${seconds(silentMs)}`,
          store: unknown,
          search: unknown,
          rate_limits: unknown,
        },
      },
    };
  }
}

function seconds(ms: number): string {
  return Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : "ever";
}

export interface FrontOptions {
  port: number;
  /** The API process's module (a .ts file: it runs under the same loader as this process). */
  apiModule: URL;
  stallSeconds: number;
  /** Sent on probes' answers as on the API's (x-coverage-url, link). */
  coverageUrl: string;
  logger: Logger;
}

/**
 * Starts the API process, waits until it is ready, then listens. Resolves once listening. SIGTERM
 * or SIGINT stops accepting, asks the API process to finish what it is doing, and exits with its
 * exit code; if the API process ends on its own, so does the front, with its code.
 */
export async function startFront(options: FrontOptions): Promise<void> {
  const { logger } = options;
  const state = new ApiState(options.stallSeconds * 1000);
  const api = fork(new URL(options.apiModule), [], {
    execArgv: process.execArgv,
    serialization: "advanced",
    stdio: "inherit",
  });
  let stopping = false;
  api.on("message", (message: ApiMessage) => state.heard(message));
  api.once("exit", (code, signal) => {
    if (!stopping) logger.error({ code, signal }, "the API process ended: stopping");
    process.exit(code ?? 1);
  });

  const hint = await new Promise<string>((resolve) => {
    const onMessage = (message: ApiMessage) => {
      if (message.type !== "started") return;
      api.off("message", onMessage);
      resolve(message.hint);
    };
    api.on("message", onMessage);
  });

  const probes = probeServer(state, options.coverageUrl);
  const server = net.createServer({ pauseOnConnect: true }, (socket) => route(socket, api, probes, logger));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, () => resolve());
  });
  console.log(hint);

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    server.close();
    // The API process finishes the requests it holds, then exits; its code becomes ours.
    if (api.exitCode === null) api.kill(signal === "SIGINT" ? "SIGTERM" : signal);
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

/** The probes' own HTTP server: never listens, is given the connections that begin with a probe. */
function probeServer(state: ApiState, coverageUrl: string): http.Server {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    const { httpStatus, body } = path === "/healthz" ? state.liveness() : state.readiness();
    const json = JSON.stringify(body);
    const incomingId = req.headers["x-request-id"];
    res.writeHead(httpStatus, {
      ...contextHeaders(coverageUrl, typeof incomingId === "string" ? incomingId : undefined),
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(json),
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      // One probe per connection: whatever follows on it is the API's, which this process is not.
      connection: "close",
    });
    res.end(req.method === "HEAD" ? undefined : json);
  });
  server.on("clientError", (_error, socket) => {
    if (socket.writable)
      socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    else socket.destroy();
  });
  return server;
}

/** Reads a new connection's first bytes, then answers its probe or hands it to the API process. */
function route(socket: net.Socket, api: ChildProcess, probes: http.Server, logger: Logger): void {
  let head: Buffer = Buffer.alloc(0);
  socket.setTimeout(REQUEST_LINE_TIMEOUT_MS, () => socket.destroy());
  socket.on("error", () => socket.destroy());
  const onData = (chunk: Buffer) => {
    head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
    const where = routeOf(head);
    if (where === "undecided") return;
    socket.off("data", onData);
    socket.pause();
    if (where === "probe") {
      probes.emit("connection", socket);
      socket.emit("data", head);
      socket.resume();
      return;
    }
    handOver(socket, head, api, logger);
  };
  socket.on("data", onData);
  // Accepted paused (pauseOnConnect), so that nothing is read before this listener is in place.
  socket.resume();
}

function handOver(socket: net.Socket, head: Buffer, api: ChildProcess, logger: Logger): void {
  // Stop reading before the handle leaves: bytes read after this point would stay in this process.
  // (pause() alone stops emitting, not reading; a socket's handle is only sent once the channel
  // has acknowledged the previous one, so reads could otherwise happen in between.)
  const handle = (socket as unknown as { _handle?: { reading?: boolean; readStop?: () => number } })._handle;
  if (handle?.readStop) {
    handle.reading = false;
    handle.readStop();
  }
  socket.setTimeout(0);
  socket.removeAllListeners("error");
  socket.on("error", () => socket.destroy());
  if (!api.connected) {
    socket.destroy();
    return;
  }
  const message: ConnectionMessage = { type: "connection", head };
  api.send(message, socket, { keepOpen: false }, (error) => {
    if (!error) return;
    logger.warn({ err: error }, "could not hand a connection to the API process");
    socket.destroy();
  });
}

import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { Logger } from "pino";

/**
 * Requests Node's HTTP parser refuses before Express sees them (headers over
 * `MAX_HEADER_BYTES` in all, a malformed request line or header): answered with the API's error
 * envelope, a request id and the coverage headers, instead of Node's bare `431`/`400` with no
 * body. No route ran, so no key was read and nothing was counted: these carry no rate-limit
 * headers (README, "Errors and coverage").
 */
export const MAX_HEADER_BYTES = 16 * 1024;

const REFUSALS: Record<string, { status: number; reason: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: "Request Header Fields Too Large",
    message: `headers: larger than ${MAX_HEADER_BYTES / 1024} KB in all (an API key is about 60 characters; check what else is sent).`,
  },
};
const MALFORMED = { status: 400, reason: "Bad Request", message: "request: not a well-formed HTTP request." };

export function answerClientErrors(server: Server, coverageUrl: string, logger?: Logger): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    // The client left (ECONNRESET) or the socket is no longer ours to write to.
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const refusal = REFUSALS[error.code ?? ""] ?? MALFORMED;
    const requestId = randomUUID();
    logger?.info(
      { requestId, code: error.code, status: refusal.status },
      "request refused by the HTTP parser",
    );
    const body = JSON.stringify({
      error: { code: "invalid_request", message: refusal.message, request_id: requestId },
    });
    socket.end(
      [
        `HTTP/1.1 ${refusal.status} ${refusal.reason}`,
        "content-type: application/json; charset=utf-8",
        `content-length: ${Buffer.byteLength(body)}`,
        `x-request-id: ${requestId}`,
        `x-coverage-url: ${coverageUrl}`,
        `link: <${coverageUrl}>; rel="coverage"`,
        "connection: close",
        "",
        body,
      ].join("\r\n"),
    );
  });
}

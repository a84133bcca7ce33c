import http from "node:http";

/**
 * The floor of a /healthz probe (bench:search): a bare node:http server that answers every request
 * with 200 and the liveness body, nothing else: no express, no middleware, no front, no API process.
 * Probed exactly as the API's /healthz (health-probe.ts: from a process of its own, each probe on a
 * new connection) on the same CPUs as the API server, it measures what the machine itself gives a
 * new-connection probe, idle and while the API serves 32 long searches: the API's /healthz cannot
 * answer faster than this. Started by `startBareServer`; it sends its port to its parent, and ends
 * with it.
 */
const BODY = JSON.stringify({ status: "ok" });
const server = http.createServer((_request, response) => {
  response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(BODY) });
  response.end(BODY);
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.send?.(typeof address === "object" && address ? address.port : 0);
});
process.once("disconnect", () => process.exit(0));

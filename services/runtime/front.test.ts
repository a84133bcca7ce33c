import { describe, expect, it } from "vitest";
import type { Readiness } from "../presenters/health.ts";
import { ApiState, routeOf } from "./front.ts";

const bytes = (text: string) => Buffer.from(text, "latin1");

describe("routeOf: which connections the front answers itself", () => {
  it("answers GET and HEAD of /healthz and /readyz, with or without a query string", () => {
    for (const line of [
      "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
      "GET /readyz HTTP/1.1\r\n",
      "HEAD /healthz HTTP/1.0\r\n",
      "GET /healthz?verbose=1 HTTP/1.1\r\n",
      "GET /readyz HTTP/1.1\n",
    ])
      expect(routeOf(bytes(line)), line).toBe("probe");
  });

  it("hands over everything else as soon as the bytes can no longer begin a probe", () => {
    for (const start of [
      "GET /api/v1/search?q=x HTTP/1.1\r\n",
      "POST /healthz HTTP/1.1\r\n",
      "GET /a",
      "PUT",
      "\r\nGET /healthz",
    ])
      expect(routeOf(bytes(start)), start).toBe("api");
  });

  it("hands over what only starts like a probe: another path, another version, junk", () => {
    for (const line of [
      "GET /healthzz HTTP/1.1\r\n",
      "GET /healthz/ HTTP/1.1\r\n",
      "GET /readyz HTTP/2.0\r\n",
      "GET /healthz  HTTP/1.1\r\n",
      "GET /healthz HTTP/1.1 extra\r\n",
    ])
      expect(routeOf(bytes(line)), line).toBe("api");
  });

  it("waits for more while the request line could still be a probe's, up to 8 kB", () => {
    for (const start of ["G", "GET /", "GET /heal", "HEAD /readyz", "GET /healthz HTTP/1."])
      expect(routeOf(bytes(start)), start).toBe("undecided");
    expect(routeOf(bytes(`GET /healthz?${"a".repeat(8_200)}`))).toBe("api");
  });
});

describe("ApiState: what the front says of the API process", () => {
  const ready: Readiness = {
    httpStatus: 200,
    body: {
      status: "ready",
      checks: { api: "ok", store: "ok", search: "postgres: ok", rate_limits: "memory" },
    },
  };

  it("is alive while the API process reports, and unresponsive once silent for the stall time", () => {
    const state = new ApiState(10_000);
    expect(state.liveness(0).httpStatus).toBe(503);
    state.heard({ type: "alive" }, 1_000);
    expect(state.liveness(10_999)).toEqual({ httpStatus: 200, body: { status: "ok" } });
    expect(state.liveness(11_000)).toEqual({
      httpStatus: 503,
      body: { status: "unresponsive", detail: "the API process has not answered for 10.0 s" },
    });
  });

  it("gives the API process's last readiness for three seconds, then 503 saying since when", () => {
    const state = new ApiState(10_000);
    expect(state.readiness(0).body.checks.api).toBe("unresponsive: no readiness report for ever");
    state.heard({ type: "readiness", readiness: ready }, 1_000);
    expect(state.readiness(4_000)).toBe(ready);
    // An `alive` keeps liveness, not readiness: readiness reports are what /readyz quotes.
    state.heard({ type: "alive" }, 4_000);
    const stale = state.readiness(4_500);
    expect(stale.httpStatus).toBe(503);
    expect(stale.body).toEqual({
      status: "unavailable",
      checks: {
        api: "unresponsive: no readiness report for 3.5 s",
        store: "unknown: the API process has not reported",
        search: "unknown: the API process has not reported",
        rate_limits: "unknown: the API process has not reported",
      },
    });
  });
});

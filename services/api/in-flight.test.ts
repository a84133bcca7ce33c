import { EventEmitter } from "node:events";
import type { Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { InFlight } from "./app.ts";

describe("in-flight requests", () => {
  it("drains only when every tracked request has closed", async () => {
    const inFlight = new InFlight();
    const responses = [new EventEmitter(), new EventEmitter()];
    for (const res of responses) inFlight.track({} as Request, res as unknown as Response, () => undefined);
    let drained = false;
    const waiting = inFlight.drained().then(() => {
      drained = true;
    });
    responses[0]!.emit("close");
    await new Promise((resolve) => setImmediate(resolve));
    expect(drained).toBe(false);
    responses[1]!.emit("close");
    await waiting;
    expect(drained).toBe(true);
    await inFlight.drained();
  });
});

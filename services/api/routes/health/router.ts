import { Router } from "express";
import type { AppContext } from "../../../runtime/context.ts";
import { readiness } from "./readiness.ts";

/**
 * Liveness and readiness, without authentication or rate limits, as the API process answers them.
 * Under `npm start` a probe on a new connection is answered by the front instead
 * (services/runtime/front.ts), from what this process last reported, so that it never waits
 * behind searches; these routes serve a probe sent on a connection already in the API's hands,
 * and tests that build the app alone.
 */
export function healthRouter(ctx: AppContext): Router {
  return Router()
    .get("/healthz", (_req, res) => {
      res.json({ status: "ok" });
    })
    .get("/readyz", async (_req, res) => {
      const { httpStatus, body } = await readiness(ctx);
      res.status(httpStatus).json(body);
    });
}

import { z } from "zod";

/**
 * What /healthz and /readyz answer, whether the front (services/runtime/front.ts) or the API
 * process does; the OpenAPI document is built from these schemas.
 */
export const aliveSchema = z.object({ status: z.literal("ok") });

export const unresponsiveSchema = z.object({ status: z.literal("unresponsive"), detail: z.string() });

export const readinessSchema = z.object({
  status: z.enum(["ready", "degraded", "unavailable"]),
  checks: z.object({
    api: z.string().meta({
      description:
        "`ok` while the API process reports every second; `unresponsive: no readiness report for N s` when it has not reported for three seconds (the other checks are then `unknown`).",
    }),
    store: z.string(),
    search: z.string(),
    rate_limits: z.string(),
  }),
});

/** GET /healthz: its status and body. */
export type Liveness =
  | { httpStatus: 200; body: z.infer<typeof aliveSchema> }
  | { httpStatus: 503; body: z.infer<typeof unresponsiveSchema> };

/** GET /readyz: its status and body. */
export interface Readiness {
  httpStatus: 200 | 503;
  body: z.infer<typeof readinessSchema>;
}

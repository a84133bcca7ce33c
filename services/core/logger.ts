import { pino } from "pino";
import { config } from "./config.ts";

/**
 * One structured JSON logger. Secrets never reach it: callers log key lookup ids, never keys,
 * and connection strings go through redactUrl first.
 */
export const logger = pino({
  level: config().LOG_LEVEL,
  redact: { paths: ["req.headers.authorization", "*.password", "*.secret"], censor: "[redacted]" },
});

import type { Logger } from "pino";

/**
 * An outbox pump: moves waiting outbox entries to where they are handled (a BullMQ queue, or a
 * function run in this process). The search outbox and the change outbox each have one.
 */
export interface OutboxPump {
  name: string;
  /** Hands every waiting entry over; returns how many went. */
  dispatch(): Promise<number>;
  /** Now and then: hand over again what a lost job never confirmed, and prune old entries. */
  maintain(): Promise<void>;
}

/** Polls the pumps every `intervalMs` until stop(). A failed round is logged and retried next round. */
export function startDispatcher(pumps: OutboxPump[], logger: Logger, intervalMs = 1000) {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let rounds = 0;
  const round = async () => {
    const maintain = rounds++ % 60 === 0;
    for (const pump of pumps) {
      try {
        if (maintain) await pump.maintain();
        const n = await pump.dispatch();
        if (n > 0) logger.debug({ outbox: pump.name, entries: n }, "outbox entries dispatched");
      } catch (error) {
        logger.warn(
          { err: error, outbox: pump.name },
          "outbox dispatch failed; entries wait for the next round",
        );
      }
    }
  };
  const timer = setInterval(() => {
    if (!stopped) running = running.then(round);
  }, intervalMs);
  return {
    /** One round now (tests, or after an ingest). */
    flush: () => (running = running.then(round)),
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

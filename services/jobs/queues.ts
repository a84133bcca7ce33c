import type { ConnectionOptions, WorkerOptions } from "bullmq";
import type { Config } from "../core/config.ts";

/**
 * BullMQ on Redis, for the production topology: where the queues are, and how every worker of
 * ours holds its jobs. Embedded (no REDIS_URL) there are no queues: the same jobs run in the
 * server's process.
 */

export interface QueueSettings {
  connection: ConnectionOptions;
  prefix: string;
  /**
   * How long a worker holds a job's lock (renewed at half that while it runs), and how often lost
   * locks are looked for: a job whose worker died is picked up again within about twice this.
   */
  lockMs: number;
}

/** BullMQ's connection and key prefix from REDIS_URL and REDIS_PREFIX; undefined when embedded. */
export function queueSettings(config: Config): QueueSettings | undefined {
  if (!config.REDIS_URL) return undefined;
  const url = new URL(config.REDIS_URL);
  return {
    connection: {
      host: url.hostname,
      port: Number(url.port || 6379),
      ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
      ...(url.protocol === "rediss:" ? { tls: {} } : {}),
      // Workers block on Redis; BullMQ requires this to be null.
      maxRetriesPerRequest: null,
    },
    prefix: `${config.REDIS_PREFIX}:bull`,
    lockMs: config.QUEUE_LOCK_SECONDS * 1000,
  };
}

/** A worker's options: `concurrency` jobs at once, locks as the settings say. */
export function workerOptions(settings: QueueSettings, concurrency: number): WorkerOptions {
  return {
    connection: settings.connection,
    prefix: settings.prefix,
    concurrency,
    lockDuration: settings.lockMs,
    stalledInterval: settings.lockMs,
  };
}

import { config } from "../core/config.ts";
import { logger } from "../core/logger.ts";
import { startFront } from "./front.ts";

/**
 * `npm start`: the whole service on whatever the configuration names, embedded by default. This
 * process is the front (front.ts): it owns the port and answers health probes; the API runs in a
 * child process (api-process.ts), which loads the bundled codes on first start.
 */
async function main() {
  const cfg = config();
  await startFront({
    port: cfg.PORT,
    apiModule: new URL("./api-process.ts", import.meta.url),
    stallSeconds: cfg.HEALTH_STALL_SECONDS,
    coverageUrl: `${cfg.PUBLIC_URL}/coverage`,
    logger,
  });
}

main().catch((error) => {
  console.error(error instanceof Error ? `error: ${error.message}` : error);
  process.exit(1);
});

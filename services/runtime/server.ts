import type { Server } from "node:http";
import { progressReporter } from "../../cli/progress.ts";
import { createApp, InFlight } from "../api/app.ts";
import { answerClientErrors } from "../api/client-errors.ts";
import { startupHint } from "../api/startup-hint.ts";
import { config } from "../core/config.ts";
import { logger } from "../core/logger.ts";
import { withChangesDelivered } from "../jobs/change-log-job.ts";
import { resumeSubmittedRuns } from "../jobs/ingest-run-job.ts";
import { createIndexedEngine } from "../search/engines.ts";
import { rebuildIndex } from "../search/indexer.ts";
import { openStore } from "../store/open.ts";
import { corpusStats } from "../store/stats.ts";
import { startAdminSocket } from "./admin-socket.ts";
import { buildContext } from "./build-context.ts";
import { seedEmptyStore } from "./first-start.ts";
import { startEmbeddedJobs } from "./jobs.ts";

/**
 * `npm start`: the whole service on whatever the configuration names, embedded by default.
 * On first start with an empty store it loads the bundled LEGI corpus and guides (first-start.ts).
 */
async function main() {
  const cfg = config();
  const db = await openStore(cfg);
  if (cfg.INGEST_ON_FIRST_START && (await corpusStats(db)).documents === 0) {
    console.log(
      "Empty store: loading the bundled French codes (@socialgouv/legi-data) and the Ministry of Labour's guides, once…",
    );
    const progress = progressReporter();
    const seeded = await withChangesDelivered(db, cfg, () =>
      seedEmptyStore(db, cfg, { onProgress: progress.update }),
    ).finally(() => progress.stop());
    if (seeded) {
      const { legi, guides } = seeded;
      console.log(
        `Loaded ${legi.provisions.total} provisions from ${legi.documents.total} codes in ${legi.seconds.toFixed(1)} s, ` +
          `and the guides' wording on ${guides.provisionsChanged} of them in ${guides.seconds.toFixed(1)} s.`,
      );
    }
  }

  const ctx = await buildContext(cfg, db, logger);
  const inFlight = new InFlight();
  if (cfg.SEARCH_ENGINE !== "postgres") await ensureIndex(cfg, db);
  // Without Redis there is no worker: this process runs the change-log and indexing jobs itself.
  const jobs = await startEmbeddedJobs(cfg, db, logger);
  // The embedded store admits one process: the CLI reaches it through the server while it runs.
  const admin = cfg.DATABASE_URL ? undefined : await startAdminSocket(ctx);
  if (!cfg.DATABASE_URL && ctx.runs.kind === "in-process") {
    const resumed = await resumeSubmittedRuns(db, ctx.runs);
    if (resumed.length) logger.info({ runs: resumed }, "resuming ingest runs submitted before the last stop");
  }
  const server: Server = createApp(ctx, inFlight).listen(cfg.PORT, () => {
    const where = cfg.DATABASE_URL ? `Postgres at ${db.location}` : `embedded PGlite in ${db.location}`;
    console.log(startupHint(cfg, where, `rate limits: ${ctx.limiter.backend}; search: ${ctx.search.name}`));
  });
  answerClientErrors(server, ctx.coverageUrl, logger);
  server.headersTimeout = 20_000;
  server.requestTimeout = 30_000;

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: finishing requests in flight");
    admin?.close();
    server.close(async () => {
      // Connections are closed, but a handler whose client left may still be at work.
      await inFlight.drained();
      await jobs.stop();
      await ctx.close();
      await db.close();
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

/** With an index engine, the first start builds the index from Postgres when its alias is missing. */
async function ensureIndex(cfg: ReturnType<typeof config>, db: Awaited<ReturnType<typeof openStore>>) {
  const engine = await createIndexedEngine(cfg);
  try {
    if ((await engine.aliasTargets()).length > 0) return;
    console.log(`No search index behind ${cfg.SEARCH_INDEX} yet: building it from Postgres…`);
    const outcome = await rebuildIndex(db, engine, {
      shards: cfg.SEARCH_SHARDS,
      replicas: cfg.SEARCH_REPLICAS,
    });
    console.log(`Indexed ${outcome.documents} provisions in ${outcome.seconds.toFixed(1)} s.`);
  } finally {
    await engine.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? `error: ${error.message}` : error);
  process.exit(1);
});

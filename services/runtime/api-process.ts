import http from "node:http";
import type { Socket } from "node:net";
import { progressReporter } from "../../cli/progress.ts";
import { createApp, InFlight } from "../api/app.ts";
import { answerClientErrors } from "../api/client-errors.ts";
import { readiness } from "../api/routes/health/readiness.ts";
import { startupHint } from "../api/startup-hint.ts";
import { config } from "../core/config.ts";
import { logger } from "../core/logger.ts";
import { withChangesDelivered } from "../jobs/change-log-job.ts";
import { resumeSubmittedRuns } from "../jobs/ingest-run-job.ts";
import { createIndexedEngine } from "../search/engines.ts";
import { frenchWords } from "../search/french-words.ts";
import { rebuildIndex } from "../search/indexer.ts";
import { openStore } from "../store/open.ts";
import { corpusStats } from "../store/stats.ts";
import { startAdminSocket } from "./admin-socket.ts";
import { buildContext } from "./build-context.ts";
import type { AppContext } from "./context.ts";
import { seedEmptyStore } from "./first-start.ts";
import { type ApiMessage, type ConnectionMessage, REPORT_INTERVAL_MS } from "./front.ts";
import { startEmbeddedJobs } from "./jobs.ts";

/**
 * The API process of `npm start`, started by the front (front.ts, run by server.ts), which owns
 * the port and hands it every connection that is not a health probe. Everything the service does
 * happens here: on first start with an empty store it loads the bundled LEGI corpus and guides
 * (first-start.ts), then serves the API. It reports to the front every second, from its event loop.
 */
async function main() {
  const send = process.send?.bind(process);
  if (!send)
    throw new Error("the API process is started by the front: run `npm start` (services/runtime/server.ts)");
  const report = (message: ApiMessage) => {
    if (process.connected) send(message);
  };

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
  // The spelling reading's French words, read now rather than by the first search that needs them.
  if (cfg.SEARCH_SPELLING !== "off") frenchWords();
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

  const server = http.createServer(createApp(ctx, inFlight));
  answerClientErrors(server, ctx.coverageUrl, logger);
  server.headersTimeout = 20_000;
  server.requestTimeout = 30_000;
  // Connections come from the front. Node applies headersTimeout and requestTimeout only to the
  // connections of a listening server, so this one listens too, where nobody connects: an abstract
  // Unix socket on Linux (no file), a loopback port elsewhere.
  await new Promise<void>((resolve) =>
    server.listen(
      process.platform === "linux" ? `\0legal-corpus-api-${process.pid}` : { port: 0, host: "127.0.0.1" },
      resolve,
    ),
  );
  process.on("message", (message: ConnectionMessage, socket: Socket | undefined) => {
    if (message?.type !== "connection" || !socket) return;
    server.emit("connection", socket);
    socket.emit("data", message.head);
    socket.resume();
  });

  const reports = reportTo(report, ctx);
  await reports.first;
  const where = cfg.DATABASE_URL ? `Postgres at ${db.location}` : `embedded PGlite in ${db.location}`;
  report({
    type: "started",
    hint: startupHint(cfg, where, `rate limits: ${ctx.limiter.backend}; search: ${ctx.search.name}`),
  });

  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ reason }, "shutting down: finishing requests in flight");
    reports.stop();
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
  // The front is gone (killed, crashed): nobody can reach this process any more.
  process.on("disconnect", () => {
    logger.warn("the front process ended: nothing can reach this process any more, stopping");
    stop("the front process ended");
  });
}

/**
 * Every REPORT_INTERVAL_MS: `alive` at once (the timer fired, so the event loop runs), then this
 * process's readiness when the previous check has finished. `first` settles on the first readiness.
 */
function reportTo(report: (message: ApiMessage) => void, ctx: AppContext) {
  let checking: Promise<void> | undefined;
  const check = () => {
    checking ??= readiness(ctx)
      .then((state) => report({ type: "readiness", readiness: state }))
      .catch((error: unknown) => ctx.logger.warn({ err: error }, "readiness check failed"))
      .finally(() => {
        checking = undefined;
      });
    return checking;
  };
  const first = check();
  const timer = setInterval(() => {
    report({ type: "alive" });
    void check();
  }, REPORT_INTERVAL_MS);
  return { first, stop: () => clearInterval(timer) };
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

import express, { type Request, type RequestHandler, Router } from "express";
import helmet from "helmet";
import { pinoHttp } from "pino-http";
import swaggerUi from "swagger-ui-express";
import { consoleRouter } from "../console/routes.ts";
import { AppError } from "../core/errors.ts";
import type { AppContext } from "../runtime/context.ts";
import { access, anonymousLimit } from "./middleware/access.ts";
import { errorRenderer, MethodNotAllowed, notFoundRoute } from "./middleware/errors.ts";
import { requestContext } from "./middleware/request-context.ts";
import { buildOpenApiDocument } from "./openapi.ts";
import { adminRouter } from "./routes/admin/router.ts";
import { answerRouter } from "./routes/answer/router.ts";
import { changesRouter } from "./routes/changes/router.ts";
import { coverageRouter } from "./routes/coverage/router.ts";
import { documentsRouter } from "./routes/documents/router.ts";
import { domainsRouter } from "./routes/domains/router.ts";
import { healthRouter } from "./routes/health/router.ts";
import { mcpRouter } from "./routes/mcp/router.ts";
import { provisionsRouter } from "./routes/provisions/router.ts";
import { searchRouter } from "./routes/search/router.ts";

export const MAX_URL_LENGTH = 4096;

/** Paths of the API and the methods they accept, for 405 answers. */
const ROUTES: Array<[RegExp, string[]]> = [
  [/^\/api\/v1\/(search|domains|coverage|changes|changes\/feed|openapi\.json)$/, ["GET"]],
  [/^\/api\/v1\/(provisions|documents)\/.+$/, ["GET"]],
  [/^\/api\/v1\/admin\/ingest-runs$/, ["GET", "POST"]],
  [/^\/api\/v1\/answer$/, ["POST"]],
  [/^\/api\/v1\/admin\/ingest-runs\/[^/]+$/, ["GET"]],
];

const methodGuard: RequestHandler = (req, _res, next) => {
  const route = ROUTES.find(([pattern]) => pattern.test(req.path));
  next(
    route && !route[1].includes(req.method)
      ? new MethodNotAllowed(req.method, req.path, route[1])
      : undefined,
  );
};

/**
 * What is wrong with a URL before any route reads it: longer than MAX_URL_LENGTH, or a path that
 * is not valid percent-encoding (`/provisions/%ff`, on which a route's decoding would fail before
 * any limiter ran).
 */
function urlProblem(req: Request): AppError | undefined {
  if (req.originalUrl.length > MAX_URL_LENGTH)
    return new AppError(
      "invalid_request",
      `query: the URL is longer than ${MAX_URL_LENGTH} characters`,
      "query",
    );
  try {
    decodeURIComponent(req.path);
    return undefined;
  } catch {
    return new AppError(
      "invalid_request",
      "path: not valid percent-encoding (a % must be followed by two hexadecimal digits of UTF-8)",
      "path",
    );
  }
}

/** A URL refused before anything reads it, counted against the client's address. */
const urlGuard =
  (anonymous: RequestHandler): RequestHandler =>
  (req, res, next) => {
    const problem = urlProblem(req);
    if (!problem) return next();
    // The limiter sets the headers, or refuses with 429 when the address is over its limit.
    Promise.resolve(anonymous(req, res, (error?: unknown) => next(error ?? problem))).catch(next);
  };

/**
 * Requests still being handled, for graceful shutdown: a handler may still be running after its
 * client went away, and the database must stay open until it is done.
 */
export class InFlight {
  private count = 0;
  private waiters: Array<() => void> = [];

  readonly track: RequestHandler = (_req, res, next) => {
    this.count += 1;
    res.once("close", () => {
      this.count -= 1;
      if (this.count === 0) for (const resolve of this.waiters.splice(0)) resolve();
    });
    next();
  };

  drained(): Promise<void> {
    return this.count === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }
}

/** The docs page's static files (swagger-ui-dist's scripts, styles, icons), not the page itself. */
const DOCS_ASSET = /^\/[\w.-]+\.(?:js|css|png|map)$/;

/** The HTTP application. Tests import this; services/runtime/server.ts runs it. */
export function createApp(ctx: AppContext, inFlight = new InFlight()): express.Express {
  const app = express();
  app.use(inFlight.track);
  app.disable("x-powered-by");
  app.set("query parser", "simple");
  // Behind proxies named by TRUST_PROXY, req.ip is the client's address (limits count per client).
  app.set("trust proxy", ctx.config.TRUST_PROXY);

  app.use(requestContext(ctx.coverageUrl));
  app.use(
    pinoHttp({
      logger: ctx.logger,
      genReqId: (_req, res) => res.locals.requestId as string,
      // Path only: no query string (it may hold what a person typed), no headers (the key).
      serializers: {
        req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split("?")[0] }),
        res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      },
      customProps: (_req, res) => ({ requestId: res.locals.requestId, ...(res.locals.logFields ?? {}) }),
      autoLogging: { ignore: (req) => req.url === "/healthz" || req.url === "/readyz" },
    }),
  );
  // HTTPS-only headers would break a plain-http local run (the docs page's assets).
  const https = ctx.config.PUBLIC_URL.startsWith("https:");
  app.use(
    helmet({
      hsts: https,
      contentSecurityPolicy: { directives: { upgradeInsecureRequests: https ? [] : null } },
    }),
  );
  const anonymous = anonymousLimit(ctx);
  app.use(urlGuard(anonymous));
  app.use(healthRouter(ctx));

  const openApi = buildOpenApiDocument();
  app.get("/api/v1/openapi.json", anonymous, (_req, res) => {
    res.json(openApi);
  });
  // The page counts against the anonymous limit; its scripts and styles do not (a visit is one).
  app.use(
    "/api/v1/docs",
    ((req, res, next) => (DOCS_ASSET.test(req.path) ? next() : anonymous(req, res, next))) as RequestHandler,
    swaggerUi.serve,
    swaggerUi.setup(openApi, { customSiteTitle: "Legal corpus API" }),
  );

  app.use(consoleRouter(ctx, anonymous));

  // Express would answer OPTIONS itself (200 with Allow, no limit headers) on any path with a
  // route; the API answers it as any method a path does not take: 405 with Allow, counted.
  app.options(/^\/api\/v1\//, anonymous, methodGuard, notFoundRoute);

  const guard = access(ctx);
  app.use(mcpRouter(ctx, guard, anonymous));
  const api = Router();
  api.use(adminRouter(ctx, guard));
  api.use(searchRouter(ctx, guard));
  api.use(answerRouter(ctx, guard));
  api.use(domainsRouter(ctx, guard));
  api.use(changesRouter(ctx, guard));
  api.use(provisionsRouter(ctx, guard));
  api.use(documentsRouter(ctx, guard));
  api.use(coverageRouter(ctx, guard));
  app.use("/api/v1", api);

  app.use(anonymous, methodGuard);
  app.use(notFoundRoute);
  app.use(errorRenderer(ctx.logger));
  return app;
}

import path from "node:path";
import { fileURLToPath } from "node:url";
import express, { type ErrorRequestHandler, type RequestHandler, type Response, Router } from "express";
import { AppError } from "../core/errors.ts";
import { readCoverage } from "../corpus/catalogue.ts";
import type { AppContext } from "../runtime/context.ts";
import { recentChanges } from "../store/change-log.ts";
import { listIngestRuns } from "../store/ingest-runs.ts";
import type { CorpusStats } from "../store/stats.ts";
import { credentialsSchema, endSession, signIn, signUp, startSession } from "./accounts.ts";
import { currentAccount, fieldErrors } from "./forms.ts";
import { html } from "./html.ts";
import { projectRoutes } from "./project-routes.ts";
import { type ConsoleSession, consoleSession } from "./session.ts";
import { signInPage, signUpPage } from "./views/auth-pages.ts";
import { coveragePage } from "./views/coverage-page.ts";
import { editorPage } from "./views/editor-page.ts";
import { homePage } from "./views/home-page.ts";
import { page } from "./views/layout.ts";

const COVERAGE_CACHE_MS = 60_000;
const assets = path.join(path.dirname(fileURLToPath(import.meta.url)), "assets");

/**
 * The web console (/console) and the public coverage page (/coverage): server-rendered pages,
 * forms posted back, one small script (assets/console.js).
 */
export function consoleRouter(ctx: AppContext, anonymousLimit: RequestHandler): Router {
  const session = consoleSession(ctx);
  const router = Router();
  router.use("/console/assets", express.static(assets, { maxAge: "1h", fallthrough: false }));
  // Browsers ask for /favicon.ico whatever the page says: the same icon, not a 404.
  router.get("/favicon.ico", (_req, res) => {
    res.type("image/svg+xml").set("cache-control", "public, max-age=86400");
    res.sendFile(path.join(assets, "favicon.svg"));
  });
  router.use(["/console", "/coverage"], ...session.middleware);

  // The public page must not cost a table scan per visit: the counts are reused for a minute.
  let cached: { stats: CorpusStats; until: number } | undefined;
  const stats = async () => {
    if (!cached || cached.until < Date.now())
      cached = { stats: await readCoverage(ctx.db), until: Date.now() + COVERAGE_CACHE_MS };
    return cached.stats;
  };
  // The landing page: the same for everyone, cacheable like the public coverage page.
  router.get("/", anonymousLimit, async (_req, res) => {
    res.set("cache-control", `public, max-age=${COVERAGE_CACHE_MS / 1000}`);
    res.send(homePage(ctx.config.PUBLIC_URL, await stats()).value);
  });

  router.get("/coverage", anonymousLimit, async (req, res) => {
    res.vary("cookie");
    const current = await stats();
    // Signed out, the page is the same for everyone: cacheable, and no cookie is set.
    if (res.locals.account) return void res.send(coveragePage(session.pageContext(req, res), current).value);
    res.set("cache-control", `public, max-age=${COVERAGE_CACHE_MS / 1000}`);
    res.send(coveragePage({ account: undefined, csrf: "" }, current).value);
  });

  authRoutes(router, ctx, session);

  router.get("/console/editor", async (req, res) => {
    if (currentAccount(res).role !== "editor")
      throw new AppError("forbidden", "The editor view is for corpus editors.");
    const [runs, changes] = await Promise.all([listIngestRuns(ctx.db, 20), recentChanges(ctx.db, 50)]);
    res.send(editorPage(session.pageContext(req, res), runs, changes, req.query.refresh !== "off").value);
  });

  router.use(projectRoutes(ctx, session));
  router.use("/console", () => {
    throw new AppError("not_found", "There is no such page.");
  });
  router.use(["/console", "/coverage"], errorPage(ctx, session));
  return router;
}

function authRoutes(router: Router, ctx: AppContext, session: ConsoleSession) {
  const tooMany = (res: Response, seconds: number) => {
    res.set("retry-after", String(seconds));
    const minutes = Math.ceil(seconds / 60);
    return `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
  };

  router.get("/console/sign-up", (req, res) => {
    res.send(signUpPage(session.pageContext(req, res)).value);
  });
  router.post("/console/sign-up", async (req, res) => {
    const pc = session.pageContext(req, res);
    const email = typeof req.body?.email === "string" ? req.body.email : undefined;
    const address = req.ip ?? "unknown";
    const gate = await ctx.limiter.signInAllowed(address, "");
    if (!gate.allowed) {
      const problem = tooMany(res, gate.retryAfterSeconds);
      return void res.status(429).send(signUpPage(pc, { email, problem }).value);
    }
    await ctx.limiter.signUpAttempted(address);
    const parsed = credentialsSchema.safeParse(req.body);
    if (!parsed.success)
      return void res.status(400).send(signUpPage(pc, { email, errors: fieldErrors(parsed.error) }).value);
    const result = await signUp(ctx.db, parsed.data);
    if ("taken" in result) {
      const errors = { email: "an account with this address exists already: sign in instead" };
      return void res.status(400).send(signUpPage(pc, { email, errors }).value);
    }
    session.setSession(res, await startSession(ctx.db, result.account));
    res.redirect(303, "/console");
  });

  router.get("/console/sign-in", (req, res) => {
    if (res.locals.account) return res.redirect(303, "/console");
    res.send(signInPage(session.pageContext(req, res)).value);
  });
  router.post("/console/sign-in", async (req, res) => {
    const pc = session.pageContext(req, res);
    const email = typeof req.body?.email === "string" ? req.body.email.trim().toLowerCase() : "";
    const address = req.ip ?? "unknown";
    const gate = await ctx.limiter.signInAllowed(address, email);
    if (!gate.allowed) {
      const problem = tooMany(res, gate.retryAfterSeconds);
      return void res.status(429).send(signInPage(pc, { email, problem }).value);
    }
    const parsed = credentialsSchema.safeParse(req.body);
    const account = parsed.success ? await signIn(ctx.db, parsed.data) : undefined;
    if (!account) {
      await ctx.limiter.signInFailed(address, email);
      const problem = "The e-mail address or the password is wrong.";
      return void res.status(401).send(signInPage(pc, { email, problem }).value);
    }
    await ctx.limiter.signInSucceeded(address, email);
    // A new session each time, and the one this browser had (if any) ends.
    await endSession(ctx.db, session.token(req));
    session.setSession(res, await startSession(ctx.db, account));
    res.redirect(303, "/console");
  });

  router.post("/console/sign-out", async (req, res) => {
    await endSession(ctx.db, session.token(req));
    session.clearSession(res);
    res.redirect(303, "/console/sign-in");
  });
}

const clientErrorStatus = (error: unknown): number | undefined => {
  const status =
    (error as { status?: unknown; statusCode?: unknown }).status ??
    (error as { statusCode?: unknown }).statusCode;
  return typeof status === "number" && status >= 400 && status < 500 ? status : undefined;
};

/** Console failures as pages: signed-out visitors go to sign in; the rest get a page that says what happened. */
function errorPage(ctx: AppContext, session: ConsoleSession): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (error instanceof AppError && error.code === "unauthorized")
      return res.redirect(303, "/console/sign-in");
    const requestId = res.locals.requestId as string;
    let status = 500;
    let message = `Something went wrong on our side. If it persists, report request id ${requestId}.`;
    if (session.isCsrfError(error)) {
      status = 403;
      message =
        "This form has expired or did not come from this site. Go back, reload the page and try again.";
    } else if (error instanceof AppError) {
      status = error.status;
      message = error.message;
    } else if (clientErrorStatus(error)) {
      // Body parsing (too large, too many fields, a charset we do not read) or a missing asset:
      // the request's fault, not ours, so nothing is logged as an error.
      status = clientErrorStatus(error)!;
      message =
        status === 404 ? "There is no such page." : "The request could not be read. Go back and try again.";
    } else {
      ctx.logger.error({ err: error, requestId, path: req.path }, "console error");
    }
    if (res.headersSent) return;
    res
      .status(status)
      .send(
        page(
          status === 404 ? "Page not found" : "That did not work",
          session.pageContext(req, res),
          html`<p>${message}</p>`,
        ).value,
      );
  };
}

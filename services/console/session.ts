import { createHmac } from "node:crypto";
import cookieParser from "cookie-parser";
import { doubleCsrf } from "csrf-csrf";
import express, { type Request, type RequestHandler, type Response } from "express";
import type { AppContext } from "../runtime/context.ts";
import type { AccountRow } from "../store/accounts.ts";
import { SESSION_HOURS, sessionAccount } from "./accounts.ts";
import type { PageContext } from "./views/layout.ts";

/**
 * The console's cookies and form protection. The session cookie is HttpOnly, SameSite=Lax and,
 * behind HTTPS, Secure with the __Host- prefix. Every form carries a CSRF token bound to the
 * session (csrf-csrf's signed double-submit cookie); a POST without it is refused.
 */
export function consoleSession(ctx: AppContext) {
  const secure = ctx.config.PUBLIC_URL.startsWith("https:");
  const sessionCookie = secure ? "__Host-lc_session" : "lc_session";
  const csrf = doubleCsrf({
    // A secret of its own, derived from the server's: form tokens and key hashes never share one.
    getSecret: () => createHmac("sha256", ctx.keyHashSecret).update("console-csrf").digest("hex"),
    getSessionIdentifier: (req) => (req.cookies?.[sessionCookie] as string | undefined) ?? "",
    cookieName: secure ? "__Host-lc_csrf" : "lc_csrf",
    cookieOptions: { sameSite: "strict", secure, path: "/", httpOnly: true },
    getCsrfTokenFromRequest: (req) => (req.body as Record<string, unknown> | undefined)?._csrf as string,
  });

  /** Cookies, form bodies, the signed-in account (if any), then the CSRF check on POSTs. */
  const middleware: RequestHandler[] = [
    cookieParser(),
    express.urlencoded({ extended: false, limit: "16kb", parameterLimit: 100 }),
    async (req, res, next) => {
      res.locals.account = await sessionAccount(ctx.db, req.cookies?.[sessionCookie] as string | undefined);
      // Pages hold personal data and secrets: never cached, never framed (helmet).
      res.set("cache-control", "no-store");
      next();
    },
    csrf.doubleCsrfProtection,
  ];

  return {
    middleware,
    isCsrfError: (error: unknown) => error === csrf.invalidCsrfTokenError,
    token: (req: Request) => sessionCookieOf(req, sessionCookie),
    setSession(res: Response, token: string) {
      res.cookie(sessionCookie, token, {
        httpOnly: true,
        secure,
        sameSite: "lax",
        path: "/",
        maxAge: SESSION_HOURS * 3_600_000,
      });
    },
    clearSession(res: Response) {
      res.clearCookie(sessionCookie, { httpOnly: true, secure, sameSite: "lax", path: "/" });
    },
    /** What every page needs; issues the form token (and its cookie) for this session. */
    pageContext(req: Request, res: Response): PageContext {
      let token = "";
      try {
        token = req.csrfToken?.() ?? "";
      } catch {
        // A page rendered for an error before the CSRF middleware ran: its forms will be refused.
      }
      return { account: res.locals.account as AccountRow | undefined, csrf: token };
    },
  };
}

const sessionCookieOf = (req: Request, name: string) => req.cookies?.[name] as string | undefined;

export type ConsoleSession = ReturnType<typeof consoleSession>;

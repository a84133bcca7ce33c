import { createHash, randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../../services/access/keys.ts";
import { SIGN_IN_LIMITS, UsageLimiter } from "../../services/access/rate-limits.ts";
import { createApp } from "../../services/api/app.ts";
import { COVERAGE_RULE } from "../../services/presenters/catalogue.ts";
import { setAccountRole } from "../../services/store/accounts.ts";
import { PUBLIC_URL, startTestApi, type TestApi } from "../helpers/api.ts";
import { ConsoleClient, visibleText } from "../helpers/console.ts";

/**
 * The web console over HTTP, as a browser without script uses it, on server Postgres and Redis
 * (the Playwright suite in test/e2e drives the same pages in Chromium). What is checked here is
 * what a browser test cannot see: what is stored, what is refused, and what each response says.
 */
describe("console (server Postgres, Redis)", () => {
  let api: TestApi;
  const password = "correct horse battery staple";
  beforeAll(async () => {
    // Every test signs up from 127.0.0.1: the per-address limit is raised here and tested on its own.
    api = await startTestApi("postgres", {
      redis: true,
      label: "console",
      limits: { signIn: { ...SIGN_IN_LIMITS, address: 1000 } },
    });
  });
  afterAll(async () => api?.close());

  const search = (key: string) =>
    fetch(`${api.baseUrl}/api/v1/search?q=licenciement`, { headers: { authorization: `Bearer ${key}` } });

  /** Signs up a fresh account, creates a project and a key; returns the client, the project page and the key. */
  async function onboard(email: string, project: string) {
    const client = new ConsoleClient(api.baseUrl);
    await client.signUp(email, password);
    const created = await client.post("/console/projects", { name: project });
    expect(created.status).toBe(303);
    const projectPath = created.location!;
    await client.get(projectPath);
    const keyPage = await client.post(`${projectPath}/keys`, {
      label: "production server",
      scopes: ["search:read", "corpus:read"],
    });
    expect(keyPage.status).toBe(200);
    const key = /id="new-key" type="text" readonly value="([^"]+)"/.exec(keyPage.text)![1]!;
    return { client, projectPath, keyPage, key };
  }

  it("signs up with a hashed password and a session cookie whose token is not stored", async () => {
    const client = new ConsoleClient(api.baseUrl);
    const home = await client.signUp("Ada@Example.org", password);
    expect(home.status).toBe(200);
    expect(visibleText(home.text)).toContain("Your projects");
    expect(visibleText(home.text)).toContain("ada@example.org");

    const { rows } = await api.store.db.query<{ password_hash: string }>(
      "SELECT password_hash FROM accounts WHERE email = 'ada@example.org'",
    );
    expect(rows[0]!.password_hash).toMatch(/^\$argon2id\$/);
    expect(rows[0]!.password_hash).not.toContain(password);
    const token = client.cookies.get("lc_session")!;
    expect(token.length).toBeGreaterThan(40);
    const sessions = await api.store.db.query<{ token_hash: string }>(
      "SELECT token_hash FROM console_sessions",
    );
    expect(sessions.rows.map((r) => r.token_hash)).toContain(
      createHash("sha256").update(token).digest("hex"),
    );
    expect(JSON.stringify(sessions.rows)).not.toContain(token);
  });

  it("sets HttpOnly, SameSite cookies and never caches console pages", async () => {
    const client = new ConsoleClient(api.baseUrl);
    const page = await client.get("/console/sign-up");
    const cookies = page.headers.getSetCookie();
    expect(cookies.find((c) => c.startsWith("lc_csrf="))).toMatch(/HttpOnly.*SameSite=Strict/i);
    expect(page.headers.get("cache-control")).toBe("no-store");
    const response = await client.post("/console/sign-up", { email: "cookies@example.org", password });
    expect(response.headers.getSetCookie().find((c) => c.startsWith("lc_session="))).toMatch(
      /HttpOnly.*SameSite=Lax/i,
    );
  });

  it("refuses a form without its CSRF token, or with another session's, and changes nothing", async () => {
    const { client } = await onboard("csrf@example.org", "csrf-app");
    const before = await api.store.db.query("SELECT count(*)::int AS n FROM projects");
    const missing = await client.post("/console/projects", { _csrf: "", name: "forged-app" });
    expect(missing.status).toBe(403);
    expect(visibleText(missing.text)).toContain("This form has expired or did not come from this site");

    // Another signed-in person's token and its cookie, sent with this person's session: the pair is
    // valid on its own, but bound to the other session.
    const other = new ConsoleClient(api.baseUrl);
    const otherPage = await other.signUp("other-csrf@example.org", password);
    const otherToken = /name="_csrf" value="([^"]+)"/.exec(otherPage.text)![1]!;
    const forged = await fetch(`${api.baseUrl}/console/projects`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: `lc_session=${client.cookies.get("lc_session")}; lc_csrf=${other.cookies.get("lc_csrf")}`,
      },
      body: new URLSearchParams({ _csrf: otherToken, name: "forged-app" }).toString(),
    });
    expect(forged.status).toBe(403);
    // The same pair with its own session is accepted: what was refused was the binding.
    expect(
      (await other.post("/console/projects", { _csrf: otherToken, name: "other-csrf-app" })).status,
    ).toBe(303);
    await api.store.db.query("DELETE FROM projects WHERE name = 'other-csrf-app'");
    const after = await api.store.db.query("SELECT count(*)::int AS n FROM projects");
    expect(after.rows).toEqual(before.rows);
  });

  it("names the field at fault on bad input", async () => {
    const client = new ConsoleClient(api.baseUrl);
    await client.get("/console/sign-up");
    const short = await client.post("/console/sign-up", { email: "not-an-address", password: "short" });
    expect(short.status).toBe(400);
    expect(visibleText(short.text)).toContain("E-mail address: an e-mail address such as name@example.org");
    expect(visibleText(short.text)).toContain("Password: at least 12 characters");

    await client.signUp("fields@example.org", password);
    const badName = await client.post("/console/projects", { name: "<script>" });
    expect(badName.status).toBe(400);
    expect(visibleText(badName.text)).toContain(
      "Project name: letters, digits, spaces, dots, dashes and underscores only",
    );
    expect(badName.text).not.toContain("<script>");
    await client.post("/console/projects", { name: "taken-app" });
    const taken = await client.post("/console/projects", { name: "taken-app" });
    expect(visibleText(taken.text)).toContain("you have a project with this name already");
  });

  it("never tells one account the project names of another: names are unique per account (issue 18, item 23)", async () => {
    const first = await onboard("names-first@example.org", "shared-app");
    const second = new ConsoleClient(api.baseUrl);
    await second.signUp("names-second@example.org", password);
    // Was "this name is taken": a way to learn other accounts' project names.
    const same = await second.post("/console/projects", { name: "shared-app" });
    expect(same.status).toBe(303);
    const project = await second.get(same.location!);
    const keyPage = await second.post(`${same.location}/keys`, { label: "x", scopes: ["search:read"] });
    expect(keyPage.status).toBe(200);
    expect(project.status).toBe(200);
    // The CLI names projects by name: an ambiguous one is refused with the ids to use instead.
    await expect(createKey(api.store.db, api.ctx.keyHashSecret, { project: "shared-app" })).rejects.toThrow(
      /project: 2 projects are called "shared-app".*name one by id, #\d+ or #\d+/,
    );
    const id = Number(/\/console\/projects\/(\d+)/.exec(first.projectPath)![1]);
    const byId = await createKey(api.store.db, api.ctx.keyHashSecret, { project: `#${id}` });
    expect((await search(byId.key)).status).toBe(200);
  });

  it("shows a new key once, keeps only its hash, and the key works at once", async () => {
    const { client, projectPath, keyPage, key } = await onboard("keys@example.org", "keys-app");
    expect(key).toMatch(/^lc_live_[A-Za-z0-9]{8}_[A-Za-z0-9]{32}$/);
    expect(keyPage.headers.get("cache-control")).toBe("no-store");
    expect(visibleText(keyPage.text)).toContain("this is the only time it is shown");
    expect(visibleText(keyPage.text)).toContain("Never put it in browser code");

    const { rows } = await api.store.db.query<{ row: string }>(
      "SELECT row_to_json(k)::text AS row FROM api_keys k",
    );
    expect(rows.map((r) => r.row).join()).not.toContain(key.split("_")[3]);
    const project = await client.get(projectPath);
    expect(project.text).not.toContain(key.split("_")[3]);
    expect(visibleText(project.text)).toContain(`lc_live_${key.split("_")[2]}_…`);
    expect(visibleText(project.text)).toContain("search:read, corpus:read");
    expect(visibleText(project.text)).toContain("production server");

    expect((await search(key)).status).toBe(200);
  });

  it("offers only what the plan and the role allow", async () => {
    const { client, projectPath } = await onboard("scopes@example.org", "scopes-app");
    const page = await client.get(projectPath);
    expect(page.text).toMatch(/id="scope-answer-write"[^>]*disabled/);
    expect(page.text).not.toContain("scope-ingest-write");
    const answer = await client.post(`${projectPath}/keys`, { scopes: ["answer:write"] });
    expect(answer.status).toBe(400);
    expect(visibleText(answer.text)).toContain("Scopes: the beta plan does not include the answer endpoint");
    const ingest = await client.post(`${projectPath}/keys`, { scopes: ["ingest:write"] });
    expect(visibleText(ingest.text)).toContain("ingest:write is for corpus editors");
    const none = await client.post(`${projectPath}/keys`, {});
    expect(visibleText(none.text)).toContain("Scopes: tick at least one scope");
    const domain = await client.post(`${projectPath}/keys`, {
      scopes: ["search:read"],
      domains: ["labour", "astrology"],
    });
    expect(visibleText(domain.text)).toContain("Fields of law: not a field of law");
  });

  it("shows usage this minute, this month and per day against the plan", async () => {
    const { client, projectPath, key } = await onboard("usage@example.org", "usage-app");
    for (let i = 0; i < 3; i++) expect((await search(key)).status).toBe(200);
    const text = visibleText((await client.get(projectPath)).text);
    expect(text).toContain("Plan beta: 60 requests a minute, 10,000 a month, answer endpoint not included");
    expect(text).toContain("This minute: 3 of 60 requests");
    expect(text).toMatch(/This month \(\d{4}-\d{2}\): 3 of 10,000 requests/);
    const today = new Date().toISOString().slice(0, 10);
    expect(text).toContain(`${today} 3`);
    expect(text).toContain("Requests per day (UTC), last 30 days");
  });

  it("revokes a key: the next request with it gets 401", async () => {
    const { client, projectPath, key } = await onboard("revoke@example.org", "revoke-app");
    expect((await search(key)).status).toBe(200);
    const lookupId = key.split("_")[2]!;
    const revoked = await client.post(`${projectPath}/keys/${lookupId}/revoke`, {});
    expect(revoked.status).toBe(303);
    const page = visibleText((await client.get(revoked.location!)).text);
    expect(page).toContain(`Key ${lookupId} is revoked`);
    expect(page).toMatch(/Revoked \d{4}-\d{2}-\d{2}/);
    const refused = await search(key);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
  });

  it("keeps each account's projects and keys to itself", async () => {
    const { projectPath, key } = await onboard("owner@example.org", "owned-app");
    const intruder = new ConsoleClient(api.baseUrl);
    await intruder.signUp("intruder@example.org", password);
    expect((await intruder.get(projectPath)).status).toBe(404);
    expect(visibleText((await intruder.get("/console")).text)).not.toContain("owned-app");
    const lookupId = key.split("_")[2]!;
    expect((await intruder.post(`${projectPath}/keys/${lookupId}/revoke`, {})).status).toBe(404);
    expect((await intruder.post(`${projectPath}/keys`, { scopes: ["search:read"] })).status).toBe(404);
    // Through a project the intruder does own, the victim's key is still not theirs to revoke.
    const own = await intruder.post("/console/projects", { name: "intruder-app" });
    await intruder.get(own.location!);
    expect((await intruder.post(`${own.location}/keys/${lookupId}/revoke`, {})).status).toBe(404);
    expect((await search(key)).status).toBe(200);
  });

  it("says the same for an unknown address and a wrong password", async () => {
    const client = new ConsoleClient(api.baseUrl);
    await client.signUp("same@example.org", password);
    await client.post("/console/sign-out", {});
    await client.get("/console/sign-in");
    const unknown = await client.post("/console/sign-in", { email: "nobody@example.org", password });
    const wrong = await client.post("/console/sign-in", {
      email: "same@example.org",
      password: "wrong password!",
    });
    for (const response of [unknown, wrong]) {
      expect(response.status).toBe(401);
      expect(visibleText(response.text)).toContain("The e-mail address or the password is wrong.");
    }
  });

  it("locks an account after failed sign-ins from one address, not from another", async () => {
    const here = new ConsoleClient(api.baseUrl);
    await here.signUp("limited@example.org", password);
    await here.post("/console/sign-out", {});
    await here.get("/console/sign-in");
    for (let i = 0; i < SIGN_IN_LIMITS.accountAddress; i++) {
      const failed = await here.post("/console/sign-in", {
        email: "limited@example.org",
        password: "wrong password!",
      });
      expect(failed.status).toBe(401);
    }
    const limited = await here.post("/console/sign-in", { email: "limited@example.org", password });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(visibleText(limited.text)).toContain("Too many attempts");
    expect(here.cookies.has("lc_session")).toBe(false);

    // The same server over IPv6 loopback is another client address: the owner still gets in.
    const elsewhere = new ConsoleClient(api.baseUrl.replace("127.0.0.1", "[::1]"));
    await elsewhere.get("/console/sign-in");
    const owner = await elsewhere.post("/console/sign-in", { email: "limited@example.org", password });
    expect(owner.status).toBe(303);
    expect(elsewhere.cookies.has("lc_session")).toBe(true);
  });

  it("limits sign-ups and failed sign-ins per client address", async () => {
    const limiter = api.ctx.limiter;
    api.ctx.limiter = new UsageLimiter(api.redis, undefined, `lc-test-${randomBytes(4).toString("hex")}`, {
      signIn: { ...SIGN_IN_LIMITS, address: 3 },
    });
    try {
      const client = new ConsoleClient(api.baseUrl);
      await client.signUp("first@example.org", password);
      await client.post("/console/sign-out", {});
      await client.get("/console/sign-in");
      await client.post("/console/sign-in", { email: "first@example.org", password: "wrong password!" });
      await client.post("/console/sign-in", { email: "someone@example.org", password: "wrong password!" });
      const signIn = await client.post("/console/sign-in", { email: "first@example.org", password });
      expect(signIn.status).toBe(429);
      await client.get("/console/sign-up");
      const signUp = await client.post("/console/sign-up", { email: "fourth@example.org", password });
      expect(signUp.status).toBe(429);
      const { rows } = await api.store.db.query("SELECT 1 FROM accounts WHERE email = 'fourth@example.org'");
      expect(rows).toHaveLength(0);
    } finally {
      api.ctx.limiter = limiter;
    }
  });

  it("signs out: the session ends on the server too", async () => {
    const client = new ConsoleClient(api.baseUrl);
    await client.signUp("signout@example.org", password);
    const token = client.cookies.get("lc_session")!;
    const out = await client.post("/console/sign-out", {});
    expect(out.location).toBe("/console/sign-in");
    const replay = await fetch(`${api.baseUrl}/console`, {
      headers: { cookie: `lc_session=${token}` },
      redirect: "manual",
    });
    expect(replay.status).toBe(303);
    expect(replay.headers.get("location")).toBe("/console/sign-in");
  });

  it("shows editors the ingest runs and the change log, and no one else", async () => {
    const client = new ConsoleClient(api.baseUrl);
    await client.signUp("editor@example.org", password);
    expect((await client.get("/console/editor")).status).toBe(403);
    expect(await setAccountRole(api.store.db, "editor@example.org", "editor")).toBe(true);
    const page = await client.get("/console/editor");
    expect(page.status).toBe(200);
    const text = visibleText(page.text);
    expect(text).toContain("Ingest runs");
    expect(text).toMatch(/succeeded \d+ of \d+ documents/);
    expect(text).toContain("Change log");
    expect(text).toMatch(/added L\d/);
    expect(page.text).toContain('href="/console/editor"');
  });

  it("serves the coverage page to anyone, and API responses point to it", async () => {
    const page = await fetch(`${api.baseUrl}/coverage`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    const text = visibleText(await page.text());
    expect(text).toContain(COVERAGE_RULE);
    expect(text).toContain("Code du travail");
    expect(text).toMatch(/labour \d+/);
    expect(text).toMatch(/Nothing is loaded yet in: constitutional, civil, .*traffic/);
    // The same for everyone while signed out: cacheable, and no cookie.
    expect(page.headers.get("cache-control")).toBe("public, max-age=60");
    expect(page.headers.getSetCookie()).toEqual([]);

    const response = await search(api.keys.reader!);
    const body = (await response.json()) as { meta: { coverage_url: string; coverage_note: string } };
    expect(body.meta.coverage_url).toBe(`${PUBLIC_URL}/coverage`);
    expect(body.meta.coverage_note).toContain(`${PUBLIC_URL}/coverage`);
    expect(response.headers.get("x-coverage-url")).toBe(`${PUBLIC_URL}/coverage`);
  });

  it("behind HTTPS, uses Secure __Host- cookies", async () => {
    const https = createApp({
      ...api.ctx,
      config: { ...api.ctx.config, PUBLIC_URL: "https://api.test" },
    }).listen(0);
    await new Promise((resolve) => https.once("listening", resolve));
    try {
      const client = new ConsoleClient(`http://127.0.0.1:${(https.address() as AddressInfo).port}`);
      const page = await client.get("/console/sign-up");
      expect(page.headers.getSetCookie().find((c) => c.startsWith("__Host-lc_csrf="))).toMatch(/; Secure/i);
      const signedUp = await client.post("/console/sign-up", { email: "https@example.org", password });
      expect(signedUp.status).toBe(303);
      const session = signedUp.headers.getSetCookie().find((c) => c.startsWith("__Host-lc_session="));
      expect(session).toMatch(/; Path=\/;.*HttpOnly; Secure; SameSite=Lax/i);
      expect(session).not.toMatch(/Domain=/i);
    } finally {
      await new Promise((resolve) => https.close(resolve));
    }
  });

  it("answers unknown console pages and signed-out visits with pages, not JSON", async () => {
    const client = new ConsoleClient(api.baseUrl);
    const signedOut = await client.get("/console");
    expect(signedOut.status).toBe(303);
    expect(signedOut.location).toBe("/console/sign-in");
    await client.signUp("lost@example.org", password);
    const missing = await client.get("/console/nowhere");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toMatch(/text\/html/);
    expect(visibleText(missing.text)).toContain("Page not found");
  });
});

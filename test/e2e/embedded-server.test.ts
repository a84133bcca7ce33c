import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../services/core/config.ts";
import { launchChromium, screenshot } from "../helpers/browser.ts";
import { runCli } from "../helpers/cli.ts";
import { childrenOf, freePort } from "../helpers/processes.ts";

/**
 * `npm start` as a person runs it: embedded defaults, first start loads the bundled codes, then
 * the CLI works beside the running server (through its admin socket), keys take effect at once,
 * and shutdown is graceful.
 */
describe("the embedded server, started as `npm start` starts it", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "lc-e2e-"));
  let port: number;
  let server: ChildProcess;
  let output = "";
  const env = () => ({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "warn" });

  const startServer = async () => {
    output = "";
    server = spawn(process.execPath, ["--import", "tsx", path.join(repoRoot, "services/runtime/server.ts")], {
      cwd: repoRoot,
      env: { ...process.env, ...env() },
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout?.on("data", (chunk) => {
      output += chunk;
    });
    server.stderr?.on("data", (chunk) => {
      output += chunk;
    });
    // When the server dies, what it said is what a failing test must show.
    server.once("exit", (code, signal) => {
      output += `\n[server exited: code ${code}, signal ${signal}]`;
    });
    // A first start loads the codes and the guides: about two minutes (128 s measured on 2 cores,
    // docs/PERFORMANCE.md); five are allowed for a slow or busy machine.
    for (let i = 0; i < 1500 && !output.includes("listening on"); i++)
      await new Promise((r) => setTimeout(r, 200));
    expect(output).toContain("listening on");
  };

  beforeAll(async () => {
    port = await freePort();
    await startServer();
  }, 360_000);
  afterAll(() => {
    if (server.exitCode === null) server.kill("SIGKILL");
  });

  it("loads the bundled codes on first start, with progress, then says how to get a key", () => {
    expect(output).toMatch(/\[4\/4\] done \(29\d{3} provisions so far\)/);
    expect(output).toContain(`Legal corpus API listening on http://localhost:${port}`);
    expect(output).toContain("npx corpus projects create my-app");
    expect(output).toContain("npx corpus keys create --project my-app");
  });

  it("lets the CLI create a project and a key while the server holds the store; revocation is immediate", async () => {
    const project = await runCli(["projects", "create", "e2e-app"], env());
    expect(project.stdout).toContain("Project e2e-app created on the beta plan");
    const created = await runCli(["keys", "create", "--project", "e2e-app", "--json"], env());
    expect(created.code).toBe(0);
    const { key, lookup_id } = JSON.parse(created.stdout) as { key: string; lookup_id: string };

    const search = await fetch(`http://127.0.0.1:${port}/api/v1/search?q=licenciement`, {
      headers: { authorization: `Bearer ${key}` },
    }).catch((error: Error) => {
      throw new Error(`${error.message}; the server said:\n${output.slice(-3000)}`);
    });
    expect(search.status).toBe(200);
    expect(((await search.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);

    const stats = await runCli(["stats", "--json"], env());
    expect(JSON.parse(stats.stdout).provisions).toBeGreaterThan(29_000);
    const usage = await runCli(["usage", "e2e-app", "--json"], env());
    expect(JSON.parse(usage.stdout).minute.used).toBe(1);

    expect((await runCli(["keys", "revoke", lookup_id], env())).code).toBe(0);
    const refused = await fetch(`http://127.0.0.1:${port}/api/v1/search?q=licenciement`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(refused.status).toBe(401);
    const bad = await runCli(["keys", "create", "--project", "nope"], env());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('no project "nope"');
  });

  describe("its console, in Chromium", () => {
    let browser: Browser;
    let page: Page;
    const email = "integrator@example.org";
    const base = () => `http://localhost:${port}`;
    const search = (key: string) =>
      fetch(`${base()}/api/v1/search?q=licenciement`, { headers: { authorization: `Bearer ${key}` } });

    beforeAll(async () => {
      browser = await launchChromium();
      const context = await browser.newContext({ baseURL: base(), viewport: { width: 1280, height: 900 } });
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base() });
      page = await context.newPage();
    });
    afterAll(async () => browser?.close());

    /** Waits for the page whose main heading is this (Playwright's actions wait; its assertions are not ours). */
    const onPage = (title: string) =>
      page.getByRole("heading", { level: 1, name: title, exact: true }).waitFor();
    const text = (selector: string) => page.locator(selector).innerText();

    let key = "";
    it("signs up, creates a project and a key shown once with a copy button; the key works", async () => {
      await page.goto("/console/sign-up");
      await onPage("Create an account");
      // Keyboard users reach the skip link first.
      await page.keyboard.press("Tab");
      expect(await page.evaluate("document.activeElement?.textContent")).toBe("Skip to content");
      await screenshot(page, "01-sign-up");
      await page.getByLabel("E-mail address").fill(email);
      await page.getByLabel("Password").fill("correct horse battery staple");
      await page.getByRole("button", { name: "Create account" }).click();
      await onPage("Your projects");
      await screenshot(page, "02-projects");

      await page.getByLabel("Project name").fill("browser-app");
      await page.getByRole("button", { name: "Create project" }).click();
      await onPage("browser-app");
      expect(await text("main")).toContain("Plan beta: 60 requests a minute");
      await screenshot(page, "03-project");

      await page.getByLabel("Label (optional)").fill("e2e server");
      await page.getByRole("button", { name: "Create key" }).click();
      await onPage("Your new API key");
      const warning = await page.getByRole("alert").innerText();
      expect(warning).toContain("this is the only time it is shown");
      expect(warning).toContain("Never put it in browser code");
      key = await page.getByLabel("API key for browser-app").inputValue();
      expect(key).toMatch(/^lc_live_[A-Za-z0-9]{8}_[A-Za-z0-9]{32}$/);
      await page.getByRole("button", { name: "Copy" }).click();
      await page.getByRole("button", { name: "Copied" }).waitFor();
      expect(await page.evaluate("navigator.clipboard.readText()")).toBe(key);
      await screenshot(page, "04-key-created");
      // On a phone the "Try it" command wraps inside its box (it ran past it, issue 18, item 23).
      await page.setViewportSize({ width: 375, height: 812 });
      expect(
        await page.locator("pre.wrap").evaluate((el) => el.scrollWidth - el.clientWidth),
      ).toBeLessThanOrEqual(0);
      expect(
        await page.evaluate("document.documentElement.scrollWidth - window.innerWidth"),
      ).toBeLessThanOrEqual(0);
      await page.setViewportSize({ width: 1280, height: 900 });

      expect((await search(key)).status).toBe(200);
    });

    it("lists the key with its last use and usage, revokes it, and the API answers 401", async () => {
      await page.getByRole("link", { name: "Back to browser-app" }).click();
      await onPage("browser-app");
      const lookupId = key.split("_")[2]!;
      const row = page.getByRole("row").filter({ hasText: lookupId });
      const listed = await row.innerText();
      expect(listed).toContain("e2e server");
      expect(listed).not.toContain("never");
      expect(await text("main")).toContain("This minute: 1 of 60 requests");
      expect(await page.content()).not.toContain(key.split("_")[3]);

      // At phone width (375 px, issue 18, item 23) every key is a card: its Revoke button is on
      // screen, not past the edge of a table scrolled sideways. Layout read from the browser, not
      // judged by eye.
      await page.setViewportSize({ width: 375, height: 812 });
      const revoke = row.getByRole("button", { name: `Revoke key ${lookupId}` });
      const box = (await revoke.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
      expect(
        await page.evaluate("document.documentElement.scrollWidth - window.innerWidth"),
      ).toBeLessThanOrEqual(0);
      await screenshot(page, "04b-project-phone-375");
      // At desktop width the keys are a table again, its header row shown.
      await page.setViewportSize({ width: 1280, height: 900 });
      expect(await page.locator("table.stack thead th").first().boundingBox()).toMatchObject({
        width: expect.any(Number),
      });
      expect((await page.locator("table.stack thead th").first().boundingBox())!.width).toBeGreaterThan(20);

      page.once("dialog", (dialog) => void dialog.accept());
      await row.getByRole("button", { name: `Revoke key ${lookupId}` }).click();
      await page
        .getByRole("status")
        .filter({ hasText: `Key ${lookupId} is revoked` })
        .waitFor();
      expect(await row.innerText()).toContain("Revoked");
      await screenshot(page, "05-key-revoked");

      const refused = await search(key);
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("unauthorized");

      // Readable on a phone: nothing wider than the screen (tables scroll in their own box).
      await page.setViewportSize({ width: 375, height: 812 });
      await page.reload();
      expect(
        await page.evaluate("document.documentElement.scrollWidth - window.innerWidth"),
      ).toBeLessThanOrEqual(0);
      await screenshot(page, "06-project-phone");
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    it("shows the loaded codes on the public coverage page", async () => {
      await page.goto("/coverage");
      await onPage("What the corpus holds");
      expect(await page.getByRole("note").innerText()).toContain(
        "An empty result means the act is not loaded yet; it never means that no such law exists.",
      );
      const documents = page.locator("#documents + .table-scroll tbody tr");
      expect(await documents.count()).toBe(4);
      expect(await documents.filter({ hasText: "Code du travail" }).innerText()).toContain(
        "@socialgouv/legi-data",
      );
      await screenshot(page, "07-coverage");
    });

    it("shows an editor the ingest runs and the change log", async () => {
      await page.goto("/console/editor");
      await onPage("That did not work");
      const role = await runCli(["accounts", "role", email, "editor"], env());
      expect(role.stdout).toContain(`${email} is now an editor`);
      await page.goto("/console/editor");
      await onPage("Ingest runs and changes");
      expect(await page.getByRole("row").filter({ hasText: "succeeded" }).count()).toBeGreaterThan(0);
      expect(await page.getByRole("progressbar").count()).toBeGreaterThan(0);
      expect(await text("main")).toContain("Change log");
      await screenshot(page, "08-editor");
    });

    it("signs out, refuses a wrong password, and signs back in", async () => {
      await page.getByRole("button", { name: /Sign out/ }).click();
      await onPage("Sign in");
      await page.getByLabel("E-mail address").fill(email);
      await page.getByLabel("Password").fill("not the password at all");
      await page.getByRole("button", { name: "Sign in" }).click();
      expect(await page.getByRole("alert").innerText()).toContain(
        "The e-mail address or the password is wrong.",
      );
      await screenshot(page, "09-sign-in-refused");
      await page.getByLabel("Password").fill("correct horse battery staple");
      await page.getByRole("button", { name: "Sign in" }).click();
      await onPage("Your projects");
      expect(await page.getByRole("link", { name: "browser-app" }).count()).toBe(1);
    });
  });

  it("shuts down gracefully on SIGTERM, after which the CLI opens the store itself", async () => {
    const exited = new Promise<number | null>((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    expect(await exited).toBe(0);
    const stats = await runCli(["stats"], env());
    expect(stats.code).toBe(0);
    expect(stats.stdout).toContain("code-du-travail");
  });

  it("after a kill -9 the CLI says plainly what to do", async () => {
    await startServer();
    const exited = new Promise((resolve) => server.once("exit", resolve));
    // The API process holds the store (the front, server.pid, only routes connections): killed as
    // the OOM killer would, it leaves the lock behind, and the front ends with it.
    const [apiPid] = childrenOf(server.pid!);
    process.kill(apiPid!, "SIGKILL");
    expect(await exited).toBe(1);
    const busy = await runCli(["stats"], env());
    expect(busy.code).toBe(2);
    expect(busy.stderr).toMatch(/open in another process.*\n.*lock expires within 10 seconds/s);
    await new Promise((r) => setTimeout(r, 11_000));
    expect((await runCli(["stats"], env())).code).toBe(0);
  });
});

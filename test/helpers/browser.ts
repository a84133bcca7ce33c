import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { repoRoot } from "../../services/core/config.ts";

/** Debian's Chromium (`apt-get install chromium`), never a browser a test tool downloads. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Where screenshots of each screen are kept (git-ignored; CI keeps the folder as an artifact). */
export const SCREENSHOTS = path.join(repoRoot, "test/artifacts/console");

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} not found: install Debian's Chromium (apt-get install chromium), as .ci/run does`,
    );
  }
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    // The machine has no outside network: without these, Chromium keeps trying to reach Google.
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium (`npx playwright install` cannot run on these machines). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** <repo root>/test-results/screenshots (git-ignored). */
export const SCREENSHOT_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'test-results',
  'screenshots',
);

/** Saves a full-page PNG as test-results/screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Opens a URL and returns once the new document is committed; tests then wait for what they need.
 * Waiting for `load` instead races with the router's start-up `history.replaceState`, which Playwright
 * may report as an interrupted navigation when it comes before the load event.
 */
export async function open(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: 'commit' });
}

/** Reloads the page, with the same waiting rule as `open`. */
export async function reload(page: Page): Promise<void> {
  await page.reload({ waitUntil: 'commit' });
}

/** Signs in through the sign-in page of `origin` and waits for the home page. */
export async function signIn(page: Page, origin: string, email: string, password: string): Promise<void> {
  await open(page, `${origin}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/home/);
}

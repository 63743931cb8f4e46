import { mkdir } from 'node:fs/promises';
import axe from 'axe-core';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type ConsoleMessage,
  type Page,
} from 'playwright-core';
import { afterEach, type TestContext } from 'vitest';

/** How Chromium words a Content-Security-Policy violation in the console ("… violates the following …"). */
const CSP_VIOLATION = /Content Security Policy/i;

/** The CSP violations every page of this process logged, as `<page URL>: <console text>`. */
const violations: string[] = [];

/** The CSP violations logged so far by any page opened through `launchBrowser`. */
export const cspViolations = (): readonly string[] => violations;

function recordViolation(message: ConsoleMessage): void {
  if (CSP_VIOLATION.test(message.text())) violations.push(`${message.page()?.url()}: ${message.text()}`);
}

/**
 * Debian's Chromium (`npx playwright install` cannot run on these machines). Every page of every
 * context it opens has its console read: closing the browser fails when any page logged a violation of
 * the app's Content-Security-Policy (the one CloudFront sends too), so every browser test checks it.
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await launch();
  browsers.add(browser);
  browser.on('disconnected', () => browsers.delete(browser));
  const newContext = browser.newContext.bind(browser);
  const newPage = browser.newPage.bind(browser);
  const close = browser.close.bind(browser);
  const watch = (context: BrowserContext) => {
    context.on('console', recordViolation);
    return context;
  };
  browser.newContext = async (options) => watch(await newContext(options));
  browser.newPage = async (options) => {
    const page = await newPage(options);
    watch(page.context());
    return page;
  };
  browser.close = async (options) => {
    await close(options);
    if (violations.length > 0) {
      throw new Error(`Pages logged Content-Security-Policy violations:\n${violations.join('\n')}`);
    }
  };
  return browser;
}

/**
 * A page in a new context of `browser`, with the uncaught errors its scripts throw collected in
 * `errors` (each test expects none once it is done).
 */
export async function newTestPage(
  browser: Browser,
  options?: BrowserContextOptions,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

function launch(): Promise<Browser> {
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

/** The browsers this test file launched and has not closed. */
const browsers = new Set<Browser>();

/** <repo root>/test-results/failures (git-ignored). */
const FAILURE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-results', 'failures');

/** How much of a page's visible text a failure prints. */
const FAILURE_TEXT_CHARS = 600;

/**
 * When a browser test fails (a timeout included), what each page it left open shows is printed (URL
 * and visible text, for CI's log) and saved as test-results/failures/<test>-<n>.png: a wait that
 * never ended says what the page was doing instead. Registered by every test file that imports this
 * one (the benches, run outside Vitest, import it too).
 */
async function capturePagesOfFailedTest({ task }: TestContext): Promise<void> {
  if (task.result?.state !== 'fail') return;
  const pages = [...browsers].flatMap((b) => b.contexts().flatMap((c) => c.pages()));
  const name = task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 80);
  await mkdir(FAILURE_DIR, { recursive: true });
  for (const [index, page] of pages.entries()) {
    const path = join(FAILURE_DIR, `${name}-${index + 1}.png`);
    const [text, saved] = await Promise.all([
      page
        .locator('body')
        .innerText({ timeout: 5_000 })
        .catch((e: unknown) => `(no text: ${String(e)})`),
      page.screenshot({ path, fullPage: true, timeout: 10_000 }).then(
        () => path,
        (e: unknown) => `(no screenshot: ${String(e)})`,
      ),
    ]);
    const shown = text.replace(/\s+/g, ' ').slice(0, FAILURE_TEXT_CHARS);
    console.error(`"${task.name}" failed; page ${index + 1} at ${page.url()} (${saved}) shows: ${shown}`);
  }
}
if (process.env.VITEST) afterEach(capturePagesOfFailedTest);

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

/** A WebSocket frame's bytes, as Playwright reports them (a binary frame as a latin1 string or a Buffer). */
export const frameBytes = (payload: string | Buffer) =>
  typeof payload === 'string' ? Buffer.from(payload, 'latin1') : payload;

/**
 * The page's MQTT subscriptions, read off its WebSocket frames: SUBSCRIBE packets sent and SUBACKs
 * received on its newest connection. `settled()` once every subscription asked for there is
 * acknowledged (the broker then delivers what is published on those topics): what a test publishes
 * live waits for it.
 */
export function watchSubscriptions(page: Page) {
  let newest = { subscribes: 0, subacks: 0 };
  page.on('websocket', (socket) => {
    const counts = { subscribes: 0, subacks: 0 };
    newest = counts;
    socket.on('framesent', ({ payload }) => {
      if (frameBytes(payload)[0] === 0x82) counts.subscribes++;
    });
    socket.on('framereceived', ({ payload }) => {
      if (frameBytes(payload)[0] === 0x90) counts.subacks++;
    });
  });
  return { settled: () => newest.subscribes > 0 && newest.subacks >= newest.subscribes };
}

/** What an audit checks: WCAG 2.0 and 2.1, levels A and AA, as axe-core tags its rules. */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * The WCAG 2.1 A/AA failures axe-core finds in the page as it stands, one line per element
 * (`<rule>: <element> (<what fails>)`); none is expected. `allowed` names rules left out, each with its
 * reason at the caller. axe-core is put into the page through the DevTools protocol, which the page's
 * Content-Security-Policy does not govern (the app itself never loads it).
 */
export async function accessibilityFailures(page: Page, allowed: readonly string[] = []): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axe.source);
  const results = await page.evaluate(
    (tags) =>
      (globalThis as unknown as { axe: typeof axe }).axe.run({ runOnly: { type: 'tag', values: tags } }),
    WCAG_AA,
  );
  return results.violations
    .filter((rule) => !allowed.includes(rule.id))
    .flatMap((rule) =>
      rule.nodes.map(
        (node) =>
          `${rule.id}: ${node.target.join(' ')} (${(node.failureSummary ?? rule.help).replace(/\s+/g, ' ')})`,
      ),
    );
}

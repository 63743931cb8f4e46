import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../functions/test/support/provided';
import type { BuildingView, FloorPlanAnswer, FloorView } from '@argentum/contracts';
import { call, createOwnOrganization, createUser, signInAs } from '../../functions/test/support/api';
import { launchBrowser, screenshot } from './browser';

/**
 * The SVG corpus, once stored by the API, runs nothing in a browser: neither as an image (how the
 * floor view shows a plan) nor opened as a document of its own. Every script in the corpus would show
 * a dialog, write to the console or request https://evil.test/; the page watches for all three.
 */
const FIXTURES = path.join(import.meta.dirname, '..', '..', 'functions', 'test', 'fixtures', 'svg');
const REFUSED = ['entity-bomb.svg', 'external-entity.svg'];
const corpus = readdirSync(FIXTURES).filter((name) => name.endsWith('.svg') && !REFUSED.includes(name));
/**
 * Test pages live under this path of the plan URL's origin, the app's (answered by the route below,
 * never by the app): a page of a made-up public origin may not load images from the loopback address.
 */
const PAGES = '/__plan-test';

let browser: Browser;
let token: string;
let orgID: string;
let floorID: string;

beforeAll(async () => {
  browser = await launchBrowser();
  const admin = await createUser(2, [], 'Plan Admin');
  orgID = await createOwnOrganization(admin.userId, 2, 'Plan Browser Org');
  token = (await signInAs(admin)).accessToken;
  const building = await call<{ building: BuildingView }>(
    '/api/dashboard/createOrUpdateOrgBuild',
    { orgID, buildName: 'Browser Building' },
    { token },
  );
  const floor = await call<{ floor: FloorView }>(
    '/api/dashboard/createOrUpdateFloor',
    { buildID: building.body.building._id, floorName: 'Browser Floor' },
    { token },
  );
  floorID = floor.body.floor._id;
});
afterAll(async () => {
  await browser?.close();
});

/** Uploads a file as the plan of the test floor; the plan's presigned URL and the stored SVG. */
async function store(svg: string): Promise<{ url: string; stored: string }> {
  const bytes = new TextEncoder().encode(svg);
  const form = await call<{ url: string; fields: Record<string, string>; key: string }>(
    '/api/dashboard/createFloorPlanUpload',
    { orgID, floorID, contentType: 'image/svg+xml', size: bytes.length },
    { token },
  );
  expect(form.status).toBe(200);
  const body = new FormData();
  for (const [name, value] of Object.entries(form.body.fields)) body.append(name, value);
  body.append('file', new Blob([bytes], { type: 'image/svg+xml' }), 'plan.svg');
  expect((await fetch(form.body.url, { method: 'POST', body })).status).toBe(204);
  const committed = await call(
    '/api/dashboard/updateFloorPlanS3',
    { orgID, floorID, floorplan: form.body.key },
    { token },
  );
  expect(committed.status).toBe(200);
  const plan = await call<FloorPlanAnswer>('/api/dashboard/floorPlanFromS3', { orgID, floorID }, { token });
  expect(plan.status).toBe(200);
  return { url: plan.body.data, stored: await (await fetch(plan.body.data)).text() };
}

/** What ran, as far as a page can tell: dialogs, console messages, requests leaving for other hosts. */
interface Watch {
  context: BrowserContext;
  page: Page;
  ran: string[];
}

/**
 * A fresh context whose requests never leave the machine: the test origin is answered by `pages`,
 * the plan URL's origin is let through, and anything else is recorded and refused.
 */
async function watch(
  pages: Record<string, { type: string; body: string }>,
  planOrigin: string,
): Promise<Watch> {
  const context = await browser.newContext({ acceptDownloads: true });
  const ran: string[] = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    const page = pages[url];
    if (page) return route.fulfill({ status: 200, contentType: page.type, body: page.body });
    if (url.startsWith(planOrigin)) return route.continue();
    ran.push(`request ${url}`);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('dialog', async (dialog) => {
    ran.push(`dialog ${dialog.message()}`);
    await dialog.dismiss();
  });
  page.on('console', (message) => ran.push(`console ${message.text()}`));
  page.on('pageerror', (error) => ran.push(`error ${error.message}`));
  return { context, page, ran };
}

/** Lets the page run its load handlers, timers of 0 and two animation frames (animations begin). */
const settle = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(() => resolve())), 0);
      }),
  );

describe('a stored plan runs nothing in the browser', () => {
  it('proves the watch works: the unsanitized files do run', async () => {
    const raw = readFileSync(path.join(FIXTURES, 'event-handlers.svg'), 'utf8');
    const origin = 'http://127.0.0.1:9';
    const { context, page, ran } = await watch(
      { [`${origin}${PAGES}/raw.svg`]: { type: 'image/svg+xml', body: raw } },
      `${origin}${PAGES}`,
    );
    await page.goto(`${origin}${PAGES}/raw.svg`);
    await settle(page);
    expect(ran).toContain('dialog xss');
    await context.close();
  });

  it.each(corpus)('%s: shown as an image and opened as a document, nothing runs', async (name) => {
    const { url, stored } = await store(readFileSync(path.join(FIXTURES, name), 'utf8'));
    const planOrigin = new URL(url).origin;
    const pages = `${planOrigin}${PAGES}`;
    const { context, page, ran } = await watch(
      {
        [`${pages}/floor.html`]: {
          type: 'text/html',
          body: `<!doctype html><body style="margin:0"><img id="plan" alt="plan" src="${url.replaceAll('&', '&amp;')}" style="width:600px"></body>`,
        },
        // The stored SVG as a document of its own, without the download header and CSP it is served with.
        [`${pages}/plan.svg`]: { type: 'image/svg+xml', body: stored },
      },
      planOrigin,
    );

    // As the floor view shows it: an image.
    await page.goto(`${pages}/floor.html`);
    await page.waitForFunction(() => {
      const img = document.getElementById('plan') as HTMLImageElement | null;
      return img?.complete === true && img.naturalWidth > 0;
    });
    await settle(page);
    if (name === 'benign-plan.svg') await screenshot(page, 'floor-plan-benign-as-image');

    // Opened as a document of its own.
    await page.goto(`${pages}/plan.svg`);
    expect(await page.evaluate(() => document.documentElement.localName)).toBe('svg');
    await settle(page);
    // Links stay inside the document: following each one runs nothing either.
    for (const link of await page.locator('a').all()) {
      await link.click({ force: true, timeout: 2_000 }).catch(() => undefined);
    }
    await settle(page);
    expect(ran, name).toEqual([]);
    await context.close();
  });

  it('opening the plan URL itself downloads the file instead of showing it', async () => {
    const { url } = await store(readFileSync(path.join(FIXTURES, 'benign-plan.svg'), 'utf8'));
    const { context, page, ran } = await watch({}, new URL(url).origin);
    const download = page.waitForEvent('download');
    await page.goto(url).catch(() => undefined);
    expect((await download).suggestedFilename()).toBe('floor-plan.svg');
    expect(ran).toEqual([]);
    await context.close();
  });
});

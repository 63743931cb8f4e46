import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { iotNotificationPublisher } from '@argentum/functions/adapters/notification-publisher';
import { html } from '@argentum/functions/domain/notifications/notification-html';
import { raiseNotification } from '@argentum/functions/domain/notifications/notifications';
import { dynamoNotificationStore } from '@argentum/functions/stores/notifications';
import { dynamoUserStore } from '@argentum/functions/stores/users';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createOwnOrganization, createUser, type TestUser } from '../../functions/test/support/api';
import '../../functions/test/support/provided';
import { launchBrowser, newTestPage, open, reload, SCREENSHOT_DIR, signIn } from './browser';
import { ddmmyyyy, seededDay } from './seeded-history';

const stack = inject('stack');
let browser: Browser;

// Demo data (infra/local/demo-data.ts): a floor with a plan and devices, and an IEQ sensor with readings.
const DEMO_FLOOR = 'flr-demo-ground';
const IEQ_OFFICE = '00:1A:22:00:05:11';
const slow = { timeout: 90_000 };

/** Light and dark screenshots go to test-results/darkmode/ (next to the other screenshots). */
const DIR = join(SCREENSHOT_DIR, '..', 'darkmode');
async function shot(page: Page, name: string): Promise<void> {
  await mkdir(DIR, { recursive: true });
  await page.screenshot({ path: join(DIR, `${name}.png`) });
}

/** The background actually painted behind an element: its own, else the nearest ancestor's. */
function backgroundOf(target: Locator): Promise<string> {
  return target.evaluate((element) => {
    for (let e: Element | null = element; e; e = e.parentElement) {
      const colour = getComputedStyle(e).backgroundColor;
      if (colour !== 'rgba(0, 0, 0, 0)' && colour !== 'transparent') return colour;
    }
    return 'none';
  });
}

/** Relative luminance of an `rgb(...)`/`rgba(...)` colour, 0 (black) to 1 (white). */
function luminance(colour: string): number {
  const [r = 0, g = 0, b = 0] = (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}
const isDark = (colour: string) => luminance(colour) < 0.05;
const isLight = (colour: string) => luminance(colour) > 0.7;

const themeOf = (page: Page) => page.evaluate(() => document.documentElement.getAttribute('data-theme'));
const bodyBackground = (page: Page) => backgroundOf(page.locator('body'));

async function openThemePanel(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: /^Account menu for/ }).click();
  await page.getByRole('menuitem', { name: 'Dark Mode' }).click();
  const panel = page.getByRole('dialog', { name: 'Dark Mode' });
  await panel.getByRole('radiogroup', { name: 'Theme' }).waitFor();
  return panel;
}

/** Chooses a theme in the panel and waits until the server saved it. */
async function choose(page: Page, panel: Locator, label: 'Light' | 'Dark' | 'Follow the system') {
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/setTheme') && r.status() === 200);
  await panel.getByRole('radio', { name: label, exact: true }).check();
  await saved;
}

async function openFloor(page: Page) {
  await open(page, `${stack.url}/home?floor=${DEMO_FLOOR}`);
  await page.locator('[data-testid="floor-plan-stage"] [data-devid]').first().waitFor(slow);
  await page.locator('[data-testid="floor-plan-stage"] img').first().waitFor(slow);
}

/** The IEQ sensor over a day of its seeded readings (today's may not have begun: seeded-history.ts). */
async function openSensor(page: Page) {
  const day = ddmmyyyy(seededDay(stack.historyEnd));
  await open(page, `${stack.url}/home/sensor/${encodeURIComponent(IEQ_OFFICE)}?from=${day}&to=${day}`);
  await page.getByRole('heading', { name: 'IEQOffice' }).waitFor(slow);
  await page.getByLabel('Data point').selectOption({ label: 'Temperature' });
  await page
    .getByTestId('sensor-graph')
    .locator('canvas')
    .waitFor(slow)
    .catch(async (error: unknown) => {
      // What the page showed instead, for whoever reads the failure.
      await page.screenshot({ path: join(DIR, 'sensor-detail-failure.png') });
      throw error;
    });
}

/** Every screen of the brief, in the theme in effect, as <screen>-<mode>.png. */
async function captureScreens(page: Page, mode: 'light' | 'dark') {
  await open(page, `${stack.url}/home`);
  await page.getByRole('button', { name: 'Settings' }).waitFor(slow);
  await page.getByRole('button', { name: /Notifications/ }).waitFor(slow);
  await shot(page, `dashboard-${mode}`);

  await page.getByRole('button', { name: /^Account menu for/ }).click();
  await page.getByRole('menuitem', { name: 'Dark Mode' }).waitFor();
  await shot(page, `account-menu-${mode}`);
  await page.getByRole('menuitem', { name: 'Dark Mode' }).click();
  await page.getByRole('dialog', { name: 'Dark Mode' }).waitFor();
  await shot(page, `theme-panel-${mode}`);
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: /^Notifications(, \d+ unread)?$/ }).click();
  const popover = page.getByRole('dialog', { name: 'Notifications' });
  await popover.getByRole('button', { name: 'Delete notification' }).first().waitFor(slow);
  await shot(page, `notifications-${mode}`);
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Platform Settings' });
  await settings.getByRole('tab', { name: 'Manage Users' }).click();
  await settings.getByRole('row').nth(1).waitFor(slow);
  await shot(page, `user-admin-${mode}`);
  await page.keyboard.press('Escape');

  await openFloor(page);
  await page.locator(`[data-testid="floor-plan-stage"] [data-devid="${IEQ_OFFICE}"]`).hover();
  await page.getByTestId('device-popup').waitFor();
  await shot(page, `floor-view-popup-${mode}`);
  await page
    .getByRole('group', { name: 'Legend' })
    .screenshot({ path: join(DIR, `floor-legend-${mode}.png`) });
  const row = page.getByRole('button', { name: /IEQOffice/ }).first();
  await row.focus();
  await page.getByTestId('device-popup').waitFor();
  await page.keyboard.press('Enter');
  await shot(page, `floor-view-${mode}`);
  await page.getByRole('button', { name: 'OPTIONS', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Edit Floor Plan', exact: true }).click();
  const drawer = page.getByRole('complementary', { name: 'Edit floor plan' });
  await drawer.waitFor();
  await shot(page, `floor-edit-drawer-${mode}`);
  await drawer.getByRole('button', { name: 'Cancel' }).click();
  await drawer.waitFor({ state: 'hidden' });

  await openSensor(page);
  await page.getByTestId('comfort-graph').locator('canvas').waitFor(slow);
  await page.screenshot({ path: join(DIR, `sensor-detail-${mode}.png`), fullPage: true });

  await open(page, `${stack.url}/api-docs`);
  await page.getByRole('heading', { level: 1 }).first().waitFor(slow);
  await shot(page, `api-docs-${mode}`);
}

let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  browser = await launchBrowser();
  const owner = await createUser(2, []);
  const bellOrg = await createOwnOrganization(owner.userId, 2, 'Theme Bell Org');
  [alice, bob] = await Promise.all([
    createUser({ 'org-demo': 2, [bellOrg]: 1 }, [], 'Alice Theme'),
    createUser({ 'org-demo': 0 }, [], 'Bob Theme'),
  ]);
  const ports = {
    notifications: dynamoNotificationStore,
    publisher: iotNotificationPublisher,
    users: dynamoUserStore,
  };
  let time = Date.UTC(2026, 10, 20, 8, 0);
  for (const [i, type] of ([0, 1, 2] as const).entries()) {
    await raiseNotification(ports, {
      orgId: bellOrg,
      type,
      message: html`Room <b>${`R${i + 1}`}</b> temperature out of comfort zone`,
      properties: { floorID: DEMO_FLOOR, devID: IEQ_OFFICE },
      time: (time += 60_000),
    });
  }
});

afterAll(async () => {
  await browser?.close();
});

describe('dark mode in the browser', () => {
  it('applies the chosen theme at once to every screen, keeps it on reload from the first paint, follows the system and leaves other users alone', async () => {
    const { context, page, errors } = await newTestPage(browser, { viewport: { width: 1400, height: 900 } });

    // The sign-in page before anyone chose: light.
    await open(page, `${stack.url}/login`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await themeOf(page)).toBe('light');
    expect(isLight(await bodyBackground(page))).toBe(true);
    await shot(page, 'sign-in-light');

    await signIn(page, stack.url, alice.email, alice.password);
    await captureScreens(page, 'light');

    // Dark, chosen in the account menu's panel: applied at once, no reload.
    await open(page, `${stack.url}/home`);
    const panel = await openThemePanel(page);
    expect(await panel.getByRole('radio', { name: 'Light', exact: true }).isChecked()).toBe(true);
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => navigations.push(frame.url()));
    await choose(page, panel, 'Dark');
    expect(await themeOf(page)).toBe('dark');
    expect(isDark(await bodyBackground(page))).toBe(true);
    expect(isDark(await backgroundOf(panel))).toBe(true);
    expect(navigations).toEqual([]);
    // The radio group works from the keyboard: arrows move the choice.
    await panel.getByRole('radio', { name: 'Dark', exact: true }).focus();
    for (const [key, mode] of [
      ['ArrowLeft', 'light'],
      ['ArrowRight', 'dark'],
    ] as const) {
      const saved = page.waitForResponse((r) => r.url().endsWith('/api/setTheme') && r.status() === 200);
      await page.keyboard.press(key);
      await waitForTheme(page, mode);
      await saved;
    }
    await page.keyboard.press('Escape');

    // The floor view and the sensor page are dark; the plan keeps its light card, legible as drawn.
    await openFloor(page);
    expect(isDark(await bodyBackground(page))).toBe(true);
    expect(isDark(await backgroundOf(page.getByTestId('floor-plan-viewport')))).toBe(true);
    const planCard = await backgroundOf(page.locator('[data-testid="floor-plan-stage"] img').first());
    expect(luminance(planCard)).toBeGreaterThan(0.6);
    await openSensor(page);
    expect(isDark(await bodyBackground(page))).toBe(true);
    expect(isDark(await backgroundOf(page.getByTestId('sensor-graph')))).toBe(true);

    // Reload: dark from the first frame, before the app has mounted (no light flash).
    await page.addInitScript(() => {
      requestAnimationFrame(() => {
        const w = window as unknown as { firstFrame?: unknown };
        w.firstFrame = {
          theme: document.documentElement.getAttribute('data-theme'),
          background: document.body ? getComputedStyle(document.body).backgroundColor : 'no body',
        };
      });
    });
    await reload(page);
    const firstFrame = await page.waitForFunction(
      () => (window as unknown as { firstFrame?: { theme: string; background: string } }).firstFrame,
    );
    const { theme, background } = (await firstFrame.jsonValue()) as { theme: string; background: string };
    expect(theme).toBe('dark');
    expect(isDark(background)).toBe(true);
    await page.getByTestId('sensor-graph').locator('canvas').waitFor(slow);
    expect(await themeOf(page)).toBe('dark');

    await captureScreens(page, 'dark');

    // Follow the system: the device's scheme, live.
    await open(page, `${stack.url}/home`);
    await page.emulateMedia({ colorScheme: 'light' });
    await choose(page, await openThemePanel(page), 'Follow the system');
    await waitForTheme(page, 'light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await waitForTheme(page, 'dark');
    expect(isDark(await bodyBackground(page))).toBe(true);
    await page.emulateMedia({ colorScheme: 'light' });
    await waitForTheme(page, 'light');
    await page.keyboard.press('Escape');

    // Another device of the same user (a fresh browser profile) gets the saved choice with the session.
    const other: BrowserContext = await browser.newContext({
      viewport: { width: 1400, height: 900 },
      colorScheme: 'dark',
    });
    const otherPage = await other.newPage();
    await signIn(otherPage, stack.url, alice.email, alice.password);
    await waitForTheme(otherPage, 'dark');
    expect(
      await otherPage.evaluate(() => document.documentElement.getAttribute('data-theme-preference')),
    ).toBe('system');

    // A second user is unaffected: on their own browser, and on this one after Alice signs out.
    const bobContext = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const bobPage = await bobContext.newPage();
    await signIn(bobPage, stack.url, bob.email, bob.password);
    expect(await themeOf(bobPage)).toBe('light');
    expect(isLight(await bodyBackground(bobPage))).toBe(true);

    await choose(otherPage, await openThemePanel(otherPage), 'Dark');
    await reload(page);
    await waitForTheme(page, 'dark'); // this device's copy follows the server at the next session
    await page.getByRole('button', { name: /^Account menu for/ }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL(/\/login/);
    expect(await themeOf(page)).toBe('dark'); // the sign-in page stays in the last user's theme
    await shot(page, 'sign-in-dark');
    await signIn(page, stack.url, bob.email, bob.password);
    await waitForTheme(page, 'light');
    await reload(page);
    await page.getByRole('button', { name: /^Account menu for/ }).waitFor(slow);
    expect(await themeOf(page)).toBe('light');

    expect(errors).toEqual([]);
    await Promise.all([context.close(), other.close(), bobContext.close()]);
  }, 480_000);
});

/** Waits until the page's theme in effect is `mode`. */
async function waitForTheme(page: Page, mode: 'light' | 'dark') {
  await page.waitForFunction((m) => document.documentElement.getAttribute('data-theme') === m, mode, {
    timeout: 10_000,
  });
}

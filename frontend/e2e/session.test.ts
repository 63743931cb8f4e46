import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import '../../functions/test/support/provided';
import { launchBrowser, open, reload, screenshot, signIn } from './browser';

const stack = inject('stack');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('session in the browser', () => {
  it('signs the admin in, shows the tree, survives a reload through the refresh cookie, and signs out', async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    // The sign-in panel is also shown at / (specification: routes).
    await open(page, `${stack.url}/`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await screenshot(page, 'login');

    await page.getByLabel('Email').fill('admin@example.com');
    await page.getByLabel('Password', { exact: true }).fill('Wrong-Passw0rd!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() =>
        page
          .getByRole('alert')
          .filter({ hasText: 'The password and/or email entered is incorrect. Please try again' })
          .count(),
      )
      .toBe(1);
    await screenshot(page, 'login-failed');

    await signIn(page, stack.url, 'admin@example.com', stack.demoPassword);
    await page.getByText('Welcome to Argentum. Select an organization from the sidebar to start.').waitFor();
    await page.getByRole('button', { name: 'Demo Org' }).waitFor();
    const building = page.getByRole('button', { name: 'Headquarters' });
    expect(await building.getAttribute('aria-expanded')).toBe('false');
    await building.click();
    expect(await building.getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('link', { name: 'Ground Floor' }).waitFor();
    expect(await page.getByRole('button', { name: 'Other Org' }).count()).toBe(0);
    await screenshot(page, 'home-admin');

    await page.getByRole('link', { name: 'Ground Floor' }).click();
    await page.waitForURL(/floor=flr-demo-ground/);
    await page.getByRole('heading', { name: 'Ground Floor' }).waitFor();
    await screenshot(page, 'home-floor-selected');

    // The access token lives only in memory: after a reload the session comes back from the cookie.
    await reload(page);
    await page.getByRole('link', { name: 'Ground Floor' }).waitFor();
    expect(page.url()).toMatch(/\/home\?floor=flr-demo-ground/);
    expect(await page.evaluate(() => JSON.stringify(window.localStorage))).not.toMatch(/eyJ/);

    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL(/\/login/);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();

    // Signed out for real: a reload does not bring the session back.
    await open(page, `${stack.url}/home`);
    await page.waitForURL(/\/login/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a read-only user only their own organizations', async () => {
    for (const [email, visible, hidden] of [
      ['viewer@example.com', 'Demo Org', 'Other Org'],
      ['other@example.com', 'Other Org', 'Demo Org'],
    ] as const) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await signIn(page, stack.url, email, stack.demoPassword);
      await page.getByRole('button', { name: visible }).waitFor();
      expect(await page.getByRole('button', { name: hidden }).count()).toBe(0);
      await screenshot(page, `home-${email.split('@')[0]}`);
      await context.close();
    }
  });

  it('renders the API documentation generated from the route table', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await open(page, `${stack.url}/api-docs`);
    await page.getByText('/api/dashboard/getUsersOrganisations').first().waitFor();
    await page.getByText('/integrations/ecobee/EcobeeSetTemperatureAndMode').first().waitFor();
    await screenshot(page, 'api-docs');
    await context.close();
  });
});

import { type Browser, request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_EXPIRED_TEXT } from '@argentum/contracts';
import { createUser, stack } from '../../functions/test/support/api';
import { launchBrowser, newTestPage, open, reload, screenshot, signIn } from './browser';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('session in the browser', () => {
  it('signs the admin in, shows the tree, survives a reload through the refresh cookie, and signs out', async () => {
    // Signing out ends every session of the user: an admin of this test's own.
    const admin = await createUser(2, ['org-demo'], 'Adam Admin');
    const { context, page, errors } = await newTestPage(browser, { viewport: { width: 1366, height: 800 } });

    // The sign-in panel is also shown at / (specification: routes).
    await open(page, `${stack.url}/`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await screenshot(page, 'login');

    await page.getByLabel('Email').fill(admin.email);
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

    await signIn(page, stack.url, admin.email, admin.password);
    await page.getByText('Welcome to Argentum. Select an organization from the sidebar to start.').waitFor();
    await page.getByRole('button', { name: 'Demo Org' }).waitFor();
    const building = page.getByRole('button', { name: 'Headquarters' });
    expect(await building.getAttribute('aria-expanded')).toBe('false');
    await building.click();
    await expect.poll(() => building.getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('link', { name: 'Ground Floor' }).waitFor();
    expect(await page.getByRole('button', { name: 'Other Org' }).count()).toBe(0);
    await screenshot(page, 'home-admin');

    await page.getByRole('link', { name: 'Ground Floor' }).click();
    await page.waitForURL(/floor=flr-demo-ground/);
    await page.getByRole('heading', { name: 'Ground Floor' }).waitFor();
    // The floor as it is used: its plan and devices shown, not their loading placeholder.
    await page.locator('[data-testid="floor-plan-stage"] [data-devid]').first().waitFor();
    const plan = page.getByTestId('floor-plan-stage').locator('img').first();
    await expect
      .poll(() => plan.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    await screenshot(page, 'home-floor-selected');

    // The access token lives only in memory: after a reload the session comes back from the cookie.
    const restored = page.waitForResponse((response) => response.url().endsWith('/api/refreshToken'));
    await reload(page);
    expect((await restored).status()).toBe(200);
    await page.getByRole('link', { name: 'Ground Floor' }).waitFor();
    expect(page.url()).toMatch(/\/home\?floor=flr-demo-ground/);
    expect(await page.evaluate(() => JSON.stringify(window.localStorage))).not.toMatch(/eyJ/);

    // Signing out ends every session of the user and closes the page's real-time connection. Its
    // answer is held until the channel's reconnect has been refused (the access token, then the refresh
    // cookie): that refusal is the sign-out's doing, not a session that ended by itself. Another call
    // of the page still in flight (the floor's devices, read again once the channel connected) may
    // meet the refused token first and refresh for itself: which is refused first is not the point.
    // (Sent from a request context of its own, so that the answer's cleared cookies reach the page
    // only with it.)
    const refusals: string[] = [];
    page.on('response', (response) => {
      const call = /\/api\/(realtimeToken|refreshToken)$/.exec(response.url())?.[1];
      if (call && response.status() === 401) refusals.push(call);
    });
    const held = await request.newContext();
    const { promise: released, resolve: release } = Promise.withResolvers<undefined>();
    await page.route('**/api/userLogout', async (route) => {
      const response = await held.fetch(route.request());
      await released;
      await route.fulfill({ response });
    });
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect
      .poll(() => [...new Set(refusals)].sort(), { timeout: 15_000 })
      .toEqual(['realtimeToken', 'refreshToken']);
    release(undefined);
    await page.waitForURL(/\/login/);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.getByText(SESSION_EXPIRED_TEXT).count()).toBe(0);
    await page.unroute('**/api/userLogout');
    await held.dispose();

    // Signed out for real: a reload does not bring the session back, nor even asks for it (the
    // sign-out cleared the session hint with the refresh cookie).
    const refreshAsks: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/refreshToken')) refreshAsks.push(request.url());
    });
    await open(page, `${stack.url}/home`);
    await page.waitForURL(/\/login/);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(refreshAsks).toEqual([]);
    // Signing out is no expiry: the sign-in page has nothing to explain.
    expect(await page.getByText(SESSION_EXPIRED_TEXT).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a read-only user only their own organizations', async () => {
    for (const [name, orgId, visible, hidden] of [
      ['viewer', 'org-demo', 'Demo Org', 'Other Org'],
      ['other', 'org-other', 'Other Org', 'Demo Org'],
    ] as const) {
      const user = await createUser(0, [orgId]);
      const context = await browser.newContext();
      const page = await context.newPage();
      await signIn(page, stack.url, user.email, user.password);
      await page.getByRole('button', { name: visible }).waitFor();
      expect(await page.getByRole('button', { name: hidden }).count()).toBe(0);
      await screenshot(page, `home-${name}`);
      await context.close();
    }
  });

  it("renders the API documentation generated from the route table, with each call's answer", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await open(page, `${stack.url}/api-docs`);
    await page.getByText('/api/dashboard/getUsersOrganisations').first().waitFor();
    await page.getByText('/integrations/ecobee/EcobeeSetTemperatureAndMode').first().waitFor();
    // The answer's schema comes from the call's response schema in the contracts.
    const login = page.getByRole('article', { name: 'POST /api/login' });
    await login.getByText('Answer (200)').click();
    await login.getByRole('cell', { name: 'accessToken' }).waitFor();
    await login.getByRole('cell', { name: 'orgRoles' }).waitFor();
    // CommonMark code spans read as code, never as backticks; counts are singular for one.
    const token = page.getByRole('article', { name: 'POST /api/realtimeToken' });
    await token.locator('code', { hasText: '{base}?x-amz-customauthorizer-signature=' }).waitFor();
    expect(await page.locator('main').textContent()).not.toContain('`');
    await page
      .getByText(/\(1 field\)/)
      .first()
      .waitFor();
    expect(await page.getByText(/\(1 fields\)/).count()).toBe(0);
    await screenshot(page, 'api-docs');
    await context.close();
  });
});

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { decodeJwt, importJWK, type JWK, SignJWT } from 'jose';
import { type Browser, type BrowserContext, type Page, request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_EXPIRED_TEXT, SESSION_HINT_COOKIE } from '@argentum/contracts';
import {
  call,
  createUser,
  linkIn,
  signIn as apiSignIn,
  signInAs,
  stack,
  waitForMail,
} from '../../functions/test/support/api';
import { launchBrowser, newTestPage, open, screenshot, signIn } from './browser';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const newPage = () => newTestPage(browser, { viewport: { width: 1280, height: 800 } });

/** The account link of the newest mail to this address, waiting for it. */
const mailedLink = async (email: string, route: 'register' | 'forgetPassword') =>
  linkIn(await waitForMail(email), route).url;

async function openAccountMenuItem(page: Page, item: 'Change Username' | 'Change Password' | 'Log out') {
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

/**
 * An access token of this user that the pool really signed but that has expired: cognito-local signs
 * with the key shipped in its package, so the test can sign one dated an hour ago.
 */
async function expiredAccessTokenOf(email: string, password: string): Promise<string> {
  const { accessToken } = await apiSignIn(email, password);
  const require = createRequire(import.meta.url);
  const { jwk } = JSON.parse(
    readFileSync(require.resolve('cognito-local/lib/keys/cognitoLocal.private.json'), 'utf8'),
  ) as { jwk: JWK };
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ ...decodeJwt(accessToken), iat: now - 3700, exp: now - 100 })
    .setProtectedHeader({ alg: 'RS256', kid: 'CognitoLocal' })
    .sign(await importJWK(jwk, 'RS256'));
}

/** Sends the next request to `path` with this token instead of the one the app holds. */
async function swapTokenOnce(page: Page, path: string, token: string) {
  let swapped = false;
  await page.route(`**${path}`, async (route) => {
    if (swapped) return route.continue();
    swapped = true;
    await route.continue({ headers: { ...route.request().headers(), authorization: `Bearer ${token}` } });
  });
}

/** The session hint cookie the page can read (contracts: SESSION_HINT_COOKIE), when the browser has it. */
const sessionHint = async (context: BrowserContext) =>
  (await context.cookies()).find((cookie) => cookie.name === SESSION_HINT_COOKIE);

describe('accounts in the browser', () => {
  it('invite -> mail -> register -> sign in: the new user sees only the invited organization', async () => {
    const email = `invitee-${randomUUID().slice(0, 8)}@example.com`;
    const { accessToken } = await signInAs(await createUser(2, ['org-demo']));
    const sent = await call(
      '/api/dashboard/sendInviteUserEmail',
      { email, organizationId: ['org-demo'], organizationName: ['Demo Org'] },
      { token: accessToken },
    );
    expect(sent.status).toBe(200);
    const link = await mailedLink(email, 'register');
    const origin = new URL(link).origin;

    const { context, page, errors } = await newPage();
    await open(page, link);
    const emailField = page.getByLabel('Email');
    await expect.poll(() => emailField.inputValue()).toBe(email);
    expect(await emailField.getAttribute('readonly')).not.toBeNull();
    await page.getByText('Demo Org').waitFor();

    await page.getByLabel('User name').fill('Ivy Invitee');
    const password = page.getByLabel('Password', { exact: true });
    await password.fill('abcdefghi1');
    await page.getByText('Password strength: Medium').waitFor();
    await password.fill('Ivy-Passw0rd!');
    await page.getByText('Password strength: Strong').waitFor();
    await page
      .getByText(
        'Must be 8+ characters long and contain at least 1 upper case letter, 1 number, 1 special character',
      )
      .waitFor();
    await screenshot(page, 'accounts-register');

    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/login$/);
    await screenshot(page, 'accounts-registered-login');

    await signIn(page, origin, email, 'Ivy-Passw0rd!');
    await page.getByRole('button', { name: 'Demo Org' }).waitFor();
    expect(await page.getByRole('button', { name: 'Other Org' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Account menu for Ivy Invitee' }).waitFor();
    await screenshot(page, 'accounts-invitee-home');

    // The link was used: opening it again says it expired.
    await openAccountMenuItem(page, 'Log out');
    await page.waitForURL(/\/login/);
    await open(page, link);
    await page.getByText('Please request Admin the link has expired').waitFor();
    await screenshot(page, 'accounts-register-expired');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('forgot password -> mail -> reset -> sign in with the new password', async () => {
    const user = await createUser(0, ['org-demo'], 'Forgetful Fay');
    const { context, page, errors } = await newPage();
    await open(page, `${stack.url}/login`);
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('Please Enter email.').waitFor();
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('Please Enter valid email.').waitFor();
    await page.getByLabel('Email').fill(user.email.toUpperCase());
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('Please check your email. Forget password Link has been sent.').waitFor();
    await screenshot(page, 'accounts-forgot-sent');

    const link = await mailedLink(user.email, 'forgetPassword');
    await open(page, link);
    await page.getByLabel('New password').fill('Reset-Passw0rd!');
    await page.getByLabel('Confirm password').fill('Reset-Passw0rd');
    await page.getByText("Passwords Don't Match").waitFor();
    await screenshot(page, 'accounts-reset-mismatch');
    await page.getByLabel('Confirm password').fill('Reset-Passw0rd!');
    expect(await page.getByText("Passwords Don't Match").count()).toBe(0);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed successfully.').waitFor();
    await screenshot(page, 'accounts-reset-done');
    await page.waitForURL(/\/login$/, { timeout: 10_000 });

    await signIn(page, new URL(link).origin, user.email, 'Reset-Passw0rd!');
    await page.getByRole('button', { name: 'Account menu for Forgetful Fay' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('changes the user name and the password from the account menu', async () => {
    const user = await createUser(1, ['org-demo'], 'Menu Max');
    const { context, page, errors } = await newPage();
    await signIn(page, stack.url, user.email, user.password);

    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Change Username' }).waitFor();
    await page.getByRole('menuitem', { name: 'Change Password' }).waitFor();
    await screenshot(page, 'accounts-menu');
    await page.getByRole('menuitem', { name: 'Change Username' }).click();

    const dialog = page.getByRole('dialog', { name: 'Change Username' });
    const nameField = dialog.getByLabel('User name');
    await expect.poll(() => nameField.inputValue()).toBe('Menu Max');
    await nameField.fill('');
    await dialog.getByText('User name can not be empty').waitFor();
    expect(await dialog.getByRole('button', { name: 'Update' }).isDisabled()).toBe(true);
    await screenshot(page, 'accounts-username-empty');
    await nameField.fill('Maxine Renamed');
    await dialog.getByRole('button', { name: 'Update' }).click();
    await page.getByText('Username Changed successfully.').waitFor();
    await page.getByRole('button', { name: 'Account menu for Maxine Renamed' }).waitFor();
    await screenshot(page, 'accounts-username-changed');

    await openAccountMenuItem(page, 'Change Password');
    const passwordDialog = page.getByRole('dialog', { name: 'Change Password' });
    await passwordDialog.getByRole('button', { name: 'Change password' }).click();
    await passwordDialog.getByText('Password can not empty').waitFor();
    await passwordDialog.getByLabel('Old password').fill('Wrong-Passw0rd!');
    await passwordDialog.getByLabel('New password').fill('Menu-Passw0rd!');
    await passwordDialog.getByRole('button', { name: 'Change password' }).click();
    await passwordDialog.getByText('Something went wrong').waitFor();
    await screenshot(page, 'accounts-password-wrong-old');
    // The change ends every session of the user, this page's old one too, and closes the page's
    // real-time connection; its answer carries the new session. Held here until the channel's
    // reconnect has been refused (the old access token, then the old refresh cookie): the page waits
    // for the change rather than take that for the end of its session, then connects with the new one.
    const tokenAnswers: number[] = [];
    // Every session call's answer in order, told when the page does not reconnect.
    const sessionCalls: string[] = [];
    page.on('response', (response) => {
      const call = /\/api\/(realtimeToken|refreshToken|changepassword)$/.exec(response.url())?.[1];
      if (call) sessionCalls.push(`${call} ${response.status()}`);
      if (call === 'realtimeToken') tokenAnswers.push(response.status());
    });
    const { promise: released, resolve: release } = Promise.withResolvers<undefined>();
    // Sent from a request context of its own: `route.fetch()` would store the answer's new refresh
    // cookie in the page's cookie jar at once, and the page's refresh could then succeed before the
    // answer is released.
    const held = await request.newContext();
    await page.route('**/api/changepassword', async (route) => {
      const response = await held.fetch(route.request());
      await released;
      await route.fulfill({ response });
    });
    await passwordDialog.getByLabel('Old password').fill(user.password);
    await passwordDialog.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => tokenAnswers, { timeout: 15_000 }).toContain(401);
    // Refused with the old refresh cookie too: the page waits for the change.
    await expect.poll(() => sessionCalls).toContain('refreshToken 401');
    const refusedAt = tokenAnswers.length;
    expect(tokenAnswers).not.toContain(200);
    release(undefined);
    await passwordDialog.getByText('Password Changed successfully.').waitFor();
    await screenshot(page, 'accounts-password-changed');
    // A reconnect may wait out its back-off (at most 8 s) on a loaded machine.
    await expect
      .poll(() => tokenAnswers.slice(refusedAt), { timeout: 20_000 })
      .toContain(200)
      .catch((error: unknown) => {
        throw new Error(
          `the channel did not reconnect with the new session: ${sessionCalls.join(', ')} (at ${page.url()})`,
          { cause: error },
        );
      });
    expect(new URL(page.url()).pathname).toBe('/home');
    await page.unroute('**/api/changepassword');
    await held.dispose();
    // The modal closes 1.5 s after the success.
    await passwordDialog.waitFor({ state: 'hidden', timeout: 5_000 });

    await openAccountMenuItem(page, 'Log out');
    await page.waitForURL(/\/login/);
    await signIn(page, stack.url, user.email, 'Menu-Passw0rd!');
    await page.getByRole('button', { name: 'Account menu for Maxine Renamed' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('refreshes an expired access token and retries; a revoked session ends in the page, by itself or at the next call', async () => {
    const user = await createUser(0, ['org-demo'], 'Session Sam');
    const { context, page, errors } = await newPage();
    const refreshes: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/api/refreshToken')) refreshes.push(response.status());
    });

    // The tree's first call after sign-in carries an expired token: 401 (expired), refresh, retry.
    await swapTokenOnce(
      page,
      '/api/dashboard/getUsersOrganisations',
      await expiredAccessTokenOf(user.email, user.password),
    );
    // A browser without a session (no session hint) asks for no refresh at load.
    const refreshAsks: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/refreshToken')) refreshAsks.push(page.url());
    });
    await open(page, `${stack.url}/login`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(refreshAsks).toEqual([]);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Demo Org' }).waitFor();
    expect(refreshes).toEqual([200]);
    expect(await sessionHint(context)).toMatchObject({ value: '1', httpOnly: false, path: '/' });

    // Revoke the browser's refresh token (as a sign-out elsewhere does). Signing out closes the page's
    // real-time connection; its reconnect asks for a fresh connection token, refused, and so is the
    // refresh: with no renewal of its own under way, the page ends the session by itself, on the
    // sign-in page (a page left open must not go on showing values that stopped coming).
    const revokeBrowserSession = async () => {
      const cookies = (await context.cookies()).filter((c) => c.name === 'refreshToken');
      expect(cookies).toEqual([expect.objectContaining({ httpOnly: true, path: '/api' })]);
      const revoked = await call('/api/userLogout', {}, { cookie: `refreshToken=${cookies[0]?.value}` });
      expect(revoked).toMatchObject({ status: 200, body: { message: 'Signed out.' } });
    };
    const asksBefore = refreshAsks.length;
    await revokeBrowserSession();
    await page.waitForURL(/\/login$/, { timeout: 15_000 });
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    // The channel's refused refresh (a call of the page still in flight may meet the revoked token
    // too, and be refused alike); the page knows the session is over, and its reload on /login tries
    // none.
    await expect.poll(() => refreshes.slice(1)).toContain(401);
    expect(new Set(refreshes.slice(1))).toEqual(new Set([401]));
    expect(refreshAsks.slice(asksBefore).filter((at) => new URL(at).pathname === '/login')).toEqual([]);
    expect(await sessionHint(context)).toBeUndefined();
    // The sign-in page says why it is shown.
    await page.getByRole('status').filter({ hasText: SESSION_EXPIRED_TEXT }).waitFor();

    // With the channel unable to reach the API (its token calls fail), it is the user's next call that
    // finds the session over.
    await page.route('**/api/realtimeToken', (route) => route.abort());
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Demo Org' }).waitFor();
    refreshes.length = 0;
    await revokeBrowserSession();
    await swapTokenOnce(page, '/api/changeUsername', await expiredAccessTokenOf(user.email, user.password));
    await openAccountMenuItem(page, 'Change Username');
    await page.getByRole('dialog', { name: 'Change Username' }).getByLabel('User name').fill('Never Saved');
    await page.getByRole('button', { name: 'Update' }).click();
    await page.waitForURL(/\/login$/);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    // The call's refused refresh, and none at the reload on /login.
    await expect.poll(() => refreshes).toEqual([401]);
    expect(await sessionHint(context)).toBeUndefined();
    await page.getByRole('status').filter({ hasText: SESSION_EXPIRED_TEXT }).waitFor();
    await screenshot(page, 'accounts-session-expired');
    expect(errors).toEqual([]);
    await context.close();
  });
});

import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUser, stack } from '../../functions/test/support/api';
import { launchBrowser, newTestPage, open, screenshot } from './browser';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

// The test run locks for seconds only; a burst of concurrent attempts brings the lock to its
// ceiling (4 s), so the browser step sees it.
const burst = (n: number, request: () => Promise<unknown>) => Promise.all(Array.from({ length: n }, request));

const tooMany = /^Too many attempts\. Please try again in \d+ seconds?\.$/;

describe('too many attempts, in the browser', () => {
  it('shows the wait instead of "wrong password" when sign-in is locked, and on the forgot-password panel', async () => {
    const user = await createUser(0, ['org-demo']);
    const { context, page, errors } = await newTestPage(browser, { viewport: { width: 1280, height: 800 } });
    await open(page, `${stack.url}/login`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);

    await burst(20, () => call('/api/login', { user: { email: user.email, password: 'Wrong-Passw0rd!' } }));
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Too many attempts' });
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(tooMany);
    await screenshot(page, 'login-too-many-attempts');

    const email = `often-${randomUUID().slice(0, 8)}@example.com`;
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByLabel('Email').fill(email);
    await burst(12, () => call('/api/dashboard/forgetPasswordEmail', { user: { email } }));
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const forgotAlert = page.getByRole('alert').filter({ hasText: 'Too many attempts' });
    await forgotAlert.waitFor();
    expect(await forgotAlert.innerText()).toMatch(tooMany);
    await screenshot(page, 'forgot-too-many-attempts');
    expect(errors).toEqual([]);
    await context.close();
  });
});

import { randomUUID } from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import '../../functions/test/support/provided';
import { call, createUser, signIn as apiSignIn, users } from '../../functions/test/support/api';
import { png } from '../../functions/test/support/png';
import { launchBrowser, newTestPage, reload, screenshot, signIn } from './browser';

const stack = inject('stack');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/**
 * A 48x48 PNG: a dark blue square with a light stripe, enough to see in the top bar. `commentBytes`
 * makes the file that much larger with a text chunk (the picture stays the same).
 */
const pngLogo = (commentBytes = 0) =>
  png((_x, y) => (y > 18 && y < 30 ? [240, 190, 40] : [30, 80, 160]), 48, commentBytes);

/** Pages through the users grid until the row of this e-mail shows. */
async function findUserRow(dialog: Locator, email: string): Promise<Locator> {
  const row = dialog.getByRole('row').filter({ hasText: email });
  const next = dialog.getByRole('button', { name: /next page/i });
  // The header row, then at least one user: the list has loaded.
  await dialog.getByRole('row').nth(1).waitFor();
  for (let page = 0; page < 50; page++) {
    if ((await row.count()) > 0) return row;
    if ((await next.count()) === 0 || (await next.isDisabled())) break;
    await next.click();
  }
  throw new Error(`${email} is not in the users grid`);
}

const toast = (page: Page, text: string) => page.getByRole('status').getByText(text, { exact: true });

describe('Platform Settings in the browser', () => {
  it('lets the admin invite, manage and delete users and upload a logo that shows in the top bar', async () => {
    const name = `Pat ${randomUUID().slice(0, 6)}`;
    const target = await createUser(1, ['org-demo'], name);
    const targetSession = await apiSignIn(target.email, target.password);
    const admin = await createUser(2, ['org-demo'], 'Ada Admin');

    const { context, page, errors } = await newTestPage(browser, { viewport: { width: 1366, height: 860 } });
    await signIn(page, stack.url, admin.email, admin.password);

    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Platform Settings' });
    await settings.waitFor();
    expect(await settings.getByRole('tab', { name: 'Invite Users' }).getAttribute('aria-selected')).toBe(
      'true',
    );

    // Invite Users: Send waits for an organization; the e-mail's validation texts show on Send.
    const email = settings.getByLabel('Email');
    const send = settings.getByRole('button', { name: 'Send' });
    expect(await email.getAttribute('placeholder')).toMatch(/@example\.com$/);
    expect(await send.isDisabled()).toBe(true);
    await email.fill('someone@example.com');
    expect(await send.isDisabled()).toBe(true);
    await settings.locator('label').filter({ hasText: 'Demo Org' }).click();
    expect(await settings.getByRole('checkbox', { name: 'Demo Org' }).isChecked()).toBe(true);
    await email.fill('');
    await send.click();
    await settings.getByText('Please enter an email address').waitFor();
    await email.fill('not-an-email');
    expect(await settings.getByText('Please enter an email address').count()).toBe(0);
    await send.click();
    await settings.getByText('Please Enter valid email.').waitFor();
    await email.fill(target.email.toUpperCase());
    await send.click();
    await settings.getByText('User already exist in the organization.').waitFor();
    await screenshot(page, 'settings-invite-validation');

    const invitee = `invitee-${randomUUID().slice(0, 8)}@example.com`;
    await email.fill(invitee.toUpperCase());
    await send.click();
    await settings.getByRole('status').getByText('Invitation sent').waitFor();
    await screenshot(page, 'settings-invite-sent');

    // Manage Users: the fresh user is listed; change their access.
    await settings.getByRole('tab', { name: 'Manage Users' }).click();
    for (const column of ['Name', 'Roles', 'Email', 'Organizations', 'Actions']) {
      await settings.getByRole('columnheader', { name: column }).waitFor();
    }
    expect(await settings.getByRole('table').getByRole('row').count()).toBeLessThanOrEqual(6);
    let row = await findUserRow(settings, target.email);
    expect(await row.textContent()).toContain('Read/Write');
    expect(await row.textContent()).toContain('Demo Org');
    await screenshot(page, 'settings-manage-users');

    await row.getByRole('button', { name: `Edit access of ${name}` }).click();
    const access = page.getByRole('dialog', { name: 'Change User Access' });
    await access.waitFor();
    const roleOptions = await access.getByLabel('Access Role').locator('option').allTextContents();
    expect(roleOptions).toEqual(['Read-only', 'Read/Write', 'Admin']);
    await access.getByLabel('Access Role').selectOption({ label: 'Admin' });
    expect(await access.getByRole('checkbox', { name: 'Demo Org' }).isChecked()).toBe(true);
    await screenshot(page, 'settings-change-access');
    await access.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'User role updated.').waitFor();
    await access.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await users.get(target.userId))?.orgRoles['org-demo']).toBe(2);
    row = await findUserRow(settings, target.email);
    await expect.poll(() => row.textContent()).toContain('Admin');

    // Delete them: the dialog asks, Yes deletes, and their next request is refused.
    await row.getByRole('button', { name: `Delete ${name}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete User' });
    await confirm.getByText(`Are you sure you want to delete (${name})?`).waitFor();
    await screenshot(page, 'settings-delete-user');
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await toast(page, 'User deleted successfully.').waitFor();
    await expect.poll(() => settings.getByRole('row').filter({ hasText: target.email }).count()).toBe(0);
    expect(await users.get(target.userId)).toBeUndefined();
    const refused = await call(
      '/api/dashboard/getUsersOrganisations',
      {},
      { token: targetSession.accessToken },
    );
    expect(refused).toMatchObject({ status: 401, body: { message: 'User is unAuthorized' } });

    // Upload Logo: organization first, then a dropped image.
    await settings.getByRole('tab', { name: 'Upload Logo' }).click();
    const orgSelect = settings.getByLabel('Please select organization');
    await orgSelect.waitFor();
    const dropZone = settings.getByTestId('logo-drop-zone');
    await settings
      .getByText("Drag 'n' drop organization Logo here, or click to select organization Logo")
      .waitFor();
    await settings.getByTestId('logo-file-input').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: pngLogo(),
    });
    await settings.getByText('Please try again by selecting organization').waitFor();
    await orgSelect.selectOption({ label: 'Demo Org' });
    await settings.getByLabel('Organization', { exact: true }).waitFor();

    // An SVG is an image, but not one a logo may be (it can carry script): refused before any upload.
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('createOrgLogoUpload')) uploads.push(request.url());
    });
    await settings.getByTestId('logo-file-input').setInputFiles({
      name: 'logo.svg',
      mimeType: 'image/svg+xml',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'),
    });
    await settings.getByText('Invalid file type').waitFor();
    expect(uploads).toEqual([]);

    // A logo of 2 MB, sent at 512 kB/s, so the upload's progress shows.
    const logoFile = pngLogo(2_000_000);
    const dataTransfer = await page.evaluateHandle((base64) => {
      const transfer = new DataTransfer();
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      transfer.items.add(new File([bytes], 'logo.png', { type: 'image/png' }));
      return transfer;
    }, logoFile.toString('base64'));
    await dropZone.dispatchEvent('dragenter', { dataTransfer });
    await settings.getByText('Release to drop the organization Logo here').waitFor();
    await screenshot(page, 'settings-logo-dragging');

    // The file goes straight to S3 with the presigned form; the API only presigns and commits.
    const s3Origin = stack.env.AWS_ENDPOINT_URL_S3 ?? '';
    const s3Posts: string[] = [];
    const apiBodies = new Map<string, string>();
    page.on('request', (request) => {
      if (request.method() !== 'POST') return;
      if (request.url().startsWith(s3Origin)) s3Posts.push(request.url());
      else apiBodies.set(new URL(request.url()).pathname, request.postData() ?? '');
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 512 * 1024,
    });
    await dropZone.dispatchEvent('drop', { dataTransfer });
    const progress = settings.getByTestId('logo-upload-progress');
    await expect
      .poll(async () => Number(await progress.getAttribute('aria-valuenow', { timeout: 10_000 })))
      .toBeGreaterThan(10);
    expect(Number(await progress.getAttribute('aria-valuenow'))).toBeLessThan(100);
    await screenshot(page, 'settings-logo-uploading');
    await toast(page, 'Organization Logo uploaded successfully.').waitFor();
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    expect(s3Posts).toEqual([`${s3Origin}/${stack.env.FILES_BUCKET}`]);
    expect(JSON.parse(apiBodies.get('/api/dashboard/createOrgLogoUpload') ?? '{}')).toEqual({
      org: 'org-demo',
      contentType: 'image/png',
      size: logoFile.length,
    });
    const committed = JSON.parse(apiBodies.get('/api/dashboard/setOrgLogo') ?? '{}') as { file?: string };
    expect(committed.file).toMatch(/^uploads\/logos\/org-demo\/[0-9a-f-]{36}$/);
    await settings
      .getByText("Drag 'n' drop organization Logo here, or click to select organization Logo")
      .waitFor();
    await screenshot(page, 'settings-logo-uploaded');

    await settings.getByRole('button', { name: 'Close' }).click();
    await settings.waitFor({ state: 'hidden' });
    const logo = page.getByRole('banner').getByRole('img', { name: 'Demo Org logo' });
    await logo.waitFor();
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(48);
    // Loaded from a presigned URL of the bucket, not through the API.
    expect(await logo.getAttribute('src')).toMatch(
      new RegExp(`^${s3Origin}/${stack.env.FILES_BUCKET}/logos/org-demo\\?.*X-Amz-Signature=`),
    );
    await screenshot(page, 'topbar-logo');

    // On the next page load, the logo's white frame is not seen until its image has loaded.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = false;
    await page.route(
      (url) => url.pathname === `/${stack.env.FILES_BUCKET}/logos/org-demo`,
      async (route) => {
        asked = true;
        await held;
        await route.continue();
      },
    );
    await reload(page);
    await expect.poll(() => asked).toBe(true);
    // Not in the accessibility tree while unseen: found by its element.
    const frame = page.getByRole('banner').locator('img[alt="Demo Org logo"]').locator('..');
    expect(await frame.count()).toBe(1);
    expect(await frame.isVisible()).toBe(false);
    release();
    await expect.poll(() => frame.isVisible()).toBe(true);
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(48);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows no Settings gear to a role-1 user', async () => {
    const editor = await createUser(1, ['org-demo']);
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, stack.url, editor.email, editor.password);
    await page.getByRole('button', { name: 'Demo Org' }).waitFor();
    expect(await page.getByRole('button', { name: 'Settings' }).count()).toBe(0);
    await screenshot(page, 'home-editor-no-settings');
    await context.close();
  });
});

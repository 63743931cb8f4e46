import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { iotNotificationPublisher } from '@argentum/functions/adapters/notification-publisher';
import { html } from '@argentum/functions/domain/notifications/notification-html';
import { raiseNotification } from '@argentum/functions/domain/notifications/notifications';
import { dynamoNotificationStore } from '@argentum/functions/stores/notifications';
import { dynamoUserStore } from '@argentum/functions/stores/users';
import { newDevices, type Place } from '../../functions/test/platform/devices-fixtures';
import { call, createUser, signInAs, type TestUser } from '../../functions/test/support/api';
import '../../functions/test/support/provided';
import { accessibilityFailures, launchBrowser, open, screenshot, signIn } from './browser';
import { newPlaceWithPlan } from './places';

/**
 * The screens people use every day pass WCAG 2.1 A and AA as axe-core checks them (names that match
 * what is shown, contrast, labels, roles), in the light and the dark theme: sign-in, the sidebar, the
 * floor view, device drawers with their controls, the sensor data page, the notifications, Platform
 * Settings and the menus.
 */

const stack = inject('stack');
let browser: Browser;
let place: Place;
/** One admin per theme, each a first visit (nothing read, nothing expanded). */
const admins: Record<'light' | 'dark', TestUser> = {} as Record<'light' | 'dark', TestUser>;
const ids: Record<string, string> = {};

/**
 * A menu (Amplify UI's, on Radix) is modal while open: it hides the rest of the page from assistive
 * technology (aria-hidden) and keeps keyboard focus inside itself until it closes, so the controls
 * behind it cannot be reached. axe-core still counts them as focusable inside aria-hidden content.
 */
const OPEN_MENU_ALLOWS = ['aria-hidden-focus'];

beforeAll(async () => {
  browser = await launchBrowser();
  place = await newPlaceWithPlan('Access Org');
  const dp = (name: string, dn: string, readonly = false) => ({ dp: name, dn, readonly });
  const now = Date.now();
  const devices = await newDevices(
    place,
    [
      {
        devName: 'IEQMeeting',
        devType: 5,
        dataPoints: [dp('temp', 'Temperature', true), dp('hum', 'Humidity', true)],
        lastSeen: now,
        latest: { temp: 21.5, hum: 44 },
        floorOrigin: { x: 0.2, y: 0.3 },
      },
      {
        devName: 'LightsDesk',
        devType: 1,
        connDev: 'light',
        port: 2,
        dataPoints: [dp('bri', 'Brightness')],
        lastSeen: now,
        floorOrigin: { x: 0.4, y: 0.3 },
      },
      {
        devName: 'LockDoor',
        devType: 3,
        connDev: 'lock',
        port: 0,
        dataPoints: [dp('lock', 'Lock')],
        floorOrigin: { x: 0.6, y: 0.3 },
      },
      { devName: 'MotionHall', devType: 4, dataPoints: [dp('mState', 'Occupancy', true)] },
    ],
    place.floorId,
  );
  for (const device of devices) ids[device.devName] = device.devID;
  for (const theme of ['light', 'dark'] as const)
    admins[theme] = await createUser(2, [place.orgId], 'Ada Admin');
  const ports = {
    notifications: dynamoNotificationStore,
    publisher: iotNotificationPublisher,
    users: dynamoUserStore,
  };
  let time = now - 60 * 60_000;
  for (const [type, room] of [
    [1, 'Meeting'],
    [2, 'Lobby'],
  ] as const)
    await raiseNotification(ports, {
      orgId: place.orgId,
      type,
      message: html`Room <b>${room}</b> temperature out of comfort zone`,
      properties: { floorID: place.floorId, devID: ids.IEQMeeting },
      time: (time += 60_000),
    });
});

afterAll(async () => {
  await browser?.close();
});

const drawer = (page: Page) => page.getByRole('region', { name: /Device configuration/ });

async function openDevice(page: Page, name: string) {
  await page.locator(`[data-testid="floor-plan-stage"] [data-devid="${ids[name]}"]`).click();
  await drawer(page)
    .getByRole('heading', { name: new RegExp(`Device configuration: .*${name}`) })
    .waitFor();
}

describe('accessibility (WCAG 2.1 A and AA, axe-core)', () => {
  // One test a theme: each a run of its own through every screen, well inside a test's time.
  it.each(['light', 'dark'] as const)(
    'finds nothing to fix on the everyday screens, in %s',
    async (colorScheme) => {
      const failures: Record<string, string[]> = {};
      // The theme the user chose (the account menu's panel), and the system's to match.
      const admin = admins[colorScheme];
      const { accessToken: token } = await signInAs(admin);
      expect((await call('/api/setTheme', { theme: colorScheme }, { token })).status).toBe(200);
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme });
      const page = await context.newPage();
      const audit = async (screen: string, allowed: readonly string[] = []) => {
        const found = await accessibilityFailures(page, allowed);
        if (found.length > 0) failures[`${screen} (${colorScheme})`] = found;
      };

      await open(page, `${stack.url}/login`);
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await audit('sign-in');
      await page.getByRole('button', { name: 'Forgot password?' }).click();
      await page.getByRole('button', { name: 'Send reset link' }).waitFor();
      await audit('forgot password');
      await signIn(page, stack.url, admin.email, admin.password);
      expect(await page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe(
        colorScheme,
      );
      await page.getByRole('button', { name: /Tower/ }).click();
      await page.getByRole('link', { name: 'Level 1' }).waitFor();
      await audit('home with the sidebar');
      await page.getByRole('button', { name: 'Organization tree options' }).click();
      await page.getByRole('menuitem', { name: 'Edit Organization' }).click();
      await page.getByRole('button', { name: 'Done' }).waitFor();
      await audit('sidebar in edit mode');
      await page.getByRole('button', { name: 'Done' }).click();

      await open(page, `${stack.url}/home?floor=${place.floorId}`);
      await page.getByTestId('floor-plan-stage').locator('img').waitFor();
      await page.getByText('Devices (4)').waitFor();
      await audit('floor view');

      for (const name of ['IEQMeeting', 'LightsDesk', 'LockDoor']) {
        await openDevice(page, name);
        await audit(`device drawer of ${name}`);
      }
      await screenshot(page, `a11y-floor-${colorScheme}`);

      await page.getByRole('button', { name: 'OPTIONS', exact: true }).click();
      await page.getByRole('menu').waitFor();
      await audit('floor options menu', OPEN_MENU_ALLOWS);
      await page.getByRole('menuitem', { name: 'Filters' }).click();
      await page.getByRole('dialog', { name: 'Filters' }).waitFor();
      await audit('filters');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Floor details' }).click();
      await page.getByRole('region', { name: 'Floor details' }).waitFor();
      await audit('floor details');
      await page.getByRole('button', { name: 'OPTIONS', exact: true }).click();
      await page.getByRole('menuitem', { name: 'Edit Floor Plan', exact: true }).click();
      await page.getByRole('complementary', { name: 'Edit floor plan' }).waitFor();
      await audit('floor plan in edit mode');
      await screenshot(page, `a11y-floor-edit-${colorScheme}`);
      await page.getByRole('button', { name: 'Cancel' }).click();

      await openDevice(page, 'IEQMeeting');
      await drawer(page).getByRole('link', { name: 'Sensor data' }).click();
      await page.waitForURL(/sensor/i);
      await page.getByText(/Latest: 21.5/).waitFor();
      await audit('sensor data');
      await screenshot(page, `a11y-sensor-${colorScheme}`);

      await open(page, `${stack.url}/home`);
      await page.getByRole('button', { name: /^Notifications, 2 unread/ }).click();
      await page.getByRole('dialog', { name: 'Notifications' }).getByRole('listitem').first().waitFor();
      await audit('notifications');
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: 'Settings' }).click();
      const settings = page.getByRole('dialog');
      // Each tab once what it shows has come: the e-mail field, the users' grid, the logo's drop zone.
      const shown = {
        'Invite Users': settings.getByRole('textbox').first(),
        'Manage Users': settings.getByRole('cell', { name: admin.email }),
        'Upload Logo': settings.getByTestId('logo-drop-zone'),
      };
      for (const [tab, content] of Object.entries(shown)) {
        await settings.getByRole('tab', { name: tab }).click();
        await content.waitFor();
        await audit(`Platform Settings: ${tab}`);
      }
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: /Account menu/ }).click();
      await page.getByRole('menu').waitFor();
      await audit('account menu', OPEN_MENU_ALLOWS);
      await page.keyboard.press('Escape');
      for (const item of ['Change Username', 'Change Password', 'Dark Mode']) {
        await page.getByRole('button', { name: /Account menu/ }).click();
        await page.getByRole('menuitem', { name: item }).click();
        await page.getByRole('dialog', { name: item }).waitFor();
        await audit(item);
        await page.keyboard.press('Escape');
        await page.getByRole('dialog', { name: item }).waitFor({ state: 'detached' });
      }

      await open(page, `${stack.url}/api-docs`);
      await page.getByRole('heading').first().waitFor();
      await audit('API documentation');
      await context.close();
      expect(failures).toEqual({});
    },
  );
});

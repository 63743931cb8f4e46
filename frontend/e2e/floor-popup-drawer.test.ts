import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEVICE_NAME_UPDATED_TEXT } from '@argentum/contracts';
import { newDevices } from '../../functions/test/platform/devices-fixtures';
import { call, createUser, signIn as apiSignIn } from '../../functions/test/support/api';
import '../../functions/test/support/provided';
import { launchBrowser, newTestPage, open, screenshot, signIn } from './browser';
import { newPlaceWithPlan } from './places';

/**
 * The device popup and the toasts never sit under the device configuration drawer (issue 21 item
 * 10): a device just above the drawer's edge gets its popup above it, inside what is visible of the
 * plan; a toast raised from the drawer does not cover it. At the three screen sizes, light and dark.
 */

const stack = inject('stack');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const ieqPoints = [
  { dp: 'temp', dn: 'Temperature', readonly: true },
  { dp: 'hum', dn: 'Humidity', readonly: true },
];

const marker = (page: Page, devID: string) =>
  page.getByTestId('floor-plan-stage').locator(`[data-devid="${devID}"]`);

async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error('Not laid out');
  return box;
}

const overlap = (a: { y: number; height: number }, b: { y: number; height: number }) =>
  Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));

describe('popups and toasts beside the device configuration drawer', () => {
  it('keeps the popup of a device near the drawer above it, and toasts off it, at every size in light and dark', async () => {
    const place = await newPlaceWithPlan('Popup Org');
    const now = Date.now();
    const [top, low] = await newDevices(
      place,
      [
        { devType: 4, devName: 'MotionTop', dataPoints: [{ dp: 'mState' }], floorOrigin: { x: 0.5, y: 0.1 } },
        {
          devType: 5,
          devName: 'IEQLow',
          dataPoints: ieqPoints,
          floorOrigin: { x: 0.3, y: 0.55 },
          lastSeen: now,
          latest: { temp: 21.5, hum: 40 },
        },
      ],
      place.floorId,
    );
    if (!top || !low) throw new Error('Devices not seeded');
    const admin = await createUser({ [place.orgId]: 2 });

    for (const colorScheme of ['light', 'dark'] as const) {
      const { context, page, errors } = await newTestPage(browser, {
        viewport: { width: 1440, height: 900 },
        colorScheme,
      });
      // The theme is the user's choice (light until chosen), not the system's.
      const { accessToken } = await apiSignIn(admin.email, admin.password);
      await call('/api/setTheme', { theme: colorScheme }, { token: accessToken });
      await signIn(page, stack.url, admin.email, admin.password);
      for (const size of [
        { width: 1440, height: 900 },
        { width: 1280, height: 720 },
        { width: 1024, height: 768 },
      ]) {
        const name = `floor-popup-drawer-${size.width}x${size.height}-${colorScheme}`;
        await page.setViewportSize(size);
        // Each size starts from the plan's default view (the pan below is remembered per floor).
        await page.evaluate((key) => localStorage.removeItem(key), `argentum.floorView.${place.floorId}`);
        await open(page, `${stack.url}/home?floor=${place.floorId}`);
        await page.getByTestId('floor-plan-stage').locator('img').waitFor();
        // The drawer of the device near the top: it covers the plan's lower part.
        await marker(page, top.devID).click();
        const drawer = page.getByRole('region', { name: /Device configuration: MotionTop/ });
        await drawer.waitFor();
        const drawerBox = await boxOf(drawer);

        // Pan the plan (a drag on an empty part of it) so the low device sits just above the drawer.
        const plan = await boxOf(page.getByTestId('floor-plan-viewport'));
        const lowAt = await boxOf(marker(page, low.devID));
        const shift = drawerBox.y - 24 - (lowAt.y + lowAt.height / 2);
        // From just above the drawer (below it, the press would land on the drawer).
        const start = { x: plan.x + 12, y: Math.min(drawerBox.y, plan.y + plan.height) - 12 };
        await page.mouse.move(start.x, start.y);
        await page.mouse.down();
        await page.mouse.move(start.x, start.y + shift, { steps: 8 });
        await page.mouse.up();
        const moved = await boxOf(marker(page, low.devID));
        expect(Math.abs(moved.y + moved.height / 2 - (drawerBox.y - 24))).toBeLessThan(4);

        // Its popup: on screen, inside the plan, clear of the drawer.
        await page.mouse.move(moved.x + moved.width / 2, moved.y + moved.height / 2);
        const popup = page.getByTestId('device-popup');
        await popup.getByText('IEQLow').waitFor();
        await expect.poll(() => popup.evaluate((el) => getComputedStyle(el).visibility)).toBe('visible');
        const popupBox = await boxOf(popup);
        expect({ name, underDrawer: overlap(popupBox, drawerBox) }).toEqual({ name, underDrawer: 0 });
        // Under the top bar: inside the page's scrolling area.
        expect(popupBox.y).toBeGreaterThanOrEqual((await boxOf(page.locator('main'))).y);
        await screenshot(page, name);

        // A toast raised in the drawer stays off it.
        await drawer.getByRole('button', { name: 'Edit device name' }).click();
        await drawer.getByRole('textbox', { name: 'Device name' }).fill(`MotionTop${size.width}`);
        await drawer.getByRole('button', { name: 'Save device name' }).click();
        const toast = page.getByRole('status').getByText(DEVICE_NAME_UPDATED_TEXT, { exact: true });
        await toast.waitFor();
        expect(overlap(await boxOf(toast), await boxOf(drawer))).toBe(0);
        await page.getByRole('button', { name: 'Dismiss notification' }).first().click();
        await page.getByRole('button', { name: 'Close device configuration' }).click();
      }
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 180_000);
});

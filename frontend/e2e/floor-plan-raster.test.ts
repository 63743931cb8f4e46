import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FloorPlanAnswer } from '@argentum/contracts';
import { call, createUser, signIn as apiSignIn } from '../../functions/test/support/api';
import {
  newDevices,
  newPlace,
  type Place,
  uploadFloorPlan,
} from '../../functions/test/platform/devices-fixtures';
import '../../functions/test/support/provided';
import { largeFloorPlan } from '../../functions/test/support/svg-plan';
import { launchBrowser, newTestPage, screenshot, signIn } from './browser';

/**
 * Issue 23 item 2: a big plan is shown as its raster rendition first (a WebP at the width the screen
 * needs), and its SVG is drawn only once zoom needs more pixels than the widest rendition has.
 */
const stack = inject('stack');
let browser: Browser;
let place: Place;
let user: { email: string; password: string };
let token: string;

beforeAll(async () => {
  browser = await launchBrowser();
  place = await newPlace('Raster Plan Org');
  await newDevices(
    place,
    [
      { devType: 5, devName: 'IEQNorth', floorOrigin: { x: 0.3, y: 0.3 }, lastSeen: Date.now() },
      { devType: 4, devName: 'MotionSouth', floorOrigin: { x: 0.6, y: 0.7 }, lastSeen: Date.now() },
    ],
    place.floorId,
  );
  user = await createUser({ [place.orgId]: 2 });
  token = (await apiSignIn(user.email, user.password)).accessToken;
  // A CAD-like plan of 1.5 MB, 8,000 elements (the bench shows the 10 MB one).
  await uploadFloorPlan(token, place, largeFloorPlan({ elements: 8_000, bytes: 1.5 * 1024 * 1024 }));
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

const image = (page: Page, source: 'raster' | 'vector') =>
  page.locator(`[data-testid="floor-plan-stage"] img[data-plan-source="${source}"]`);
const loaded = (page: Page, source: 'raster' | 'vector') =>
  page.waitForFunction(
    (selector) => {
      const element = document.querySelector<HTMLImageElement>(selector);
      return element !== null && element.complete && element.naturalWidth > 0;
    },
    `[data-testid="floor-plan-stage"] img[data-plan-source="${source}"]`,
    { timeout: 60_000 },
  );

describe('a big plan in the floor view', () => {
  it(
    'shows the raster rendition first and draws the SVG only when zoomed in past it',
    { timeout: 300_000 },
    async () => {
      // Its renditions are drawn after the upload.
      await expect
        .poll(
          async () =>
            (
              await call<FloorPlanAnswer>(
                '/api/dashboard/floorPlanFromS3',
                { orgID: place.orgId, floorID: place.floorId },
                { token },
              )
            ).body.renditions?.length,
          { timeout: 150_000, interval: 500 },
        )
        .toBe(3);
      for (const theme of ['light', 'dark'] as const) {
        expect((await call('/api/setTheme', { theme }, { token })).status).toBe(200);
        const { context, page, errors } = await newTestPage(browser, {
          viewport: { width: 1280, height: 900 },
        });
        await signIn(page, stack.url, user.email, user.password);
        await page.goto(`${stack.url}/home?floor=${place.floorId}`, { waitUntil: 'commit' });
        await loaded(page, 'raster');
        // The rendition covers the plan's width on screen, and the SVG is not requested.
        const shown = (await page.getByTestId('floor-plan-stage').boundingBox())?.width ?? 0;
        expect(Number(await image(page, 'raster').getAttribute('data-width'))).toBeGreaterThanOrEqual(shown);
        expect(await image(page, 'vector').count()).toBe(0);
        await page.locator('[data-testid="floor-plan-stage"] [data-devid]').first().waitFor();
        await screenshot(page, `floor-view-large-plan-${theme}`);

        // Zoomed in until the widest rendition (3200 px) is too narrow: the SVG is drawn over it.
        const viewport = page.getByTestId('floor-plan-viewport');
        await viewport.focus();
        while (shown * Number(await viewport.getAttribute('data-zoom')) <= 3200)
          await page.keyboard.press('+');
        await loaded(page, 'vector');
        expect(await image(page, 'raster').getAttribute('data-width')).toBe('3200');
        await screenshot(page, `floor-view-large-plan-zoomed-${theme}`);
        expect(errors).toEqual([]);
        await context.close();
      }
    },
  );
});

import type { Browser, BrowserContext, CDPSession, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FLOOR_PLAN_UPDATED_TEXT } from '@argentum/contracts';
import { newDevices, stored, type Place } from '../../functions/test/platform/devices-fixtures';
import { call, createUser, signIn as apiSignIn } from '../../functions/test/support/api';
import '../../functions/test/support/provided';
import { launchBrowser, newTestPage, open, screenshot, signIn } from './browser';
import { newPlaceWithPlan } from './places';

/**
 * Edit mode on a tablet and a small laptop (issue 21 item 7), and on a desktop: Save, Cancel and the device tiles are
 * on screen beside the plan, and placing, moving and saving work by touch and by mouse. A tile
 * dragged to the edge of the scrolled page scrolls it, so a plan scrolled out of view is reachable.
 */

const stack = inject('stack');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PLAN_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 900 600" width="900" height="600">' +
  '<rect width="900" height="600" fill="#ffffff"/>' +
  '<rect x="20" y="20" width="860" height="560" fill="#f7f8fa" stroke="#5f6b7a" stroke-width="3"/>' +
  '<line x1="450" y1="20" x2="450" y2="580" stroke="#5f6b7a" stroke-width="3"/>' +
  '</svg>';

type Point = { x: number; y: number };
type Input = 'touch' | 'mouse';

const stageOf = (page: Page) => page.getByTestId('floor-plan-stage');
const marker = (page: Page, devID: string) => stageOf(page).locator(`[data-devid="${devID}"]`);
const editDrawer = (page: Page) => page.getByRole('complementary', { name: 'Edit floor plan' });
const tile = (page: Page, devID: string) => editDrawer(page).locator(`button[data-devid="${devID}"]`);
const toast = (page: Page, text: string) => page.getByRole('status').getByText(text, { exact: true });

async function centreOf(locator: Locator): Promise<Point> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('Not on screen');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** A point of the plan (0-1) on the page, where the plan is now. */
async function onPlan(page: Page, at: Point): Promise<Point> {
  const stage = await stageOf(page).boundingBox();
  if (!stage) throw new Error('No plan');
  return { x: stage.x + stage.width * at.x, y: stage.y + stage.height * at.y };
}

/** Where a marker is on the plan (0-1), from its style. */
async function positionOf(page: Page, devID: string): Promise<Point> {
  const style = await marker(page, devID).evaluate((el) => ({
    left: (el as HTMLElement).style.left,
    top: (el as HTMLElement).style.top,
  }));
  return { x: parseFloat(style.left) / 100, y: parseFloat(style.top) / 100 };
}

async function expectAt(page: Page, devID: string, expected: Point) {
  await expect
    .poll(async () => {
      const actual = await positionOf(page, devID);
      return Math.max(Math.abs(actual.x - expected.x), Math.abs(actual.y - expected.y));
    })
    .toBeLessThan(0.03);
}

/**
 * One finger or the mouse: press, move in small steps (first sideways, as a drag out of the list
 * starts), and release. `whileHeld` runs before the release, with the pointer where `to` says.
 */
class Pointer {
  private constructor(
    private readonly page: Page,
    private readonly input: Input,
    private readonly cdp: CDPSession | null,
    private at: Point = { x: 0, y: 0 },
  ) {}

  static async of(page: Page, context: BrowserContext, input: Input) {
    return new Pointer(page, input, input === 'touch' ? await context.newCDPSession(page) : null);
  }

  private async touch(type: 'touchStart' | 'touchMove' | 'touchEnd', point: Point) {
    await this.cdp?.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: type === 'touchEnd' ? [] : [{ x: point.x, y: point.y, id: 1 }],
    });
  }

  async down(point: Point) {
    this.at = point;
    if (this.input === 'touch') return this.touch('touchStart', point);
    await this.page.mouse.move(point.x, point.y);
    await this.page.mouse.down();
  }

  async move(to: Point, steps = 10) {
    const from = this.at;
    for (let i = 1; i <= steps; i++) {
      const point = { x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps };
      if (this.input === 'touch') await this.touch('touchMove', point);
      else await this.page.mouse.move(point.x, point.y);
    }
    this.at = to;
  }

  async tap(point: Point) {
    await this.down(point);
    await this.up();
  }

  async up() {
    if (this.input === 'touch') return this.touch('touchEnd', this.at);
    await this.page.mouse.up();
  }

  /** Drags from `from` to the plan point `to` (0-1 of the plan, read once the drag is under way). */
  async drag(from: Point, to: Point) {
    await this.down(from);
    await this.move({ x: from.x - 24, y: from.y }, 4);
    await this.move(await onPlan(this.page, to), 12);
    await this.up();
  }
}

const mainOf = (page: Page) => page.locator('main');
const scrollTop = (page: Page) => mainOf(page).evaluate((el) => el.scrollTop);

async function editedFloor(
  size: { width: number; height: number },
  input: Input,
  colorScheme: 'light' | 'dark' = 'light',
): Promise<{ page: Page; context: BrowserContext; place: Place; ids: string[]; errors: string[] }> {
  const place = await newPlaceWithPlan('Tablet Org', PLAN_SVG);
  const onFloor = await newDevices(
    place,
    [
      { devType: 4, devName: 'MotionHall', dataPoints: [{ dp: 'mState' }] },
      { devType: 4, devName: 'MotionDesk', dataPoints: [{ dp: 'mState' }] },
      { devType: 4, devName: 'MotionDoor', dataPoints: [{ dp: 'mState' }] },
      { devType: 4, devName: 'MotionStair', dataPoints: [{ dp: 'mState' }] },
    ],
    place.floorId,
  );
  const offFloor = await newDevices(place, [
    { devType: 1, devName: 'LightsDesk', port: 0, connDev: 'light' },
    { devType: 1, devName: 'LightsWall', port: 1, connDev: 'light' },
  ]);
  const admin = await createUser({ [place.orgId]: 2 });
  const { context, page, errors } = await newTestPage(browser, {
    viewport: size,
    hasTouch: input === 'touch',
    colorScheme,
  });
  // The theme is the user's choice (light until chosen), not the system's.
  const { accessToken } = await apiSignIn(admin.email, admin.password);
  await call('/api/setTheme', { theme: colorScheme }, { token: accessToken });
  await signIn(page, stack.url, admin.email, admin.password);
  await open(page, `${stack.url}/home?floor=${place.floorId}`);
  await stageOf(page).locator('img').waitFor();
  await page.getByRole('button', { name: 'OPTIONS', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Edit Floor Plan', exact: true }).click();
  const ids = [...onFloor, ...offFloor].map((device) => device.devID);
  await tile(page, offFloor[0]?.devID ?? '').waitFor();
  return { page, context, place, ids, errors };
}

/** The whole box is inside the window (nothing to scroll to reach it). */
async function expectOnScreen(page: Page, locator: Locator, what: string) {
  const box = await locator.boundingBox();
  const size = page.viewportSize();
  if (!box || !size) throw new Error(`${what}: not laid out`);
  expect({
    what,
    top: box.y >= 0,
    bottom: box.y + box.height <= size.height,
    right: box.x + box.width <= size.width,
  }).toEqual({
    what,
    top: true,
    bottom: true,
    right: true,
  });
}

describe('edit mode on a tablet and a small laptop', () => {
  for (const size of [
    { width: 1024, height: 768 },
    { width: 1280, height: 720 },
    { width: 1440, height: 900 },
  ]) {
    for (const input of ['touch', 'mouse'] as const) {
      it(`places, moves and saves by ${input} at ${size.width}x${size.height}`, async () => {
        // Both themes at every size, one per input.
        const scheme = (input === 'touch') === (size.width === 1024) ? 'dark' : 'light';
        const { page, context, ids, errors } = await editedFloor(size, input, scheme);
        const [moved, , , , placed] = ids as [string, string, string, string, string, string];
        const drawer = editDrawer(page);

        // Without scrolling: the plan, Save, Cancel and the first tiles are all on screen.
        expect(await scrollTop(page)).toBe(0);
        await expectOnScreen(page, drawer.getByRole('button', { name: 'Save' }), 'Save');
        await expectOnScreen(page, drawer.getByRole('button', { name: 'Cancel' }), 'Cancel');
        await expectOnScreen(page, tile(page, placed), 'the first tile');
        await expectOnScreen(page, page.getByTestId('floor-plan-viewport'), 'the plan');
        await screenshot(page, `floor-edit-tablet-${size.width}x${size.height}-${input}-${scheme}`);

        const pointer = await Pointer.of(page, context, input);
        // A tile dragged onto the plan is placed where it is dropped.
        await pointer.drag(await centreOf(tile(page, placed)), { x: 0.3, y: 0.4 });
        await marker(page, placed).waitFor();
        await expectAt(page, placed, { x: 0.3, y: 0.4 });
        // A device on the plan is moved by dragging it.
        await pointer.drag(await centreOf(marker(page, moved)), { x: 0.75, y: 0.7 });
        await expectAt(page, moved, { x: 0.75, y: 0.7 });
        await drawer.getByText('1 added, 1 moved').waitFor();
        await screenshot(page, `floor-edit-tablet-${size.width}x${size.height}-${input}-${scheme}-placed`);

        // Save, by the same input.
        if (input === 'touch') {
          // Chrome drops the tap that stops a fling, and a quick drag's lift may start one: a tap on
          // the drawer's title first (it does nothing else), as a finger that lifted fast does.
          await pointer.tap(await centreOf(drawer.getByRole('heading', { name: 'Edit Floor Plan' })));
        }
        await pointer.tap(await centreOf(drawer.getByRole('button', { name: 'Save' })));
        await toast(page, FLOOR_PLAN_UPDATED_TEXT).waitFor();
        await expect.poll(async () => (await stored(placed))?.onFloor).toBe(true);
        const origin = (await stored(placed))?.floorOrigin;
        expect(Math.abs((origin?.x ?? 0) - 0.3)).toBeLessThan(0.03);
        const movedOrigin = (await stored(moved))?.floorOrigin;
        expect(Math.abs((movedOrigin?.y ?? 0) - 0.7)).toBeLessThan(0.03);

        expect(errors).toEqual([]);
        await context.close();
      }, 120_000);
    }
  }

  for (const input of ['touch', 'mouse'] as const) {
    it(`scrolls the page while a tile is held at its edge, by ${input}, to reach a plan scrolled out of view`, async () => {
      const { page, context, ids, errors } = await editedFloor({ width: 1024, height: 768 }, input);
      const placed = ids[4] as string;
      // A tall plan, and the page scrolled down (to the device list): the top of the plan is out of view.
      await page.getByRole('separator', { name: 'Resize the floor plan' }).focus();
      await page.keyboard.press('End');
      // The page scrolled down (to the device list): the top of the plan is out of view.
      await mainOf(page).evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      await expect.poll(() => scrollTop(page)).toBeGreaterThan(100);
      const main = await mainOf(page).boundingBox();
      if (!main) throw new Error('No main');

      const pointer = await Pointer.of(page, context, input);
      const from = await centreOf(tile(page, placed));
      await pointer.down(from);
      await pointer.move({ x: from.x - 40, y: from.y }, 4);
      // Held at the top edge of the page's scrolling area: it scrolls up to the top.
      await pointer.move({ x: main.x + main.width / 3, y: main.y + 8 }, 10);
      await expect.poll(() => scrollTop(page)).toBe(0);
      await pointer.move(await onPlan(page, { x: 0.4, y: 0.1 }), 8);
      await pointer.up();
      await marker(page, placed).waitFor();
      await expectAt(page, placed, { x: 0.4, y: 0.1 });

      expect(errors).toEqual([]);
      await context.close();
    }, 120_000);
  }
});

import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  CANNOT_GROUP_TYPE_TEXT,
  DEVICE_NAME_AND_PORT_REQUIRED_TEXT,
  DEVICE_OFFLINE_TEXT,
  DEVICE_ONLINE_TEXT,
  DEVICE_NAME_EMPTY_TEXT,
  DEVICE_NAME_UPDATED_TEXT,
  FLOOR_PLAN_UPDATED_TEXT,
  GROUPED_TEXT,
  GROUPING_FAILED_TEXT,
  NO_DEVICE_FOUND_TEXT,
  SPECIAL_CHARACTERS_TEXT,
  UNGROUP_BEFORE_REMOVE_TEXT,
  UNGROUPED_TEXT,
  VALUE_UPDATED_TEXT,
} from '@argentum/contracts';
import { type CommandMessage, commandMessageSchema, topics } from '@argentum/contracts/messaging';
import { newDevices, stored, type Place } from '../../functions/test/platform/devices-fixtures';
import { createUser } from '../../functions/test/support/api';
import { deviceConnection } from '../../functions/test/support/control';
import '../../functions/test/support/provided';
import { GATEWAY_ROLE_TEXT } from '../src/features/floor-plan/components/edit/rules';
import { launchBrowser, newTestPage, open, reload, screenshot, signIn } from './browser';
import { newPlaceWithPlan } from './places';

const stack = inject('stack');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A plain plan of four rooms, 900 x 600 (stored as the sanitizer would store it). */
const PLAN_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 900 600" width="900" height="600">' +
  '<rect width="900" height="600" fill="#ffffff"/>' +
  [
    [20, 20, 420, 270, 'Open Office'],
    [460, 20, 420, 270, 'Meeting Room'],
    [20, 310, 420, 270, 'Kitchen'],
    [460, 310, 420, 270, 'Plant Room'],
  ]
    .map(
      ([x, y, w, h, name]) =>
        `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="#f7f8fa" stroke="#5f6b7a" stroke-width="3"/>` +
        `<text x="${Number(x) + 12}" y="${Number(y) + 26}" font-family="sans-serif" font-size="16" fill="#3d4753">${name}</text>`,
    )
    .join('') +
  '</svg>';

const placeWithPlan = (): Promise<Place> => newPlaceWithPlan('Edit Org', PLAN_SVG);

const ieqPoints = [
  { dp: 'temp', dn: 'Temperature', readonly: true },
  { dp: 'hum', dn: 'Humidity', readonly: true },
];

const toast = (page: Page, text: string) => page.getByRole('status').getByText(text, { exact: true });

async function openFloor(page: Page, place: Place) {
  await open(page, `${stack.url}/home?floor=${place.floorId}`);
  await page.getByTestId('floor-plan-stage').locator('img').waitFor();
}

async function chooseOption(page: Page, item: string) {
  await page.getByRole('button', { name: 'OPTIONS', exact: true }).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

const stageOf = (page: Page) => page.getByTestId('floor-plan-stage');
const marker = (page: Page, devID: string) => stageOf(page).locator(`[data-devid="${devID}"]`);
const editDrawer = (page: Page) => page.getByRole('complementary', { name: 'Edit floor plan' });
const tile = (page: Page, devID: string) => editDrawer(page).locator(`button[data-devid="${devID}"]`);

/** Drags with the mouse in small steps, as a person does (pointer events all the way). */
async function dragTo(page: Page, from: Locator, fx: number, fy: number) {
  const source = await from.boundingBox();
  const stage = await stageOf(page).boundingBox();
  if (!source || !stage) throw new Error('Nothing to drag, or no plan');
  await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
  await page.mouse.down();
  await page.mouse.move(source.x + source.width / 2 - 20, source.y + source.height / 2, { steps: 4 });
  await page.mouse.move(stage.x + stage.width * fx, stage.y + stage.height * fy, { steps: 12 });
  await page.mouse.up();
}

/** Where a marker is on the plan (0-1), from its style. */
async function positionOf(page: Page, devID: string) {
  const style = await marker(page, devID).evaluate((el) => ({
    left: (el as HTMLElement).style.left,
    top: (el as HTMLElement).style.top,
  }));
  return { x: parseFloat(style.left) / 100, y: parseFloat(style.top) / 100 };
}

/** The marker is (or comes, once the drop or key press has been drawn) within 3% of the plan of `expected`. */
async function expectAt(page: Page, devID: string, expected: { x: number; y: number }) {
  await expect
    .poll(async () => {
      const actual = await positionOf(page, devID);
      return Math.max(Math.abs(actual.x - expected.x), Math.abs(actual.y - expected.y));
    })
    .toBeLessThan(0.03);
}

describe('editing a floor plan in the browser', () => {
  it('places, moves and removes devices in edit mode, validates drops, saves all at once and cancels', async () => {
    const place = await placeWithPlan();
    const [onFloor] = await newDevices(
      place,
      [{ devType: 4, devName: 'MotionHall', dataPoints: [{ dp: 'mState' }] }],
      place.floorId,
    );
    const [light, unnamed, ieq, gateway] = await newDevices(place, [
      { devType: 1, devName: 'LightsDesk', port: 0, connDev: 'light' },
      { devType: 1, devName: '' },
      { devType: 5, devName: 'IEQCorner', dataPoints: ieqPoints },
      { devType: 0, devName: 'GatewayMain' },
    ]);
    if (!onFloor || !light || !unnamed || !ieq || !gateway) throw new Error('Devices not seeded');
    const admin = await createUser({ [place.orgId]: 2 });
    const { context, page, errors } = await newTestPage(browser, { viewport: { width: 1440, height: 900 } });
    await signIn(page, stack.url, admin.email, admin.password);
    await openFloor(page, place);

    await chooseOption(page, 'Edit Floor Plan');
    const drawer = editDrawer(page);
    await tile(page, light.devID).waitFor();
    expect(await drawer.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);

    // Search by name and by device id; nothing found says so.
    const search = drawer.getByPlaceholder('Search devices...');
    await search.fill('ieqcor');
    await tile(page, ieq.devID).waitFor();
    expect(await tile(page, light.devID).count()).toBe(0);
    await search.fill(gateway.devID.slice(0, 8));
    await tile(page, gateway.devID).waitFor();
    await search.fill('no-such-device');
    await drawer.getByText(NO_DEVICE_FOUND_TEXT, { exact: true }).waitFor();
    await screenshot(page, 'floor-edit-search-empty');
    await search.fill('');

    // Drag a complete device onto the plan: placed at once.
    await dragTo(page, tile(page, light.devID), 0.25, 0.3);
    await marker(page, light.devID).waitFor();
    await expectAt(page, light.devID, { x: 0.25, y: 0.3 });
    expect(await tile(page, light.devID).count()).toBe(0);

    // A device without name and port: the form, with the documented texts.
    await dragTo(page, tile(page, unnamed.devID), 0.6, 0.3);
    const form = page.getByRole('dialog', { name: `Place ${unnamed.devID}` });
    await form.waitFor();
    await form.getByRole('button', { name: 'Place device' }).click();
    await form.getByRole('alert').getByText(DEVICE_NAME_AND_PORT_REQUIRED_TEXT).waitFor();
    await form.getByLabel('Device name').fill('Lights Window');
    await form.getByLabel('Port').selectOption({ label: 'Both' });
    await form.getByRole('button', { name: 'Place device' }).click();
    await form.getByRole('alert').getByText(SPECIAL_CHARACTERS_TEXT).waitFor();
    await screenshot(page, 'floor-edit-drop-form');
    await form.getByLabel('Device name').fill('LightsWindow');
    await form.getByRole('button', { name: 'Place device' }).click();
    await form.waitFor({ state: 'hidden' });
    await marker(page, unnamed.devID).waitFor();

    // Gateways are for role 3 only.
    await dragTo(page, tile(page, gateway.devID), 0.5, 0.8);
    await toast(page, GATEWAY_ROLE_TEXT).waitFor();
    expect(await marker(page, gateway.devID).count()).toBe(0);

    // Keyboard: pick a tile, place it at the centre, move it with the arrow keys.
    await tile(page, ieq.devID).focus();
    await page.keyboard.press('Enter');
    await drawer.getByRole('button', { name: 'Place at center' }).click();
    await marker(page, ieq.devID).waitFor();
    const pad = drawer.getByRole('group', { name: /Position of IEQCorner/ });
    await expect.poll(() => pad.evaluate((el) => el === document.activeElement)).toBe(true);
    for (let i = 0; i < 2; i++) await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('ArrowDown');
    await expectAt(page, ieq.devID, { x: 0.6, y: 0.51 });
    await page.keyboard.press('Enter');

    // Move the device that was on the floor.
    const before = await positionOf(page, onFloor.devID);
    await dragTo(page, marker(page, onFloor.devID), 0.8, 0.75);
    await expectAt(page, onFloor.devID, { x: 0.8, y: 0.75 });
    await drawer.getByText('3 added, 1 moved').waitFor();
    await screenshot(page, 'floor-edit-placed');

    await drawer.getByRole('button', { name: 'Save' }).click();
    await toast(page, FLOOR_PLAN_UPDATED_TEXT).waitFor();
    await drawer.waitFor({ state: 'hidden' });
    expect((await stored(light.devID))?.onFloor).toBe(true);
    expect((await stored(unnamed.devID))?.devName).toBe('LightsWindow');
    expect((await stored(unnamed.devID))?.port).toBe(2);

    // Reload: the positions are kept.
    await reload(page);
    await stageOf(page).locator('img').waitFor();
    await marker(page, light.devID).waitFor();
    await expectAt(page, light.devID, { x: 0.25, y: 0.3 });
    await expectAt(page, onFloor.devID, { x: 0.8, y: 0.75 });
    await expectAt(page, ieq.devID, { x: 0.6, y: 0.51 });
    expect(before).not.toEqual(await positionOf(page, onFloor.devID));
    await screenshot(page, 'floor-edit-reloaded');

    // Cancel reverts a move and a removal.
    await chooseOption(page, 'Edit Floor Plan');
    await dragTo(page, marker(page, light.devID), 0.1, 0.9);
    await marker(page, ieq.devID).click();
    const popup = page.getByRole('dialog', { name: 'IEQCorner' });
    await popup.getByRole('button', { name: 'Remove' }).click();
    await popup.waitFor({ state: 'hidden' });
    expect(await marker(page, ieq.devID).count()).toBe(0);
    await tile(page, ieq.devID).waitFor();
    await drawer.getByRole('button', { name: 'Cancel' }).click();
    await drawer.waitFor({ state: 'hidden' });
    await expectAt(page, light.devID, { x: 0.25, y: 0.3 });
    await marker(page, ieq.devID).waitFor();

    // Test and Remove in the popup; Save takes the device off the floor.
    await chooseOption(page, 'Edit Floor Plan');
    await marker(page, light.devID).click();
    const lightPopup = page.getByRole('dialog', { name: 'LightsDesk' });
    // Test is tracked like the drawer's Test device: the device's reply says 'Device Online', and
    // no reply by the deadline says 'Device Offline'.
    const testStatus = lightPopup.getByRole('status', { name: 'Test status' });
    const firmware = await deviceConnection(place.orgId, light.devID);
    const commands: CommandMessage[] = [];
    firmware.on('message', (_topic, payload) => {
      const parsed = commandMessageSchema.safeParse(JSON.parse(payload.toString()));
      if (parsed.success) commands.push(parsed.data);
    });
    await firmware.subscribeAsync(topics.control(place.orgId, light.devID), { qos: 1 });
    await lightPopup.getByRole('button', { name: 'Test' }).click();
    await expect.poll(() => commands.length, { timeout: 15_000 }).toBe(1);
    const command = commands[0] as CommandMessage;
    await firmware.publishAsync(
      topics.controlSuccess(place.orgId),
      JSON.stringify({
        action: 'success',
        devID: command.devID,
        devType: command.devType,
        commandId: command.commandId,
        cmnd: command.cmnd,
      }),
      { qos: 1 },
    );
    await expect.poll(() => testStatus.textContent(), { timeout: 15_000 }).toBe(DEVICE_ONLINE_TEXT);
    await screenshot(page, 'floor-edit-unregister-popup-online');
    await firmware.endAsync();
    await lightPopup.getByRole('button', { name: 'Test' }).click();
    await expect.poll(() => testStatus.textContent(), { timeout: 20_000 }).toBe(DEVICE_OFFLINE_TEXT);
    await screenshot(page, 'floor-edit-unregister-popup');
    await lightPopup.getByRole('button', { name: 'Remove' }).click();
    await tile(page, light.devID).waitFor();
    await drawer.getByRole('button', { name: 'Save' }).click();
    await toast(page, FLOOR_PLAN_UPDATED_TEXT).waitFor();
    await expect.poll(async () => (await stored(light.devID))?.onFloor).toBe(false);
    expect(await marker(page, light.devID).count()).toBe(0);

    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it('groups two lights, refuses to remove a grouped one, ungroups them, and compares two IEQ sensors', async () => {
    const place = await placeWithPlan();
    const [lightA, lightB, ieqA, ieqB] = await newDevices(
      place,
      [
        {
          devType: 1,
          devName: 'LightsNorth',
          port: 0,
          connDev: 'light',
          dataPoints: [{ dp: 'bri', dn: 'Level' }],
        },
        { devType: 1, devName: 'LightsSouth', port: 1, connDev: 'light' },
        { devType: 5, devName: 'IEQNorth', dataPoints: ieqPoints },
        { devType: 5, devName: 'IEQSouth', dataPoints: ieqPoints },
      ],
      place.floorId,
    );
    if (!lightA || !lightB || !ieqA || !ieqB) throw new Error('Devices not seeded');
    const admin = await createUser({ [place.orgId]: 2 });
    const { context, page, errors } = await newTestPage(browser, { viewport: { width: 1440, height: 900 } });
    await page.addInitScript(() => {
      const pushed: string[] = [];
      Object.assign(window, { pushedUrls: pushed });
      const push = history.pushState.bind(history);
      history.pushState = (data: unknown, unused: string, url?: string | URL | null) => {
        pushed.push(String(url));
        push(data, unused, url);
      };
    });
    await signIn(page, stack.url, admin.email, admin.password);
    await openFloor(page, place);

    await chooseOption(page, 'Group Devices');
    const bar = page.getByRole('toolbar', { name: 'Group Devices' });
    await bar.waitFor();
    const save = bar.getByRole('button', { name: 'Save' });
    await marker(page, ieqA.devID).click();
    await page.getByRole('alert').getByText(CANNOT_GROUP_TYPE_TEXT).waitFor();
    await marker(page, lightA.devID).click();
    expect(await save.isDisabled()).toBe(true);
    await marker(page, lightB.devID).click();
    expect(await save.isDisabled()).toBe(false);
    await screenshot(page, 'floor-edit-grouping');
    await save.click();
    await toast(page, GROUPED_TEXT).waitFor();
    await expect.poll(async () => (await stored(lightA.devID))?.groupNumber).toBeGreaterThanOrEqual(1000);
    const groupNumber = (await stored(lightA.devID))?.groupNumber;
    await marker(page, lightA.devID).getByText(`G${groupNumber}`).waitFor();
    await marker(page, lightB.devID).getByText(`G${groupNumber}`).waitFor();
    // The marker carries the device's attributes as the specification names them.
    expect(
      await marker(page, lightA.devID).evaluate((element) =>
        ['devid', 'devtype', 'conndev', 'port', 'datapoints', 'group'].map((name) =>
          element.getAttribute(`data-${name}`),
        ),
      ),
    ).toEqual([lightA.devID, '1', 'light', '0', 'bri', String(groupNumber)]);
    await screenshot(page, 'floor-edit-grouped');

    // A light that then fails to join its group says so on its own (cmnd 62 on `fail`, no command
    // id): the page, which does not receive devices' words, is told on its floor's live topic.
    const firmware = await deviceConnection(place.orgId, lightB.devID);
    await firmware.publishAsync(
      topics.controlFail(place.orgId),
      JSON.stringify({ action: 'fail', devID: lightB.devID, cmnd: 62 }),
      { qos: 1 },
    );
    await toast(page, GROUPING_FAILED_TEXT).waitFor();
    await firmware.endAsync();

    // A grouped device is not removed.
    await chooseOption(page, 'Edit Floor Plan');
    await marker(page, lightA.devID).click();
    const popup = page.getByRole('dialog', { name: 'LightsNorth' });
    await popup.getByRole('button', { name: 'Remove' }).click();
    await popup.getByRole('alert').getByText(UNGROUP_BEFORE_REMOVE_TEXT).waitFor();
    await screenshot(page, 'floor-edit-grouped-remove');
    await popup.getByRole('button', { name: 'Close' }).click();
    await editDrawer(page).getByRole('button', { name: 'Cancel' }).click();

    await chooseOption(page, 'Ungroup Devices');
    const ungroupBar = page.getByRole('toolbar', { name: 'Ungroup Devices' });
    expect(await ungroupBar.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await marker(page, lightA.devID).click();
    await ungroupBar.getByRole('button', { name: 'Save' }).click();
    await toast(page, UNGROUPED_TEXT).waitFor();
    // One device would be left alone: the whole group is dissolved.
    await expect.poll(async () => (await stored(lightB.devID))?.groupNumber).toBeUndefined();
    await expect.poll(() => marker(page, lightA.devID).getAttribute('data-group')).toBeNull();
    expect(await marker(page, lightA.devID).getByText(`G${groupNumber}`).count()).toBe(0);

    // Compare IEQ: two sensors open the sensor page's comparison.
    await chooseOption(page, 'Compare IEQ Devices');
    await marker(page, ieqA.devID).click();
    await marker(page, ieqB.devID).click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { pushedUrls: string[] }).pushedUrls))
      .toContain(`/home/sensor/${encodeURIComponent(ieqA.devID)}?compare=${encodeURIComponent(ieqB.devID)}`);

    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('configures names in the device drawer, and shows a read-only user no edit controls', async () => {
    const place = await placeWithPlan();
    const [motion, light] = await newDevices(
      place,
      [
        { devType: 4, devName: 'MotionDesk', dataPoints: [{ dp: 'mState', dn: 'Occupancy' }] },
        // Near the top: the configuration drawer opens over the plan's lower part.
        { devType: 1, devName: 'LightsIcon', port: 0, connDev: 'light', floorOrigin: { x: 0.5, y: 0.15 } },
      ],
      place.floorId,
    );
    if (!motion || !light) throw new Error('Devices not seeded');
    const editor = await createUser({ [place.orgId]: 1 });
    const viewer = await createUser({ [place.orgId]: 0 });

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signIn(page, stack.url, editor.email, editor.password);
    await openFloor(page, place);
    await marker(page, motion.devID).click();
    const config = page.getByRole('region', { name: /Device configuration/ });
    await config.getByRole('button', { name: 'Edit device name' }).click();
    const name = config.getByRole('textbox', { name: 'Device name' });
    await name.fill('');
    await config.getByRole('alert').getByText(DEVICE_NAME_EMPTY_TEXT).waitFor();
    expect(await config.getByRole('button', { name: 'Save device name' }).isDisabled()).toBe(true);
    await screenshot(page, 'floor-edit-config-empty-name');
    await name.fill('MotionDesk2');
    await config.getByRole('button', { name: 'Save device name' }).click();
    await toast(page, DEVICE_NAME_UPDATED_TEXT).waitFor();
    await expect.poll(async () => (await stored(motion.devID))?.devName).toBe('MotionDesk2');

    // The icon choice: a power node may be drawn as a node; the plan draws the stored choice.
    expect(await marker(page, light.devID).getAttribute('data-icon')).toBe('powernode');
    await marker(page, light.devID).click();
    const lightConfig = page.getByRole('region', { name: /Device configuration: LightsIcon/ });
    const icon = lightConfig.getByRole('combobox', { name: 'Icon' });
    expect(await icon.inputValue()).toBe('powernode');
    // The drawer's device shows no popup under the drawer.
    expect(await page.getByTestId('device-popup').count()).toBe(0);
    expect(await icon.locator('option').allTextContents()).toEqual(['Node', 'Power node']);
    // As tall as one line of text, not as the drawer's column (wide: the control column beside it).
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect.poll(async () => (await icon.boundingBox())?.height).toBeLessThan(48);
    await icon.selectOption('node');
    await toast(page, VALUE_UPDATED_TEXT).waitFor();
    await expect.poll(async () => (await stored(light.devID))?.properties.conndev).toBe('node');
    await expect.poll(() => marker(page, light.devID).getAttribute('data-icon')).toBe('node');
    await screenshot(page, 'floor-edit-config-icon');
    await context.close();

    const viewerContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const viewerPage = await viewerContext.newPage();
    await signIn(viewerPage, stack.url, viewer.email, viewer.password);
    await openFloor(viewerPage, place);
    await viewerPage.getByRole('button', { name: 'OPTIONS', exact: true }).click();
    await viewerPage.getByRole('menuitem', { name: 'Filters' }).waitFor();
    for (const item of ['Edit Floor Plan', 'Group Devices', 'Ungroup Devices', 'Upload Floor Plan']) {
      expect(await viewerPage.getByRole('menuitem', { name: item }).count()).toBe(0);
    }
    await viewerPage.keyboard.press('Escape');
    // A read-only user sees the icon choice, disabled.
    await marker(viewerPage, light.devID).click();
    const readOnlyIcon = viewerPage
      .getByRole('region', { name: /Device configuration: LightsIcon/ })
      .getByRole('combobox', { name: 'Icon' });
    expect(await readOnlyIcon.isDisabled()).toBe(true);
    await viewerPage.getByRole('button', { name: 'Close device configuration' }).click();
    await marker(viewerPage, motion.devID).click();
    const readOnly = viewerPage.getByRole('region', { name: /Device configuration/ });
    await readOnly.getByText('MotionDesk2', { exact: true }).waitFor();
    expect(await readOnly.getByRole('button', { name: /^Edit/ }).count()).toBe(0);
    expect(await readOnly.getByRole('textbox').count()).toBe(0);
    await screenshot(viewerPage, 'floor-edit-config-read-only');
    await viewerContext.close();
  }, 120_000);
});

import { join } from 'node:path';
import type { MqttClient } from 'mqtt';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  confirmedLateText,
  deviceValueChangedText,
  deviceValueChangeFailedText,
  SOMETHING_WENT_WRONG_TEXT,
  VALUE_CHANGE_FAILED_TEXT,
  valueChangedText,
  valueSetText,
} from '@argentum/contracts';
import { topics } from '@argentum/contracts/messaging';
import { reliableBehaviour, type Simulator, startSimulator } from '../../infra/local/simulator';
import { newDevices, type Place } from '../../functions/test/platform/devices-fixtures';
import { call, createUser, signInAs, type TestUser } from '../../functions/test/support/api';
import { deviceConnection } from '../../functions/test/support/control';
import '../../functions/test/support/provided';
import { launchBrowser, open, SCREENSHOT_DIR, signIn } from './browser';
import { newPlaceWithPlan } from './places';

/**
 * Issue 21 items 2 and 3 in the browser. A room unit played by the device simulator (as `npm start`
 * plays it): its comfort zone slider sends a tracked command the unit answers, its zone temperature
 * (reported in °F) follows the set point; a late answer reads 'Something went wrong', then confirmed
 * late. A power node (this test plays its firmware) reports its port values (201/202/203): the popup,
 * the device list and its panel show them live, with 'Value changed to {val}', '<device>: Value
 * changed to <value>' and 'Value change failed'.
 */

const stack = inject('stack');
let browser: Browser;
let place: Place;
let editor: TestUser;
let simulator: Simulator;
let powerNode: MqttClient;
let page: Page;
const ids = { roomUnit: '', light: '' };

const dp = (name: string, dn: string, readonly = false) => ({ dp: name, dn, readonly });

beforeAll(async () => {
  browser = await launchBrowser();
  place = await newPlaceWithPlan('Comfort Org');
  const [roomUnit, light] = await newDevices(
    place,
    [
      {
        devName: 'RoomUnitZone',
        devType: 2,
        connDev: 'valve',
        port: 0,
        floorOrigin: { x: 0.3, y: 0.3 },
        dataPoints: [
          dp('temp', 'Temperature', true),
          dp('fan', 'FanSpeed'),
          dp('valve', 'Valve'),
          dp('zone', 'ComfortZone'),
          dp('zoneTemp', 'ZoneTemperature', true),
        ],
        properties: { volt: 3.1 },
      },
      {
        devName: 'LightsPorts',
        devType: 1,
        connDev: 'light',
        port: 2,
        floorOrigin: { x: 0.6, y: 0.3 },
        dataPoints: [dp('bri', 'Brightness')],
        properties: { volt: 3.3, portOneValue: 0, conndev: 'powernode' },
      },
    ],
    place.floorId,
  );
  if (!roomUnit || !light) throw new Error('no devices');
  ids.roomUnit = roomUnit.devID;
  ids.light = light.devID;
  // The room unit as `npm start` plays it: a reading every second, every command answered.
  simulator = await startSimulator({
    mqttUrl: `mqtt://127.0.0.1:${stack.mqttPort}`,
    deviceSecret: stack.deviceSecret,
    devices: [roomUnit],
    intervalMs: 1000,
    // A slow answer comes well after the panel has read the command timed out (deadline + 1 s).
    behaviour: { ...reliableBehaviour, slowReplyMs: [9000, 9000] },
    seed: 21,
  });
  powerNode = await deviceConnection(place.orgId, light.devID);
  editor = await createUser(1, [place.orgId], 'Erin Editor');
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await signIn(page, stack.url, editor.email, editor.password);
});

afterAll(async () => {
  await simulator?.stop();
  await powerNode?.endAsync();
  await browser?.close();
});

const marker = (p: Page, devID: string) =>
  p.locator(`[data-testid="floor-plan-stage"] [data-devid="${devID}"]`);
const drawer = (p: Page) => p.getByRole('region', { name: /Device configuration/ });

async function openFloor(p: Page) {
  await open(p, `${stack.url}/home?floor=${place.floorId}`);
  await p.getByTestId('floor-plan-stage').locator('img').waitFor();
  await marker(p, ids.roomUnit).waitFor();
}

async function openDevice(p: Page, devID: string, name: string): Promise<Locator> {
  await marker(p, devID).click();
  const region = drawer(p);
  await region.getByRole('heading', { name: new RegExp(`Device configuration: .*${name}`) }).waitFor();
  return region;
}

/** The popup of a device, hovered (the drawer closed: an open device shows no popup). */
async function popupOf(p: Page, devID: string): Promise<Locator> {
  const close = drawer(p).getByRole('button', { name: /Close/ });
  if ((await close.count()) > 0) await close.first().click();
  await marker(p, devID).hover();
  const popup = p.getByTestId('device-popup');
  await popup.waitFor();
  return popup;
}

/** The value of a popup row (its <dt> label). */
const popupValue = (popup: Locator, label: string) =>
  popup.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');

const toast = (p: Page, text: string) => p.getByRole('status').getByText(text, { exact: true });
const fahrenheitOf = async (locator: Locator) => {
  const text = (await locator.textContent()) ?? '';
  return text.endsWith(' °F') ? Number(text.slice(0, -3)) : NaN;
};

describe('room unit comfort zone and power node ports in the browser', () => {
  it('sets the comfort zone with its slider (tracked, in its history, late answers confirmed late) and shows the zone temperature in °F', async () => {
    await openFloor(page);
    // The zone temperature the unit reports, in °F, on the popup.
    const popup = await popupOf(page, ids.roomUnit);
    await expect.poll(() => popupValue(popup, 'ZoneTemperature').textContent()).toMatch(/^\d+\.\d °F$/);
    expect(await popupValue(popup, 'ComfortZone').textContent()).toBe('22.0 °C');

    const region = await openDevice(page, ids.roomUnit, 'RoomUnitZone');
    const panel = region.getByRole('region', { name: 'Room unit' });
    const zoneTemp = panel.getByTestId('zone-temperature');
    await expect.poll(() => zoneTemp.textContent()).toMatch(/^\d+\.\d °F$/);
    // Around the unit's 22 °C (71.6 °F).
    expect(await fahrenheitOf(zoneTemp)).toBeLessThan(73);
    const zone = panel.getByRole('group', { name: 'Comfort zone' });
    const slider = zone.getByRole('slider', { name: 'Comfort zone' });
    expect(await slider.getAttribute('aria-valuemin')).toBe('15');
    expect(await slider.getAttribute('aria-valuemax')).toBe('30');
    await expect.poll(() => zone.getByTestId('reported').textContent()).toBe('22 °C');
    expect(await slider.getAttribute('aria-valuenow')).toBe('22');

    // One step of 0.5 with the keyboard: one command on release.
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    const status = zone.getByRole('status', { name: 'Comfort zone status' });
    await status.getByText(valueSetText(22.5), { exact: true }).waitFor({ timeout: 20_000 });
    await expect.poll(() => zone.getByTestId('reported').textContent()).toBe('22.5 °C');
    expect(simulator.stateOf(ids.roomUnit)).toMatchObject({ zone: 22.5 });
    // The top of the range: the zone warms to it, and the unit reports it in °F.
    await page.keyboard.press('End');
    await status.getByText(valueSetText(30), { exact: true }).waitFor({ timeout: 20_000 });
    await expect.poll(() => fahrenheitOf(zoneTemp), { timeout: 20_000 }).toBeGreaterThan(85);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'comfort-zone-set.png') });

    // A unit answering after the 5 s deadline: 'Something went wrong', then confirmed late.
    simulator.script(ids.roomUnit, 'slow');
    await slider.focus();
    await page.keyboard.press('Home');
    await status.getByText(SOMETHING_WENT_WRONG_TEXT, { exact: true }).waitFor({ timeout: 20_000 });
    const late = confirmedLateText(valueSetText(15));
    await status.getByText(late, { exact: true }).waitFor({ timeout: 20_000 });
    simulator.script(ids.roomUnit, 'answer');
    await expect.poll(() => zone.getByTestId('reported').textContent()).toBe('15 °C');

    // Who changed what, when, and how it ended.
    const history = region.getByRole('region', { name: 'Command history' });
    await history.getByRole('cell', { name: late }).waitFor();
    await history.getByRole('cell', { name: valueSetText(22.5) }).waitFor();
    await history.getByRole('cell', { name: valueSetText(30) }).waitFor();
    expect(await history.getByRole('cell', { name: 'Erin Editor' }).count()).toBe(3);
  }, 120_000);

  it("shows a power node's port values on its popup, in the device list and in its panel, live, with the device's word", async () => {
    // A reading first: a device never heard from is unregistered, and its popup says only that.
    await powerNode.publishAsync(
      topics.sensorData(place.orgId, ids.light),
      JSON.stringify({ devID: ids.light, devType: 1, time: Date.now(), values: { bri: 60 } }),
      { qos: 1 },
    );
    await openFloor(page);
    let popup = await popupOf(page, ids.light);
    await expect.poll(() => popupValue(popup, 'Status').textContent(), { timeout: 20_000 }).toBe('Online');
    expect(await popupValue(popup, 'Port-1').textContent()).toBe('Off');
    expect(await popupValue(popup, 'Port-2').textContent()).toBe('–');

    const region = await openDevice(page, ids.light, 'LightsPorts');
    const ports = region.getByRole('group', { name: 'Port values' });
    expect(await ports.getByTestId('port-value-Port-1').textContent()).toBe('Off');
    const say = (outcome: 'success' | 'fail', cmnd: number, val: number) =>
      powerNode.publishAsync(
        outcome === 'success' ? topics.controlSuccess(place.orgId) : topics.controlFail(place.orgId),
        JSON.stringify({ action: outcome, devID: ids.light, devType: 1, cmnd, val }),
        { qos: 1 },
      );
    const status = ports.getByRole('status', { name: 'Port values status' });

    await say('success', 201, 1);
    await status.getByText(valueChangedText(1), { exact: true }).waitFor({ timeout: 20_000 });
    await toast(page, deviceValueChangedText('LightsPorts', 1)).waitFor();
    await expect.poll(() => ports.getByTestId('port-value-Port-1').textContent()).toBe('On');
    const row = page
      .getByRole('region', { name: 'Devices on this floor' })
      .locator(`[data-devid="${ids.light}"]`);
    await expect.poll(() => row.textContent()).toContain('Port-1 On');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'ports-changed.png') });

    await say('fail', 202, 1);
    await status.getByText(VALUE_CHANGE_FAILED_TEXT, { exact: true }).waitFor({ timeout: 20_000 });
    await toast(page, deviceValueChangeFailedText('LightsPorts')).waitFor();
    expect(await ports.getByTestId('port-value-Port-2').textContent()).toBe('–');

    await say('success', 203, 0);
    await status.getByText(valueChangedText(0), { exact: true }).waitFor({ timeout: 20_000 });
    await expect.poll(() => ports.getByTestId('port-value-Port-2').textContent()).toBe('Off');
    expect(await ports.getByTestId('port-value-Port-1').textContent()).toBe('Off');
    popup = await popupOf(page, ids.light);
    expect(await popupValue(popup, 'Port-1').textContent()).toBe('Off');
    expect(await popupValue(popup, 'Port-2').textContent()).toBe('Off');
  }, 90_000);

  it('looks right in light and dark at 1440x900, 1280x720 and 1024x768', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const session = await signInAs(editor);
      expect((await call('/api/setTheme', { theme }, { token: session.accessToken })).status).toBe(200);
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const themed = await context.newPage();
      await signIn(themed, stack.url, editor.email, editor.password);
      for (const [width, height] of [
        [1440, 900],
        [1280, 720],
        [1024, 768],
      ] as const) {
        await themed.setViewportSize({ width, height });
        await openFloor(themed);
        await expect
          .poll(() => themed.evaluate(() => document.documentElement.getAttribute('data-theme')))
          .toBe(theme);
        const name = (what: string) => join(SCREENSHOT_DIR, `${what}-${theme}-${width}x${height}.png`);
        await popupOf(themed, ids.roomUnit);
        await themed.screenshot({ path: name('comfort-popup') });
        let region = await openDevice(themed, ids.roomUnit, 'RoomUnitZone');
        const zone = region.getByRole('group', { name: 'Comfort zone' });
        await zone.scrollIntoViewIfNeeded();
        await themed.screenshot({ path: name('comfort-panel') });
        await popupOf(themed, ids.light);
        await themed.screenshot({ path: name('ports-popup') });
        region = await openDevice(themed, ids.light, 'LightsPorts');
        await region.getByRole('group', { name: 'Port values' }).scrollIntoViewIfNeeded();
        await themed.screenshot({ path: name('ports-panel') });
      }
      await context.close();
    }
  }, 180_000);
});

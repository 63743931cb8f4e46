import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { MqttClient } from 'mqtt';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  confirmedLateText,
  COOLING_MODE_SET_TEXT,
  DEVICE_OFFLINE_TEXT,
  DEVICE_ONLINE_TEXT,
  ECO_MODE_SET_TEXT,
  ECOBEE_MODE_SET_TEXT,
  ECOBEE_TEMPERATURE_SET_TEXT,
  HEATING_MODE_SET_TEXT,
  lockedText,
  NEST_TEMPERATURE_SET_TEXT,
  PAIRING_FAILED_TEXT,
  SOMETHING_WENT_WRONG_TEXT,
  unlockedText,
  USER_UNAUTHORIZED_TEXT,
  VALUE_HAS_BEEN_SET_TEXT,
  valueSetFailedText,
  valueSetText,
} from '@argentum/contracts';
import { type CommandMessage, commandMessageSchema, topics } from '@argentum/contracts/messaging';
import { dynamo } from '../../functions/src/aws/dynamo';
import { config } from '../../functions/src/config';
import { ENV } from '../../functions/src/environment';
import { basicIngestReadings } from '../../functions/src/adapters/basic-ingest-readings';
import { deviceItem } from '../../functions/src/stores/devices';
import { newDevices, type Place } from '../../functions/test/platform/devices-fixtures';
import { call, createUser, signInAs, type TestUser } from '../../functions/test/support/api';
import { deviceConnection } from '../../functions/test/support/control';
import '../../functions/test/support/provided';
import { launchBrowser, open, SCREENSHOT_DIR, screenshot, signIn } from './browser';
import { newPlaceWithPlan } from './places';

/**
 * The device control panels in the device drawer, end to end: the browser sends a command, this test
 * plays the device's firmware over the local broker (it holds each command until the test has seen the
 * panel pending, then confirms or refuses it), and the panel shows the device's word. Until the
 * browser's real-time client delivers `{org}/commandstatus/{userId}`, panels settle by reading the command
 * history after the deadline; the assertions hold for either path.
 */

const stack = inject('stack');
let browser: Browser;
let place: Place;
let editor: TestUser;
let viewer: TestUser;
let firmware: Firmware;
let context: BrowserContext;
let page: Page;
const ids: Record<string, string> = {};

// Vendor devices live at the local stand-ins of the vendor clouds.
const standins = new URL(stack.env[ENV.ryseApiUrl] ?? '').origin;
async function standinDevice(vendor: 'ryse' | 'nest' | 'ecobee', state: Record<string, unknown> = {}) {
  const vendorId =
    vendor === 'ecobee' ? String(Date.now()).slice(-12) + randomUUID().slice(0, 4) : randomUUID();
  const response = await fetch(`${standins}/_standin/devices`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ vendor, id: vendorId, state }),
  });
  expect(response.status).toBe(200);
  return vendorId;
}

async function vendorDevice(devName: string, vendor: 'ryse' | 'nest' | 'ecobee', x: number) {
  const vendorId = await standinDevice(vendor);
  const connDev = { ryse: 'shades', nest: 'nest', ecobee: 'ecobee' }[vendor];
  const idProperty = { ryse: 'ryseShadeId', nest: 'sdmDeviceId', ecobee: 'ecobeeThermostatId' }[vendor];
  const devID = `TP${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`;
  await dynamo().send(
    new PutCommand({
      TableName: config.platformTable,
      Item: deviceItem({
        devID,
        devName,
        devType: 8,
        connDev,
        orgID: place.orgId,
        onFloor: true,
        floorID: place.floorId,
        buildID: place.buildId,
        floorOrigin: { x, y: 0.15 },
        dataPoints: [],
        properties: { [idProperty]: vendorId, min: 16, max: 30 },
        updatedAt: new Date().toISOString(),
      }),
    }),
  );
  return devID;
}

/** The devices' firmware: receives their commands and answers them when the test says so. */
interface Firmware {
  /** The next command to the device (waits for it). */
  next(devID: string): Promise<CommandMessage>;
  /** The commands received for the device and not taken with `next` yet. */
  queued(devID: string): number;
  /** Answers a command; `val`: the value the device reports (the command's by default). */
  reply(command: CommandMessage, outcome: 'success' | 'fail', val?: CommandMessage['val']): Promise<void>;
  /**
   * Publishes a reading of the device's own, as its firmware does every cycle, stamped by its clock
   * (`clockOffsetMs` off the broker's).
   */
  report(
    devID: string,
    devType: number,
    values: Record<string, number>,
    clockOffsetMs?: number,
  ): Promise<void>;
  stop(): Promise<void>;
}

/** One connection per device, each bound to its organization and id as the broker requires. */
async function startFirmware(orgId: string, devIDs: string[]): Promise<Firmware> {
  const queues = new Map<string, CommandMessage[]>();
  const clients = new Map<string, MqttClient>();
  for (const devID of devIDs) {
    const client = await deviceConnection(orgId, devID);
    client.on('message', (topic, payload) => {
      if (topic !== topics.control(orgId, devID)) return;
      const parsed = commandMessageSchema.safeParse(JSON.parse(payload.toString()));
      if (parsed.success) queues.set(devID, [...(queues.get(devID) ?? []), parsed.data]);
    });
    await client.subscribeAsync(topics.control(orgId, devID), { qos: 1 });
    clients.set(devID, client);
  }
  return {
    next: (devID) =>
      expect
        .poll(() => queues.get(devID)?.[0], { timeout: 15_000 })
        .toBeDefined()
        .then(() => {
          const [first, ...rest] = queues.get(devID) ?? [];
          queues.set(devID, rest);
          return first as CommandMessage;
        }),
    queued: (devID) => queues.get(devID)?.length ?? 0,
    reply: async (command, outcome, val = command.val) => {
      const client = clients.get(command.devID);
      if (!client) throw new Error(`No firmware for ${command.devID}`);
      await client.publishAsync(
        outcome === 'success' ? topics.controlSuccess(orgId) : topics.controlFail(orgId),
        JSON.stringify({
          action: outcome === 'success' ? 'success' : 'fail',
          devID: command.devID,
          devType: command.devType,
          commandId: command.commandId,
          cmnd: command.cmnd,
          ...(val !== undefined ? { val } : {}),
        }),
        { qos: 1 },
      );
    },
    report: async (devID, devType, values, clockOffsetMs = 0) => {
      const client = clients.get(devID);
      if (!client) throw new Error(`No firmware for ${devID}`);
      await client.publishAsync(
        topics.sensorData(orgId, devID),
        JSON.stringify({ devID, devType, time: Date.now() + clockOffsetMs, values }),
        { qos: 1 },
      );
    },
    stop: async () => {
      await Promise.all([...clients.values()].map((client) => client.endAsync()));
    },
  };
}

beforeAll(async () => {
  browser = await launchBrowser();
  place = await newPlaceWithPlan('Panels Org');
  const dp = (name: string, dn: string, readonly = false) => ({ dp: name, dn, readonly });
  const seeds = [
    { devName: 'LightsDesk', devType: 1, connDev: 'light', port: 2, dataPoints: [dp('bri', 'Brightness')] },
    { devName: 'LockDoor', devType: 3, connDev: 'lock', port: 0, dataPoints: [dp('lock', 'Lock')] },
    {
      devName: 'ShadesWest',
      devType: 3,
      connDev: 'rollershades',
      port: 0,
      dataPoints: [dp('shade', 'Shade')],
      // A pairing failure flipped its pairing mode flag.
      properties: { pairingMode: false },
    },
    {
      devName: 'RoomUnitA',
      devType: 2,
      connDev: 'valve',
      port: 0,
      dataPoints: [dp('temp', 'Temperature', true), dp('fan', 'FanSpeed'), dp('valve', 'Valve')],
    },
    {
      devName: 'BacnetAHU',
      devType: 7,
      port: 0,
      dataPoints: [dp('sat', 'SupplyAirTemp', true), dp('setpoint', 'SetPoint')],
    },
    { devName: 'MotionHall', devType: 4, dataPoints: [dp('mState', 'Occupancy', true)] },
  ];
  const devices = await newDevices(
    place,
    [
      ...seeds.map((seed, i) => ({ ...seed, floorOrigin: { x: 0.06 + 0.11 * i, y: 0.15 } })),
      // A lock whose clock runs two minutes ahead of the broker's.
      {
        devName: 'LockAhead',
        devType: 3,
        connDev: 'lock',
        port: 0,
        dataPoints: [dp('lock', 'Lock')],
        floorOrigin: { x: 0.06, y: 0.45 },
      },
    ],
    place.floorId,
  );
  for (const device of devices) ids[device.devName] = device.devID;
  ids.NestHall = await vendorDevice('NestHall', 'nest', 0.72);
  ids.EcobeeOffice = await vendorDevice('EcobeeOffice', 'ecobee', 0.83);
  ids.RyseLobby = await vendorDevice('RyseLobby', 'ryse', 0.94);
  editor = await createUser(1, [place.orgId], 'Erin Editor');
  viewer = await createUser(0, [place.orgId], 'Vic Viewer');
  firmware = await startFirmware(
    place.orgId,
    devices.map((device) => device.devID),
  );
  context = await browser.newContext({ viewport: { width: 1440, height: 1200 } });
  page = await context.newPage();
  await signIn(page, stack.url, editor.email, editor.password);
});

afterAll(async () => {
  await firmware?.stop();
  await browser?.close();
});

const marker = (p: Page, devID: string) =>
  p.locator(`[data-testid="floor-plan-stage"] [data-devid="${devID}"]`);
const drawer = (p: Page) => p.getByRole('region', { name: /Device configuration/ });

/** Opens the floor (once) and the device's drawer; answers the drawer. */
async function openDevice(p: Page, name: string): Promise<Locator> {
  if (!p.url().includes(place.floorId)) {
    await open(p, `${stack.url}/home?floor=${place.floorId}`);
    await p.getByTestId('floor-plan-stage').locator('img').waitFor();
  }
  const id = ids[name] as string;
  await marker(p, id).click();
  const region = drawer(p);
  await region.getByRole('heading', { name: new RegExp(`Device configuration: .*${name}`) }).waitFor();
  return region;
}

/** A PNG of a panel (toasts dismissed, scrolled into view) under test-results/screenshots. */
async function shot(panel: Locator, name: string) {
  const dismiss = panel.page().getByRole('button', { name: 'Dismiss notification' });
  while ((await dismiss.count()) > 0) await dismiss.first().click();
  await panel.scrollIntoViewIfNeeded();
  await panel.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
}

const statusOf = (panel: Locator, label: string) => panel.getByRole('status', { name: `${label} status` });

/** The control is pending (spinner, requested value apart), then settles with `text` once the device answered. */
async function expectPendingThenSettled(
  panel: Locator,
  label: string,
  devID: string,
  outcome: 'success' | 'fail' | 'none',
  text: (command: CommandMessage) => string,
  screenshotName: string,
) {
  const command = await firmware.next(devID);
  const status = statusOf(panel, label);
  await expect.poll(() => status.getAttribute('data-state')).toBe('pending');
  await shot(panel, `${screenshotName}-pending`);
  if (outcome !== 'none') await firmware.reply(command, outcome);
  await status.getByText(text(command), { exact: true }).waitFor({ timeout: 20_000 });
  await shot(panel, screenshotName);
  return command;
}

/** Clicks a slider's track at `fraction` of its width (one press and release: one command). */
async function clickSlider(panel: Locator, label: string, fraction: number) {
  const slider = panel.getByRole('slider', { name: label });
  await expect.poll(() => slider.count()).toBe(1);
  const box = await panel
    .locator('.amplify-sliderfield__root')
    .filter({ has: panel.page().getByRole('slider', { name: label }) })
    .boundingBox();
  if (!box) throw new Error(`No slider ${label}`);
  await panel.page().mouse.click(box.x + box.width * fraction, box.y + box.height / 2);
}

/**
 * Publishes the device's reading until the panel shows `expected` (published again each second: the
 * floor's live values reach the page once its connection is up).
 */
async function reportUntil(
  devID: string,
  devType: number,
  values: Record<string, number>,
  shown: () => Promise<string | null>,
  expected: string,
  clockOffsetMs = 0,
) {
  await expect
    .poll(
      async () => {
        await firmware.report(devID, devType, values, clockOffsetMs);
        return shown();
      },
      { timeout: 20_000, interval: 1000 },
    )
    .toBe(expected);
}

describe('device control panels in the browser', () => {
  it("locks and unlocks a lock: pending, then the lock's word", async () => {
    const region = await openDevice(page, 'LockDoor');
    const panel = region.getByRole('region', { name: 'Lock' });
    // The device's word comes over the real-time channel ({org}/commandstatus/{userId}): with every read of
    // the command history refused meanwhile, nothing else could settle the panel.
    const historyCall = '**/api/deviceControl/getCommandHistory';
    await page.route(historyCall, (route) => route.abort());
    await panel.getByRole('button', { name: 'Lock', exact: true }).click();
    await panel.getByTestId('requested').getByText('Locked').waitFor();
    await expectPendingThenSettled(
      panel,
      'Lock',
      ids.LockDoor as string,
      'success',
      () => lockedText('LockDoor'),
      'panel-lock-locked',
    );
    await page.unroute(historyCall);
    await expect.poll(() => panel.getByTestId('reported').textContent()).toBe('Locked');
    await panel.getByRole('button', { name: 'Unlock', exact: true }).click();
    await expectPendingThenSettled(
      panel,
      'Lock',
      ids.LockDoor as string,
      'success',
      () => unlockedText('LockDoor'),
      'panel-lock-unlocked',
    );
    await expect.poll(() => panel.getByTestId('reported').textContent()).toBe('Unlocked');
    // Locked by hand at the door: its reading, newer than the confirmed unlock, moves the open panel.
    await reportUntil(
      ids.LockDoor as string,
      3,
      { lock: 1 },
      () => panel.getByTestId('reported').textContent(),
      'Locked',
    );
    await shot(panel, 'panel-lock-by-hand');
    // Unlocked from the panel, and locked again at once by the lock itself (it re-locks on its own):
    // its reading comes right behind the confirmed unlock, in the same batch as a rule, so the page may
    // never hear the unlocked value live. Its open panel still ends on the lock's last word, the value
    // it already showed before the unlock, with no further reading.
    await panel.getByRole('button', { name: 'Unlock', exact: true }).click();
    const unlock = await firmware.next(ids.LockDoor as string);
    await firmware.reply(unlock, 'success');
    await statusOf(panel, 'Lock').getByText(unlockedText('LockDoor'), { exact: true }).waitFor();
    await firmware.report(ids.LockDoor as string, 3, { lock: 1 });
    await expect.poll(() => panel.getByTestId('reported').textContent(), { timeout: 20_000 }).toBe('Locked');
    // The floor's device list words the lock's reading as the panel does.
    const row = page.locator(`li button[data-devid="${ids.LockDoor as string}"]`);
    await expect.poll(() => row.textContent(), { timeout: 10_000 }).toContain('Locked');
    // The history says who asked what and how it ended.
    const history = region.getByRole('region', { name: 'Command history' });
    await history
      .getByRole('cell', { name: unlockedText('LockDoor') })
      .first()
      .waitFor();
    await history.getByRole('cell', { name: lockedText('LockDoor') }).waitFor();
    expect(await history.getByRole('cell', { name: 'Erin Editor' }).count()).toBe(3);
    await shot(history, 'panel-lock-history');
    await screenshot(page, 'panel-drawer-lock');
  }, 90_000);

  it('a lock whose clock runs two minutes ahead: its confirmed value shows at once and holds, its next report moves it', async () => {
    const AHEAD = 120_000;
    const id = ids.LockAhead as string;
    const region = await openDevice(page, 'LockAhead');
    const panel = region.getByRole('region', { name: 'Lock' });
    const reported = () => panel.getByTestId('reported').textContent();
    // Unlocked, as its report says, stamped two minutes after the broker's time (its offset comes live).
    await reportUntil(id, 3, { lock: 0 }, reported, 'Unlocked', AHEAD);
    await panel.getByRole('button', { name: 'Lock', exact: true }).click();
    await firmware.reply(await firmware.next(id), 'success');
    await statusOf(panel, 'Lock').getByText(lockedText('LockAhead'), { exact: true }).waitFor();
    // From its word on, Locked: its broker time is put on its clock, after that report. For 3 s, while
    // its confirmed reading comes through ingest and live, the panel never shows the report's value.
    const shown = new Set<string | null>();
    for (let sample = 0; sample < 30; sample++) {
      shown.add(await reported());
      await page.waitForTimeout(100);
    }
    expect([...shown]).toEqual(['Locked']);
    await shot(panel, 'panel-lock-clock-ahead');
    // Opened at the door: its report, on its clock, moves the panel.
    await reportUntil(id, 3, { lock: 0 }, reported, 'Unlocked', AHEAD);
  });

  it('dims a light with the slider (sent on release) and a level, on the chosen port', async () => {
    const region = await openDevice(page, 'LightsDesk');
    const panel = region.getByRole('region', { name: 'Light brightness' });
    expect(await panel.getByLabel('Port', { exact: true }).inputValue()).toBe('2');
    await panel.getByLabel('Port', { exact: true }).selectOption({ label: 'Port-1' });
    await clickSlider(panel, 'Brightness', 0.5);
    const command = await expectPendingThenSettled(
      panel,
      'Brightness',
      ids.LightsDesk as string,
      'success',
      (c) => valueSetText(c.val),
      'panel-light-slider',
    );
    expect(command).toMatchObject({ port: 0, actionHandler: 'setBrightness' });
    expect(Math.abs(Number(command.val) - 50)).toBeLessThanOrEqual(3);
    // While pending the slider stayed at the requested value; confirmed, it is the device's.
    expect(await panel.getByRole('slider', { name: 'Brightness' }).getAttribute('aria-valuenow')).toBe(
      String(command.val),
    );
    await panel.getByRole('button', { name: '20%' }).click();
    const level = await expectPendingThenSettled(
      panel,
      'Brightness',
      ids.LightsDesk as string,
      'fail',
      () => valueSetFailedText(20),
      'panel-light-level-failed',
    );
    expect(level.val).toBe(20);

    // Three quick arrow presses are one change: one command, with the value they reach (not three
    // racing each other).
    const slider = panel.getByRole('slider', { name: 'Brightness' });
    const start = Number(await slider.getAttribute('aria-valuenow'));
    await slider.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    const pressed = await expectPendingThenSettled(
      panel,
      'Brightness',
      ids.LightsDesk as string,
      'success',
      (c) => valueSetText(c.val),
      'panel-light-keys',
    );
    expect(pressed.val).toBe(start + 3);
    expect(firmware.queued(ids.LightsDesk as string)).toBe(0);
  }, 90_000);

  it('moves roller shades and sets a room unit fan and valve', async () => {
    let region = await openDevice(page, 'ShadesWest');
    const shades = region.getByRole('region', { name: 'Roller shades' });
    await region.getByText(PAIRING_FAILED_TEXT, { exact: true }).waitFor();
    await shot(region.getByRole('region', { name: 'Device control' }), 'panel-shades-pairing-failed');
    await shades.getByRole('button', { name: 'Slide Up' }).click();
    const up = await expectPendingThenSettled(
      shades,
      'Shades',
      ids.ShadesWest as string,
      'success',
      () => valueSetText([1, 1, 1, 1]),
      'panel-shades-up',
    );
    expect(up.val).toEqual([1, 1, 1, 1]);
    // Up, as the device said; then the shade reports the position it reached, a word of its own that
    // came after the confirmation: the panel shows that.
    await expect.poll(() => shades.getByTestId('reported').textContent()).toBe('Up');
    await reportUntil(
      ids.ShadesWest as string,
      3,
      { shade: 100 },
      () => shades.getByRole('slider', { name: 'Shade position' }).getAttribute('aria-valuenow'),
      '100',
    );
    expect(await shades.getByTestId('reported').textContent()).toBe('100%');

    region = await openDevice(page, 'RoomUnitA');
    const fan = region.getByRole('group', { name: 'Fan speed' });
    await clickSlider(fan, 'Fan speed', 0.7);
    const fanCommand = await expectPendingThenSettled(
      fan,
      'Fan speed',
      ids.RoomUnitA as string,
      'success',
      (c) => valueSetText(c.val),
      'panel-room-unit-fan',
    );
    expect(fanCommand.port).toBe(0);
    expect(Number(fanCommand.val)).toBeGreaterThanOrEqual(6);
    expect(Number(fanCommand.val)).toBeLessThanOrEqual(8);
    const valve = region.getByRole('group', { name: 'Valve' });
    await clickSlider(valve, 'Valve', 0.45);
    const valveCommand = await expectPendingThenSettled(
      valve,
      'Valve',
      ids.RoomUnitA as string,
      'success',
      (c) => valueSetText(c.val),
      'panel-room-unit-valve',
    );
    expect(valveCommand.port).toBe(1);
    // Steps of 0.1.
    expect(Number(valveCommand.val) * 10).toBeCloseTo(Math.round(Number(valveCommand.val) * 10), 6);
    // The fan turned down by hand at the unit: its reading moves the open panel's fan, not its valve.
    await reportUntil(
      ids.RoomUnitA as string,
      2,
      { fan: 2 },
      () => fan.getByTestId('reported').textContent(),
      '2',
    );
    expect(await valve.getByTestId('reported').textContent()).toBe(String(valveCommand.val));
    await shot(region.getByRole('region', { name: 'Device control' }), 'panel-room-unit-by-hand');
  }, 90_000);

  it("a light that answers after the 5 s deadline: 'Something went wrong', then confirmed late with the light's value", async () => {
    const region = await openDevice(page, 'LightsDesk');
    const panel = region.getByRole('region', { name: 'Light brightness' });
    await panel.getByRole('button', { name: '60%' }).click();
    const command = await expectPendingThenSettled(
      panel,
      'Brightness',
      ids.LightsDesk as string,
      'none',
      () => SOMETHING_WENT_WRONG_TEXT,
      'panel-light-timed-out',
    );
    expect(command.val).toBe(60);
    // The light did act, late, and reports the level it could reach.
    await firmware.reply(command, 'success', 45);
    const late = confirmedLateText(valueSetText(45));
    await statusOf(panel, 'Brightness').getByText(late, { exact: true }).waitFor({ timeout: 20_000 });
    expect(await statusOf(panel, 'Brightness').getAttribute('data-state')).toBe('confirmed late');
    await expect.poll(() => panel.getByTestId('reported').textContent()).toBe('45%');
    expect(await panel.getByRole('slider', { name: 'Brightness' }).getAttribute('aria-valuenow')).toBe('45');
    await shot(panel, 'panel-light-confirmed-late');
    const history = region.getByRole('region', { name: 'Command history' });
    await history.getByRole('cell', { name: late }).waitFor();
    await shot(history, 'panel-light-history-late');
  }, 90_000);

  it('writes a BACnet value, tests a device (online, then offline without a reply) and shows occupancy', async () => {
    let region = await openDevice(page, 'BacnetAHU');
    const point = region.getByRole('form', { name: 'SetPoint' });
    await point.getByRole('textbox').fill('21.5');
    await point.getByRole('button', { name: 'Send' }).click();
    const write = await expectPendingThenSettled(
      point,
      'SetPoint',
      ids.BacnetAHU as string,
      'success',
      () => valueSetText(21.5),
      'panel-bacnet',
    );
    expect(write).toMatchObject({ val: 21.5, str: 'setpoint' });

    const test = region.getByRole('region', { name: 'Test device' });
    await test.getByRole('button', { name: 'Test device' }).click();
    await expectPendingThenSettled(
      test,
      'Test',
      ids.BacnetAHU as string,
      'success',
      () => DEVICE_ONLINE_TEXT,
      'panel-test-online',
    );
    await test.getByRole('button', { name: 'Test device' }).click();
    await expectPendingThenSettled(
      test,
      'Test',
      ids.BacnetAHU as string,
      'none',
      () => DEVICE_OFFLINE_TEXT,
      'panel-test-offline',
    );

    region = await openDevice(page, 'MotionHall');
    const occupancy = region.getByRole('region', { name: 'Occupancy' });
    await occupancy.getByText('0 occupied, 1 unoccupied on this floor').waitFor();
    await shot(occupancy, 'panel-motion');
  }, 90_000);

  it('sets the Nest thermostat (dial, mode, eco) and the Ecobee thermostat (mode, set point), and moves Ryse shades', async () => {
    let region = await openDevice(page, 'NestHall');
    const nest = region.getByRole('region', { name: 'Nest thermostat' });
    const dial = nest.getByRole('slider', { name: 'Target temperature' });
    await expect.poll(() => dial.getAttribute('aria-valuenow')).not.toBeNull();
    expect(await dial.locator('line').count()).toBe(28);
    // The thermostat's state has arrived once its controls are enabled (until then the dial shows a default).
    const raise = nest.getByRole('button', { name: 'Raise the temperature' });
    await expect.poll(() => raise.isEnabled()).toBe(true);
    await shot(nest, 'panel-nest');
    const before = Number(await dial.getAttribute('aria-valuenow'));
    await nest.getByRole('button', { name: 'Raise the temperature' }).click();
    await nest.getByRole('button', { name: 'Raise the temperature' }).click();
    expect(Number(await dial.getAttribute('aria-valuenow'))).toBe(before + 1);
    await nest.getByRole('button', { name: 'Set temperature' }).click();
    const thermostat = statusOf(nest, 'Thermostat');
    await thermostat.getByText(NEST_TEMPERATURE_SET_TEXT, { exact: true }).waitFor();
    await expect.poll(async () => Number(await dial.getAttribute('aria-valuenow'))).toBe(before + 1);
    await nest.getByRole('button', { name: 'Heating' }).click();
    await thermostat.getByText(HEATING_MODE_SET_TEXT, { exact: true }).waitFor();
    await shot(nest, 'panel-nest-heating');
    await nest.getByRole('button', { name: 'Cooling' }).click();
    await thermostat.getByText(COOLING_MODE_SET_TEXT, { exact: true }).waitFor();
    await nest.getByRole('button', { name: 'Eco' }).click();
    await thermostat.getByText(ECO_MODE_SET_TEXT, { exact: true }).waitFor();
    await nest.getByText('Away', { exact: true }).waitFor();
    await shot(nest, 'panel-nest-eco');
    // A newer reading of the room (the vendor poller's, published as the thermostat's own) shows in the
    // open panel, not only in the row.
    await basicIngestReadings.send(place.orgId, {
      devID: ids.NestHall as string,
      devType: 8,
      time: Date.now(),
      values: { ambientTemperatureCelsius: 26.5, ambientHumidityPercent: 57 },
    });
    await nest.getByText('Inside 26.5 °C').waitFor();
    await nest.getByText('57%', { exact: true }).waitFor();

    region = await openDevice(page, 'EcobeeOffice');
    const ecobee = region.getByRole('region', { name: 'Ecobee thermostat' });
    const cooling = ecobee.getByRole('button', { name: 'Cooling' });
    const heating = ecobee.getByRole('button', { name: 'Heating' });
    await expect
      .poll(
        async () =>
          (await cooling.getAttribute('aria-pressed')) === 'true' ||
          (await heating.getAttribute('aria-pressed')) === 'true',
      )
      .toBe(true);
    const target = (await cooling.getAttribute('aria-pressed')) === 'true' ? heating : cooling;
    await target.click();
    const ecobeeStatus = statusOf(ecobee, 'Thermostat');
    await ecobeeStatus.getByText(ECOBEE_MODE_SET_TEXT, { exact: true }).waitFor();
    await expect.poll(() => target.getAttribute('aria-pressed')).toBe('true');
    await clickSlider(ecobee, 'Heat set point', 0.3);
    await ecobeeStatus.getByText(ECOBEE_TEMPERATURE_SET_TEXT, { exact: true }).waitFor();
    await shot(ecobee, 'panel-ecobee');

    region = await openDevice(page, 'RyseLobby');
    const ryse = region.getByRole('region', { name: 'Shades' });
    await ryse.getByText(/Reported position: \d+%/).waitFor();
    await clickSlider(ryse, 'Shade position', 0.8);
    await statusOf(ryse, 'Shades').getByText(VALUE_HAS_BEEN_SET_TEXT, { exact: true }).waitFor();
    await expect
      .poll(() => ryse.getByText(/Reported position: \d+%/).textContent())
      .toMatch(/Reported position: (7[7-9]|8[0-3])%/);
    await shot(ryse, 'panel-ryse');
    // Vendor writes are tracked commands too: the history has who moved the shade and the outcome.
    const history = region.getByRole('region', { name: 'Command history' });
    await history.getByRole('cell', { name: VALUE_HAS_BEEN_SET_TEXT }).waitFor();
    expect(await history.getByRole('cell', { name: 'Erin Editor' }).count()).toBe(1);
    await shot(history, 'panel-ryse-history');
  }, 90_000);

  it('shows a read-only user every control disabled; the server refuses their command with 403', async () => {
    const viewerContext = await browser.newContext({ viewport: { width: 1440, height: 1200 } });
    const viewerPage = await viewerContext.newPage();
    await signIn(viewerPage, stack.url, viewer.email, viewer.password);
    let region = await openDevice(viewerPage, 'LockDoor');
    const lock = region.getByRole('region', { name: 'Lock' });
    await lock.getByRole('button', { name: 'Lock', exact: true }).waitFor();
    expect(await lock.getByRole('button', { name: 'Lock', exact: true }).isDisabled()).toBe(true);
    expect(await lock.getByRole('button', { name: 'Unlock', exact: true }).isDisabled()).toBe(true);
    expect(await region.getByRole('button', { name: 'Test device' }).isDisabled()).toBe(true);
    // The history is readable.
    await region
      .getByRole('region', { name: 'Command history' })
      .getByRole('cell', { name: lockedText('LockDoor') })
      .waitFor();
    await shot(lock, 'panel-read-only-lock');
    region = await openDevice(viewerPage, 'LightsDesk');
    const light = region.getByRole('region', { name: 'Light brightness' });
    expect(await light.getByRole('slider', { name: 'Brightness' }).getAttribute('data-disabled')).toBe('');
    for (const level of ['20%', '60%', '100%']) {
      expect(await light.getByRole('button', { name: level }).isDisabled()).toBe(true);
    }
    region = await openDevice(viewerPage, 'NestHall');
    const nest = region.getByRole('region', { name: 'Nest thermostat' });
    await nest.getByRole('button', { name: 'Eco' }).waitFor();
    expect(await nest.getByRole('button', { name: 'Eco' }).isDisabled()).toBe(true);
    region = await openDevice(viewerPage, 'EcobeeOffice');
    const ecobee = region.getByRole('region', { name: 'Ecobee thermostat' });
    await ecobee.getByRole('slider', { name: 'Heat set point' }).waitFor();
    expect(await ecobee.getByRole('button', { name: 'Cooling' }).isDisabled()).toBe(true);
    expect(await ecobee.getByRole('button', { name: 'Heating' }).isDisabled()).toBe(true);
    await shot(ecobee, 'panel-read-only-ecobee');
    await viewerContext.close();

    const { accessToken } = await signInAs(viewer);
    const refused = await call(
      '/api/deviceControl/setFanValveValue',
      { value: [1, 0, 0, 0], devID: ids.LockDoor, port: 0, devType: 3 },
      { token: accessToken },
    );
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 403,
      body: { message: USER_UNAUTHORIZED_TEXT },
    });
  }, 90_000);

  it("tells a user demoted while the panel was open that the command was refused: 'User is unAuthorized'", async () => {
    const demoted = await createUser(1, [place.orgId], 'Dee Demoted');
    const admin = await createUser(2, [place.orgId], 'Ada Admin');
    const demotedContext = await browser.newContext({ viewport: { width: 1440, height: 1200 } });
    const demotedPage = await demotedContext.newPage();
    await signIn(demotedPage, stack.url, demoted.email, demoted.password);
    const region = await openDevice(demotedPage, 'LightsDesk');
    const light = region.getByRole('region', { name: 'Light brightness' });
    await light.getByRole('button', { name: '20%' }).waitFor();
    expect(await light.getByRole('button', { name: '20%' }).isDisabled()).toBe(false);
    // Another administrator makes them read-only; their page still shows the controls it was given.
    const { accessToken } = await signInAs(admin);
    const demotion = await call(
      '/api/setUserAccess',
      { selectedUserId: demoted.userId, role: 0, editUserOrgIds: [place.orgId] },
      { token: accessToken },
    );
    expect(demotion.status).toBe(200);
    await light.getByRole('button', { name: '20%' }).click();
    // The server's word, in a toast and in the panel, not a silent "not sent".
    await demotedPage
      .getByRole('status')
      .getByText(USER_UNAUTHORIZED_TEXT, { exact: true })
      .first()
      .waitFor();
    const status = statusOf(light, 'Brightness');
    await status.getByText(USER_UNAUTHORIZED_TEXT, { exact: true }).waitFor();
    expect(await status.getAttribute('data-state')).toBe('refused');
    await shot(light, 'panel-light-refused');
    // Nothing reached the device.
    expect(firmware.queued(ids.LightsDesk as string)).toBe(0);
    await demotedContext.close();
  }, 90_000);
});

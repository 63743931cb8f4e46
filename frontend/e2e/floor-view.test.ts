import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createUser, signIn as apiSignIn } from '../../functions/test/support/api';
import {
  newDevId,
  newDevices,
  newPlace,
  type Place,
  uploadFloorPlan,
} from '../../functions/test/platform/devices-fixtures';
import '../../functions/test/support/provided';
import { launchBrowser, open, reload, screenshot, signIn } from './browser';

const stack = inject('stack');
let browser: Browser;
let place: Place;
let admin: { email: string; password: string };
let ieqId: string;
let unregisteredId: string;
let motionId: string;
let lightId: string;
/** The gateway the registered devices report through (Sensor-Node(link)). */
const gatewayId = newDevId();
const minute = 60_000;

/** A plan of rooms, 900 x 600 user units. */
const planSvg = (title: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 900 600" width="900" height="600"><title>${title}</title>` +
  `<rect width="900" height="600" fill="#fff"/>` +
  [
    [20, 20, 420, 280, 'Open Office'],
    [440, 20, 440, 280, 'Meeting Room'],
    [20, 300, 420, 280, 'Kitchen'],
    [440, 300, 440, 280, 'Plant Room'],
  ]
    .map(
      ([x, y, w, h, name]) =>
        `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="#f7f8fa" stroke="#5f6b7a" stroke-width="3"/>` +
        `<text x="${Number(x) + 12}" y="${Number(y) + 26}" font-family="sans-serif" font-size="16" fill="#3d4753">${name}</text>`,
    )
    .join('') +
  `</svg>`;

beforeAll(async () => {
  browser = await launchBrowser();
  place = await newPlace('Floor View Org');
  const now = Date.now();
  const [gateway, ieq, motion, light, unregistered] = await newDevices(
    place,
    [
      {
        devID: gatewayId,
        devType: 0,
        devName: 'GatewayMain',
        lastSeen: now - minute,
        floorOrigin: { x: 0.5, y: 0.5 },
      },
      {
        devType: 5,
        devName: 'MeetingRoomSensorNorthWing',
        gatewayID: gatewayId,
        floorOrigin: { x: 0.7, y: 0.25 },
        dataPoints: [
          { dp: 'temp', dn: 'Temperature' },
          { dp: 'hum', dn: 'Humidity' },
          { dp: 'pressure', dn: 'AtmosphericPressure' },
        ],
        properties: { volt: 3.3 },
        latest: { temp: 22.46, hum: 45, pressure: 101325 },
        lastSeen: now - 5 * minute,
      },
      {
        devType: 4,
        devName: 'MotionKitchen',
        gatewayID: gatewayId,
        floorOrigin: { x: 0.25, y: 0.7 },
        dataPoints: [{ dp: 'mState', dn: 'Motion' }],
        latest: { mState: 1 },
        lastSeen: now - 2 * minute,
      },
      {
        devType: 1,
        devName: 'LightsOffice',
        gatewayID: gatewayId,
        connDev: 'light',
        port: 2,
        floorOrigin: { x: 0.25, y: 0.25 },
        properties: { volt: 3.31, conndev: 'powernode' },
        lastSeen: now - 3 * minute,
      },
      { devType: 5, devName: 'NewSensor', floorOrigin: { x: 0.75, y: 0.75 } },
    ],
    place.floorId,
  );
  if (!gateway || !ieq || !motion || !light || !unregistered) throw new Error('devices were not created');
  motionId = motion.devID;
  lightId = light.devID;
  ieqId = ieq.devID;
  unregisteredId = unregistered.devID;
  const owner = await createUser({ [place.orgId]: 2 });
  admin = owner;
  const token = (await apiSignIn(owner.email, owner.password)).accessToken;
  await uploadFloorPlan(token, place, planSvg('Level 1'));
});

afterAll(async () => {
  await browser?.close();
});

const floorUrl = (floorId: string) => `${stack.url}/home?floor=${floorId}`;
const marker = (page: Page, devID: string) =>
  page.locator(`[data-testid="floor-plan-stage"] [data-devid="${devID}"]`);
const viewport = (page: Page) => page.getByTestId('floor-plan-viewport');
const zoomOf = async (page: Page) => Number(await viewport(page).getAttribute('data-zoom'));

async function openFloor(
  context: BrowserContext,
  user: { email: string; password: string },
  floorId: string,
) {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, stack.url, user.email, user.password);
  await page.goto(floorUrl(floorId), { waitUntil: 'commit' });
  return { page, errors };
}

/** The plan image has loaded and the devices are on it. */
async function planShown(page: Page) {
  await page.waitForFunction(() => {
    const image = document.querySelector<HTMLImageElement>('[data-testid="floor-plan-stage"] img');
    return image !== null && image.complete && image.naturalWidth > 0;
  });
}

describe('the floor view in the browser', () => {
  it('shows the plan with its devices, the legend, the list and the popups', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, errors } = await openFloor(context, admin, place.floorId);
    await planShown(page);
    expect(await page.locator('[data-testid="floor-plan-stage"] [data-devid]').count()).toBe(5);
    const legend = page.getByRole('group', { name: 'Legend' });
    await legend.getByText('Motion Sensors: Occupied').waitFor();
    await legend.getByText('Motion Sensors: Unoccupied').waitFor();
    await legend.getByText('IEQ Sensors').waitFor();
    await page.getByRole('heading', { name: 'Devices (5)' }).waitFor();
    // Finding a device: the heading counts the matches; none is said in words.
    const find = page.getByRole('searchbox', { name: 'Find a device' });
    await find.fill('motion');
    await page.getByRole('heading', { name: 'Devices (1 of 5)' }).waitFor();
    await find.fill('zzz');
    await page.getByRole('heading', { name: 'Devices (0 of 5)' }).waitFor();
    await page.getByText('No device on this floor has a name or id with “zzz”.').waitFor();
    await find.fill('');
    await page.getByRole('heading', { name: 'Devices (5)' }).waitFor();

    // The popup of a registered IEQ sensor: the name cut at 20, voltage 2 decimals, readings 1, kPa.
    await marker(page, ieqId).hover();
    const popup = page.getByTestId('device-popup');
    await popup.waitFor();
    expect(await popup.locator('strong').textContent()).toBe('MeetingRoomSensorNor…');
    const text = await popup.textContent();
    expect(text).toContain('3.30 V');
    expect(text).toContain('22.5 °C');
    expect(text).toContain('45.0 %');
    expect(text).toContain('101.3 kPA');
    expect(text).toContain('5m ago');
    expect(text).toContain('Online');
    // Its id is read whole, on one line, even beside a long label (AtmosphericPressure).
    const idLine = popup.getByText(ieqId, { exact: true });
    const lineHeight = await idLine.evaluate((dd) => parseFloat(getComputedStyle(dd).lineHeight));
    expect((await idLine.boundingBox())?.height).toBeLessThan(lineHeight * 1.5);
    await screenshot(page, 'floor-view-popup-registered');

    // An unregistered device says so.
    await marker(page, unregisteredId).hover();
    await popup.getByText('Unregistered').waitFor();
    expect(await popup.textContent()).toContain('This device has not reported yet.');
    await screenshot(page, 'floor-view-popup-unregistered');

    // Keyboard: focusing a device in the list shows its popup; Enter selects it and pins it.
    const row = page.getByRole('button', { name: /MeetingRoomSensorNor/ });
    await row.focus();
    await popup.getByText('MeetingRoomSensorNor…').waitFor();
    await page.keyboard.press('Enter');
    await page.locator(`[data-testid="floor-plan-stage"] [data-devid="${ieqId}"][data-selected]`).waitFor();
    await screenshot(page, 'floor-view-selected');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('draws a line from each device to the gateway it reports through with Sensor-Node(link), and names it in the device', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, errors } = await openFloor(context, admin, place.floorId);
    await planShown(page);
    const lines = page.locator('[data-testid="device-links"] line');
    const toggle = async (name: string) => {
      await page.getByRole('button', { name: 'OPTIONS', exact: true }).click();
      await page.getByRole('menuitem', { name }).click();
    };
    expect(await lines.count()).toBe(0);
    await toggle('Sensor-Node(link)');
    await expect.poll(() => lines.count()).toBe(3);
    // Every link is drawn here: nothing to say in words.
    expect(await page.getByText(/through a gateway on another floor|names the gateway/).count()).toBe(0);
    // From the IEQ sensor, the motion sensor and the light to the gateway (0.5, 0.5); none from the
    // device that never reported and has no gateway.
    const ends = await lines.evaluateAll((all) =>
      all.map((l) => ['x1', 'y1', 'x2', 'y2'].map((a) => Number(l.getAttribute(a)))).sort(),
    );
    expect(ends).toEqual([
      [0.25, 0.25, 0.5, 0.5],
      [0.25, 0.7, 0.5, 0.5],
      [0.7, 0.25, 0.5, 0.5],
    ]);
    // The lines meet the gateway's marker on screen.
    const gatewayBox = await marker(page, gatewayId).boundingBox();
    const lineBoxes = await lines.evaluateAll((all) =>
      all.map((l) => {
        const r = l.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      }),
    );
    if (!gatewayBox) throw new Error('no gateway marker');
    const centre = { x: gatewayBox.x + gatewayBox.width / 2, y: gatewayBox.y + gatewayBox.height / 2 };
    for (const box of lineBoxes) {
      expect(centre.x).toBeGreaterThanOrEqual(box.left - 2);
      expect(centre.x).toBeLessThanOrEqual(box.right + 2);
      expect(centre.y).toBeGreaterThanOrEqual(box.top - 2);
      expect(centre.y).toBeLessThanOrEqual(box.bottom + 2);
    }
    await screenshot(page, 'floor-view-links');
    // Gateways hidden by Filters are still on this floor: their devices keep their lines, and no
    // device is said to report through another floor.
    await page.getByRole('button', { name: 'OPTIONS', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Filters' }).click();
    const filters = page.getByRole('dialog', { name: 'Filters' });
    await filters.getByText('Gateway', { exact: true }).click();
    await marker(page, gatewayId).waitFor({ state: 'detached' });
    expect(await lines.count()).toBe(3);
    expect(await page.getByText(/through a gateway on another floor/).count()).toBe(0);
    await filters.getByText('Gateway', { exact: true }).click();
    await page.getByRole('button', { name: 'Close filters' }).click();
    // The link view is a way of looking at every floor: it is still on when the floor opens again.
    await reload(page);
    await planShown(page);
    await expect.poll(() => lines.count()).toBe(3);
    await toggle('Sensor-Node(link) (on)');
    await expect.poll(() => lines.count()).toBe(0);
    await reload(page);
    await planShown(page);
    expect(await lines.count()).toBe(0);
    // A device's configuration names its gateway, with the gateway's status.
    await marker(page, ieqId).click();
    const facts = page.getByRole('region', { name: /Device configuration/ }).locator('dl');
    await facts.getByText('Gateway', { exact: true }).waitFor();
    expect(await facts.locator('dt:text-is("Gateway") + dd').textContent()).toBe('GatewayMain (Online)');
    expect(await facts.locator('dt:text-is("Type") + dd').textContent()).toBe('IEQ Sensors');
    await screenshot(page, 'floor-view-device-gateway');
    await page.getByRole('button', { name: 'Close device configuration' }).click();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('names a gateway on another floor with its status and floor, in words and in the device', async () => {
    const upstairs = await newPlace('Gateway Downstairs Org');
    const [gateway] = await newDevices(
      upstairs,
      [
        {
          devType: 0,
          devName: 'GatewayGround',
          lastSeen: Date.now() - minute,
          floorOrigin: { x: 0.5, y: 0.5 },
        },
      ],
      upstairs.floorId,
    );
    const [sensor] = await newDevices(
      upstairs,
      [
        {
          devType: 5,
          devName: 'SensorUpstairs',
          gatewayID: gateway?.devID,
          floorOrigin: { x: 0.4, y: 0.4 },
          lastSeen: Date.now() - minute,
        },
      ],
      upstairs.floor2Id,
    );
    if (!gateway || !sensor) throw new Error('devices were not created');
    const owner = await createUser({ [upstairs.orgId]: 2 });
    const token = (await apiSignIn(owner.email, owner.password)).accessToken;
    await uploadFloorPlan(token, { ...upstairs, floorId: upstairs.floor2Id }, planSvg('Level 2'));
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, errors } = await openFloor(context, owner, upstairs.floor2Id);
    await planShown(page);
    await page.getByRole('button', { name: 'OPTIONS', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Sensor-Node(link)' }).click();
    await page.getByText('1 device reports through a gateway on another floor.').waitFor();
    await marker(page, sensor.devID).click();
    const facts = page.getByRole('region', { name: /Device configuration/ }).locator('dl');
    await facts.getByText('Gateway', { exact: true }).waitFor();
    expect(await facts.locator('dt:text-is("Gateway") + dd').textContent()).toBe(
      'GatewayGround (Online), on Level 1',
    );
    await screenshot(page, 'floor-view-gateway-elsewhere');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps one mode at a time: compare IEQ refuses a device with itself, grouping refuses mixed types', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, errors } = await openFloor(context, admin, place.floorId);
    await planShown(page);
    const options = page.getByRole('button', { name: 'OPTIONS', exact: true });
    await options.click();
    // Every item of the menu in one type size.
    const sizes = await page
      .getByRole('menuitem')
      .evaluateAll((items) => items.map((item) => getComputedStyle(item).fontSize));
    expect(sizes.length).toBeGreaterThanOrEqual(6);
    expect(new Set(sizes).size).toBe(1);
    await page.getByRole('menuitem', { name: 'Compare IEQ Devices' }).click();
    await page.getByText('Compare IEQ Devices: select the first IEQ sensor.').waitFor();
    await marker(page, ieqId).click();
    await marker(page, ieqId).click();
    await page.getByRole('alert').getByText("Device can't be compare to itself.").waitFor();
    await marker(page, motionId).click();
    await page.getByRole('alert').getByText('Please select the same type of device.').waitFor();
    await screenshot(page, 'floor-view-compare');
    // Both chosen: the comparison opens in the sensor page (flooredit's hand-off); back to the floor.
    await marker(page, unregisteredId).click();
    await page.waitForURL((url) => !url.search.includes(place.floorId));
    await page.goBack();
    await planShown(page);

    // Entering grouping ends the comparison.
    await options.click();
    await page.getByRole('menuitem', { name: 'Group Devices', exact: true }).click();
    expect(await page.locator('[data-testid="floor-plan-stage"] [data-mark]').count()).toBe(0);
    await marker(page, lightId).click();
    await marker(page, motionId).click();
    await page.getByRole('alert').getByText('Please select the same type of device.').waitFor();
    expect(await page.locator('[data-testid="floor-plan-stage"] [data-mark="selected"]').count()).toBe(1);
    await page.getByText(/Selected: 1\./).waitFor();
    await screenshot(page, 'floor-view-grouping');
    await page.keyboard.press('Escape');
    await page.getByText(/Selected: 1\./).waitFor({ state: 'detached' });

    // Floor details: the counts, in a panel that moves with the arrow keys.
    await page.getByRole('button', { name: 'Floor details' }).click();
    const details = page.getByRole('region', { name: 'Floor details' });
    await details.getByText('Devices', { exact: true }).waitFor();
    await details.getByRole('group').press('ArrowRight');
    await screenshot(page, 'floor-view-details');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('hides a device type and resizes its icons from Filters, and keeps both after a reload', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, errors } = await openFloor(context, admin, place.floorId);
    await planShown(page);
    await page.getByRole('button', { name: 'OPTIONS', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Filters' }).click();
    const filters = page.getByRole('dialog', { name: 'Filters' });
    await filters.getByText('Motion Sensors', { exact: true }).click();
    expect(await filters.getByRole('checkbox', { name: 'Motion Sensors' }).isChecked()).toBe(false);
    await page.locator('[data-testid="floor-plan-stage"] [data-devtype="4"]').waitFor({ state: 'detached' });

    const before = await marker(page, ieqId).boundingBox();
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/dashboard/updateSensorSize'));
    await filters.getByRole('slider', { name: 'IEQ Sensors icon size' }).focus();
    await page.keyboard.press('ArrowRight');
    expect((await saved).status()).toBe(200);
    // The specification's text for a saved value.
    await page.getByText('Value save successfuly.', { exact: true }).waitFor();
    const after = await marker(page, ieqId).boundingBox();
    expect(after && before && after.width / before.width).toBeCloseTo(1.5, 1);
    await screenshot(page, 'floor-view-filters');

    await reload(page);
    await planShown(page);
    expect(await page.locator('[data-testid="floor-plan-stage"] [data-devtype="4"]').count()).toBe(0);
    const reloaded = await marker(page, ieqId).boundingBox();
    expect(reloaded && before && reloaded.width / before.width).toBeCloseTo(1.5, 1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('zooms with the buttons and the keyboard, and keeps the zoom after a reload', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, errors } = await openFloor(context, admin, place.floorId);
    await planShown(page);
    expect(await zoomOf(page)).toBe(1);
    const unzoomed = await marker(page, ieqId).boundingBox();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    expect(await zoomOf(page)).toBe(1.21);
    await viewport(page).focus();
    await page.keyboard.press('-');
    expect(await zoomOf(page)).toBe(1.089);
    await page.keyboard.press('+');
    expect(await zoomOf(page)).toBe(1.198);
    // Icons keep their size whatever the zoom.
    const zoomed = await marker(page, ieqId).boundingBox();
    expect(zoomed?.width).toBeCloseTo(unzoomed?.width ?? 0, 0);
    await page.waitForFunction(
      (key) => (localStorage.getItem(key) ?? '').includes('"zoom":1.198'),
      `argentum.floorView.${place.floorId}`,
    );
    await screenshot(page, 'floor-view-zoomed');
    await reload(page);
    await planShown(page);
    expect(await zoomOf(page)).toBe(1.198);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('zooms with a pinch and pans with a drag on a touch screen', async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 1000 }, hasTouch: true });
    const { page, errors } = await openFloor(context, admin, place.floorId);
    await planShown(page);
    await page.evaluate((key) => localStorage.removeItem(key), `argentum.floorView.${place.floorId}`);
    await reload(page);
    await planShown(page);
    const box = await viewport(page).boundingBox();
    if (!box) throw new Error('no viewport');
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    const cdp = await context.newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', spread: number) =>
      cdp.send('Input.dispatchTouchEvent', {
        type,
        touchPoints:
          type === 'touchEnd'
            ? []
            : [
                { x: cx - spread, y: cy, id: 1 },
                { x: cx + spread, y: cy, id: 2 },
              ],
      });
    await touch('touchStart', 40);
    for (const spread of [50, 60, 70, 80]) await touch('touchMove', spread);
    await touch('touchEnd', 80);
    await page.waitForFunction(() => {
      const zoom = Number(
        document.querySelector('[data-testid="floor-plan-viewport"]')?.getAttribute('data-zoom'),
      );
      return zoom > 1.8 && zoom < 2.2;
    });
    await screenshot(page, 'floor-view-pinched');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a read-only user no edit, upload or group options', async () => {
    const viewer = await createUser({ [place.orgId]: 0 });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, errors } = await openFloor(context, viewer, place.floorId);
    await planShown(page);
    await page.getByRole('button', { name: 'OPTIONS', exact: true }).click();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'Filters' }).waitFor();
    const items = await menu.getByRole('menuitem').allTextContents();
    expect(items).toEqual(['Compare IEQ Devices', 'Filters', 'Sensor-Node(link)']);
    await screenshot(page, 'floor-view-read-only-menu');
    await page.keyboard.press('Escape');
    // A floor without a plan: no upload panel for them either.
    await page.goto(floorUrl(place.floor2Id), { waitUntil: 'commit' });
    await page.getByRole('button', { name: 'OPTIONS', exact: true }).waitFor();
    expect(await page.getByTestId('plan-drop-zone').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
  it('shows BACnet and air-flow readings with their units, and names a type the same on the floor and the sensor page', async () => {
    const unitsPlace = await newPlace('Units Org');
    const now = Date.now();
    const [bacnet, airflow, thermostat] = await newDevices(
      unitsPlace,
      [
        {
          devType: 7,
          devName: 'BacnetAHU',
          floorOrigin: { x: 0.3, y: 0.6 },
          dataPoints: [
            { dp: 'sat', dn: 'SupplyAirTemp' },
            { dp: 'setpoint', dn: 'SetPoint' },
          ],
          latest: { sat: 18.24, setpoint: 21 },
          lastSeen: now - minute,
        },
        {
          devType: 9,
          devName: 'AirFlowDuct',
          floorOrigin: { x: 0.6, y: 0.6 },
          dataPoints: [{ dp: 'velocity', dn: 'AirVelocity' }],
          latest: { velocity: 1.26 },
          lastSeen: now - minute,
        },
        {
          devType: 8,
          devName: 'ThermostatHall',
          connDev: 'honeywell',
          floorOrigin: { x: 0.8, y: 0.6 },
          dataPoints: [{ dp: 'temp', dn: 'Temperature' }],
          lastSeen: now - minute,
        },
      ],
      unitsPlace.floorId,
    );
    if (!bacnet || !airflow || !thermostat) throw new Error('devices were not created');
    const owner = await createUser({ [unitsPlace.orgId]: 2 });
    const token = (await apiSignIn(owner.email, owner.password)).accessToken;
    await uploadFloorPlan(token, unitsPlace, planSvg('Level U'));
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const { page, errors } = await openFloor(context, owner, unitsPlace.floorId);
    await planShown(page);
    const popup = page.getByTestId('device-popup');
    await marker(page, bacnet.devID).hover();
    await popup.getByText('BacnetAHU').waitFor();
    expect(await popup.textContent()).toContain('18.2 °C');
    expect(await popup.textContent()).toContain('21.0 °C');
    await screenshot(page, 'floor-view-popup-bacnet');
    await marker(page, airflow.devID).hover();
    await popup.getByText('AirFlowDuct').waitFor();
    expect(await popup.textContent()).toContain('1.3 m/s');
    // The floor's legend and the sensor page name type 8 from the one table.
    await page
      .getByRole('group', { name: 'Legend' })
      .getByText('Third-party Devices', { exact: true })
      .waitFor();
    await open(page, `${stack.url}/home/sensor/${encodeURIComponent(thermostat.devID)}`);
    await page.getByText(`Third-party Devices · ${thermostat.devID}`, { exact: true }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens the upload panel on a floor without a plan, and shows the plan once uploaded', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, errors } = await openFloor(context, admin, place.floor2Id);
    const zone = page.getByTestId('plan-drop-zone');
    await zone.waitFor();
    await page.getByText('This floor has no floor plan yet.').waitFor();
    await screenshot(page, 'floor-view-upload-panel');
    // Not an SVG: refused before anything is sent.
    await page.getByTestId('plan-file-input').setInputFiles({
      name: 'plan.png',
      mimeType: 'image/png',
      buffer: Buffer.from('not a plan'),
    });
    await page.getByRole('alert').getByText('Please upload an SVG file.').waitFor();
    await page.getByTestId('plan-file-input').setInputFiles({
      name: 'level-2.svg',
      mimeType: 'image/svg+xml',
      buffer: Buffer.from(planSvg('Level 2')),
    });
    await page.getByRole('status').getByText('Floor plan uploaded successfully.', { exact: true }).waitFor();
    await planShown(page);
    await screenshot(page, 'floor-view-uploaded');
    expect(errors).toEqual([]);
    await context.close();
  });
});

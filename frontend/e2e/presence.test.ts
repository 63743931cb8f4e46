import { topics } from '@argentum/contracts/messaging';
import { DEVICE_OFFLINE_HINT_TEXT } from '@argentum/contracts';
import type { MqttClient } from 'mqtt';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newDevices, type Place } from '../../functions/test/platform/devices-fixtures';
import {
  call,
  createUser,
  mailsTo,
  signIn as apiSignIn,
  type TestUser,
} from '../../functions/test/support/api';
import { deviceConnection } from '../../functions/test/support/control';
import { sweepWatched } from '../../functions/test/support/presence-sweep';
import '../../functions/test/support/provided';
import { launchBrowser, newTestPage, open, screenshot, signIn } from './browser';
import { newPlaceWithPlan } from './places';

const stack = inject('stack');
let browser: Browser;
let place: Place;
let lightId: string;
/** The time the light's clock gave its reading (40 minutes behind the broker's). */
let lightReadAt: number;
let editor: TestUser;
let admin: TestUser;
let firmware: MqttClient;

const PLAN_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 900 600" width="900" height="600">' +
  '<rect width="900" height="600" fill="#fff"/>' +
  '<rect x="20" y="20" width="860" height="560" fill="#f7f8fa" stroke="#5f6b7a" stroke-width="3"/>' +
  '<text x="32" y="46" font-family="sans-serif" font-size="16" fill="#3d4753">East Wing</text></svg>';

beforeAll(async () => {
  browser = await launchBrowser();
  place = await newPlaceWithPlan('Presence Org', PLAN_SVG);
  const [light] = await newDevices(
    place,
    [
      {
        devName: 'DeskLight',
        devType: 1,
        connDev: 'light',
        port: 0,
        dataPoints: [{ dp: 'bri', dn: 'Brightness' }],
        floorOrigin: { x: 0.4, y: 0.5 },
      },
    ],
    place.floorId,
  );
  if (!light) throw new Error('no light');
  lightId = light.devID;
  editor = await createUser(1, [place.orgId], 'Erin Editor');
  admin = await createUser(2, [place.orgId], 'Ada Admin');
  firmware = await deviceConnection(place.orgId, lightId);
  // Its reading makes it online, though its clock runs 40 minutes behind (a light's silence limit is
  // 30): the server counts from when the broker heard it.
  lightReadAt = Date.now() - 40 * 60_000;
  await firmware.publishAsync(
    topics.sensorData(place.orgId, lightId),
    JSON.stringify({ devID: lightId, devType: 1, time: lightReadAt, values: { bri: 30 } }),
    { qos: 1 },
  );
});

afterAll(async () => {
  await firmware?.endAsync();
  await browser?.close();
});

const marker = (page: Page) => page.locator(`[data-testid="floor-plan-stage"] [data-devid="${lightId}"]`);
const listRow = (page: Page) =>
  page.getByRole('region', { name: 'Devices on this floor' }).locator(`[data-devid="${lightId}"]`);
const listStatus = (page: Page) => listRow(page).locator('[data-status]');
const detail = (page: Page, term: string) =>
  page
    .getByRole('region', { name: 'Floor details' })
    .locator(`xpath=.//dt[normalize-space(.)="${term}"]/following-sibling::dd[1]`);

describe('presence in the browser', () => {
  it('a device announcing itself offline turns offline on the plan, list and counts at once; a command to it answers Device Offline', async () => {
    const { context, page, errors } = await newTestPage(browser, { viewport: { width: 1440, height: 900 } });
    await signIn(page, stack.url, editor.email, editor.password);
    await open(page, `${stack.url}/home?floor=${place.floorId}`);
    await page.getByTestId('floor-plan-stage').locator('img').waitFor();
    await expect.poll(() => listStatus(page).textContent()).toBe('Online');
    await page.getByRole('button', { name: 'Floor details' }).click();
    await expect.poll(() => detail(page, 'Offline').textContent()).toBe('0');
    expect(await marker(page).getAttribute('data-offline')).toBeNull();
    // Its popup's "Last seen" is when the server heard it, not its clock's time.
    await marker(page).hover();
    const lastSeen = page
      .getByTestId('device-popup')
      .locator('xpath=.//dt[normalize-space(.)="Last seen"]/following-sibling::dd[1]');
    await expect.poll(() => lastSeen.textContent()).toBe('0m ago');
    // And it tells that the device's clock is that far off.
    const clock = page
      .getByTestId('device-popup')
      .locator('xpath=.//dt[normalize-space(.)="Clock"]/following-sibling::dd[1]');
    expect(await clock.textContent()).toBe('40m behind');
    await screenshot(page, 'presence-online-popup');
    await page.mouse.move(1, 1);

    // The device's own word, published until the page has subscribed (its connection comes up
    // after the plan); from then on everything must follow within 2 s of the message.
    await expect
      .poll(
        async () => {
          await firmware.publishAsync(
            topics.controlFail(place.orgId),
            JSON.stringify({ action: 'fail', cmnd: 1, devID: lightId }),
            { qos: 1 },
          );
          return listStatus(page).textContent();
        },
        { timeout: 15_000 },
      )
      .toBe('Offline');
    await expect.poll(() => marker(page).getAttribute('data-offline'), { timeout: 2000 }).toBe('');
    await expect.poll(() => detail(page, 'Offline').textContent(), { timeout: 2000 }).toBe('1');
    // Its row in the list turns the plan's offline grey too, and its values say they are the last known.
    const row = listRow(page);
    const background = (element: Element) => getComputedStyle(element).backgroundColor;
    expect(await row.locator('[data-offline]').evaluate(background)).toBe(
      await marker(page).evaluate(background),
    );
    expect(await row.getByTitle('Last known, before it went offline').textContent()).toContain('30.0 %');
    expect(await detail(page, 'Online').textContent()).toBe('0');
    await screenshot(page, 'presence-offline-floor');

    // The popup says so too.
    await marker(page).hover();
    await expect
      .poll(() => page.getByTestId('device-popup').locator('[data-status]').textContent())
      .toBe('Offline');
    await screenshot(page, 'presence-offline-popup');

    // The drawer knows before sending; a command is answered 'Device Offline' at once (no 6 s wait).
    await marker(page).click();
    const drawer = page.getByRole('region', { name: /Device configuration/ });
    await drawer.getByText(DEVICE_OFFLINE_HINT_TEXT, { exact: false }).waitFor();
    const panel = drawer.getByRole('region', { name: 'Light brightness' });
    const slider = panel.getByRole('slider', { name: 'Brightness' });
    await slider.waitFor();
    const box = await panel.locator('.amplify-sliderfield__root').boundingBox();
    if (!box) throw new Error('no slider');
    await page.mouse.click(box.x + box.width * 0.7, box.y + box.height / 2);
    await page
      .getByRole('status')
      .getByText('Device Offline', { exact: true })
      .first()
      .waitFor({ timeout: 2000 });
    await screenshot(page, 'presence-offline-command');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the offline alarm's notification and mail open the device on its floor, selected", async () => {
    // The grace period (10 minutes) has passed: the sweep, at that time, for this organization only.
    await sweepWatched((d) => d.orgID === place.orgId, Date.now() + 11 * 60_000);
    await expect.poll(async () => (await mailsTo(admin.email)).length, { timeout: 15_000 }).toBe(1);
    const [mail] = await mailsTo(admin.email);
    const link = /View Device: (\S+)/.exec(mail?.text ?? '')?.[1];
    expect(link).toBe(
      `http://localhost:${new URL(stack.url).port}/home?floor=${place.floorId}&highlight=${lightId}`,
    );

    const { context, page, errors } = await newTestPage(browser, { viewport: { width: 1440, height: 900 } });
    await signIn(page, stack.url, admin.email, admin.password);
    // The bell's notification names the device; 'View Device' opens its floor with it selected.
    await page.getByRole('button', { name: /Notifications, 1 unread/ }).click();
    const popover = page.getByRole('dialog', { name: 'Notifications' });
    await popover.getByText('DeskLight: Device Offline').waitFor();
    await screenshot(page, 'presence-alarm-notification');
    await popover.getByRole('button', { name: 'View Device' }).first().click();
    await page.waitForURL(new RegExp(`floor=${place.floorId}`));
    const popup = page.getByTestId('device-popup');
    await popup.getByText('DeskLight').waitFor();
    expect(await popup.locator('[data-status]').textContent()).toBe('Offline');
    await screenshot(page, 'presence-alarm-view-device');

    // The mail's link does the same from outside the app.
    await open(page, `${stack.url}/home?floor=${place.floorId}&highlight=${lightId}`);
    await page.getByTestId('device-popup').getByText('DeskLight').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("lets an organization's admin set the offline grace period and the unplaced-device opt-in", async () => {
    const { context, page, errors } = await newTestPage(browser, { viewport: { width: 1440, height: 900 } });
    // The organization tree answers only once the Alarms tab is open, as on a slow connection: the
    // administrator's only organization is then chosen all the same.
    const treeCall = '**/api/dashboard/getUsersOrganisations';
    const held: Route[] = [];
    await page.route(treeCall, (route) => void held.push(route));
    await signIn(page, stack.url, admin.email, admin.password);
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Platform Settings' });
    await settings.getByRole('tab', { name: 'Alarms' }).click();
    const form = settings.getByRole('form', { name: 'Offline alarms' });
    await settings.getByRole('combobox', { name: 'Organization' }).waitFor();
    expect(await form.count()).toBe(0);
    await expect.poll(() => held.length).toBeGreaterThanOrEqual(1);
    for (const route of held.splice(0)) await route.continue();
    await page.unroute(treeCall);
    const grace = form.getByLabel('Offline grace period (minutes)');
    // The defaults until the organization sets its own.
    await expect.poll(() => grace.inputValue()).toBe('10');
    const unplaced = form.getByLabel(
      'Also raise offline alarms for devices on no floor (spares, not yet placed)',
    );
    expect(await unplaced.isChecked()).toBe(false);
    // Comfort alarms follow the floor's occupancy, and no setting: the form says so.
    await form
      .getByText(/^Comfort alarms \(a reading out of its comfort zone for 10 minutes\) are raised only while/)
      .waitFor();
    await grace.fill('5');
    // Amplify draws its own box over the input: the label is what a user clicks.
    await form
      .getByText('Also raise offline alarms for devices on no floor (spares, not yet placed)')
      .click();
    expect(await unplaced.isChecked()).toBe(true);
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Alarm settings saved.', { exact: true }).waitFor();
    await screenshot(page, 'presence-alarm-settings');
    const token = (await apiSignIn(admin.email, admin.password)).accessToken;
    const stored = await call('/api/notification/getAlarmSettings', { orgID: place.orgId }, { token });
    expect(stored.body).toEqual({ orgID: place.orgId, offlineGraceMinutes: 5, alarmUnplacedDevices: true });
    // An editor may not change them.
    const editorToken = (await apiSignIn(editor.email, editor.password)).accessToken;
    const refused = await call(
      '/api/notification/setAlarmSettings',
      { orgID: place.orgId, offlineGraceMinutes: 0, alarmUnplacedDevices: false },
      { token: editorToken },
    );
    expect(refused.status).toBe(403);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the sensor page of a device whose clock runs behind says so: its graph carries that clock's times", async () => {
    const { context, page, errors } = await newTestPage(browser, { viewport: { width: 1440, height: 900 } });
    await signIn(page, stack.url, editor.email, editor.password);
    // The page opens on today, and the reading lies at the light's own time: in the first 40 minutes
    // after midnight that is yesterday. The browser's day is the reading's.
    await page.clock.setFixedTime(lightReadAt + 60_000);
    await open(page, `${stack.url}/home/sensor/${encodeURIComponent(lightId)}`);
    await page.getByRole('heading', { name: 'DeskLight', level: 1 }).waitFor();
    expect(await page.getByRole('note').textContent()).toBe(
      "This device's clock runs 40m behind: its readings are shown at its own times.",
    );
    await page.getByTestId('sensor-graph').locator('canvas').first().waitFor();
    await screenshot(page, 'presence-sensor-clock-behind');
    expect(errors).toEqual([]);
    await context.close();
  });
});

import { topics } from '@argentum/events';
import { BACK_ONLINE_TEXT, OFFLINE_TEXT, type RealtimeTokenView } from '@argentum/events/contracts';
import { iotConnectionCloser } from '@argentum/functions/adapters/iot-connections';
import { iotNotificationPublisher } from '@argentum/functions/adapters/notification-publisher';
import { raiseNotification } from '@argentum/functions/domain/notifications/notifications';
import { dynamoConnectionRegistry } from '@argentum/functions/stores/connections';
import { dynamoNotificationStore } from '@argentum/functions/stores/notifications';
import { dynamoUserStore } from '@argentum/functions/stores/users';
import type { MqttClient } from 'mqtt';
import { deviceConnection } from '../../functions/test/support/control';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call, createUser, signIn as apiSignIn } from '../../functions/test/support/api';
import { newDevices, newPlace, type Place } from '../../functions/test/platform/devices-fixtures';
import '../../functions/test/support/provided';
import { launchBrowser, screenshot, signIn } from './browser';

const stack = inject('stack');
let browser: Browser;
let device: MqttClient;
let place: Place;
let sensorId: string;
let member: { userId: string; email: string; password: string };

const planSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 900 600" width="900" height="600">' +
  '<rect width="900" height="600" fill="#fff"/>' +
  '<rect x="20" y="20" width="860" height="560" fill="#f7f8fa" stroke="#5f6b7a" stroke-width="3"/>' +
  '<text x="32" y="46" font-family="sans-serif" font-size="16" fill="#3d4753">Open Office</text></svg>';

/** The plan upload as the browser does it: presigned form, straight to storage, then commit. */
async function uploadPlan(token: string) {
  const file = new Blob([planSvg], { type: 'image/svg+xml' });
  const form = await call<{ url: string; fields: Record<string, string>; key: string }>(
    '/api/dashboard/createFloorPlanUpload',
    { orgID: place.orgId, floorID: place.floorId, contentType: 'image/svg+xml', size: file.size },
    { token },
  );
  expect(form.status).toBe(200);
  const body = new FormData();
  for (const [name, value] of Object.entries(form.body.fields)) body.append(name, value);
  body.append('file', file);
  expect((await fetch(form.body.url, { method: 'POST', body })).status).toBeLessThan(300);
  const commit = await call(
    '/api/dashboard/updateFloorPlanS3',
    { orgID: place.orgId, floorID: place.floorId, floorplan: form.body.key },
    { token },
  );
  expect(commit.status).toBe(200);
}

beforeAll(async () => {
  browser = await launchBrowser();
  place = await newPlace('Live Org');
  const [sensor] = await newDevices(
    place,
    [
      {
        devType: 5,
        devName: 'LobbySensor',
        floorOrigin: { x: 0.5, y: 0.5 },
        dataPoints: [
          { dp: 'temp', dn: 'Temperature' },
          { dp: 'hum', dn: 'Humidity' },
        ],
        latest: { temp: 22.46, hum: 45 },
        lastSeen: Date.now() - 60_000,
      },
    ],
    place.floorId,
  );
  if (!sensor) throw new Error('no sensor');
  sensorId = sensor.devID;
  const admin = await createUser({ [place.orgId]: 2 });
  await uploadPlan((await apiSignIn(admin.email, admin.password)).accessToken);
  member = await createUser({ [place.orgId]: 1 });
  // The sensor publishes as itself: the broker binds a connection to one device of one organization.
  device = await deviceConnection(place.orgId, sensorId);
});

afterAll(async () => {
  await device?.endAsync();
  await browser?.close();
});

const publishReading = (temp: number) =>
  device.publishAsync(
    topics.sensorData(place.orgId, sensorId),
    JSON.stringify({ devID: sensorId, devType: 5, values: { temp, hum: 45 } }),
    { qos: 1 },
  );

/** The popup's text while the pointer rests on the sensor. */
async function popupText(page: Page): Promise<string> {
  await page.locator(`[data-testid="floor-plan-stage"] [data-devid="${sensorId}"]`).hover();
  return (await page.getByTestId('device-popup').textContent()) ?? '';
}

const banner = (page: Page, text: string) =>
  page.getByRole(text === OFFLINE_TEXT ? 'alert' : 'status').getByText(text);

describe('the real-time channel in the browser', () => {
  it('brings live values, notifications, and a reconnect with a fresh connection token after a lost connection', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // The MQTT CONNECT packets the page sends (their user name carries the signed connection token).
    const connectFrames: string[] = [];
    page.on('websocket', (socket) =>
      socket.on('framesent', ({ payload }) => {
        const bytes = typeof payload === 'string' ? Buffer.from(payload) : payload;
        if (bytes[0] === 0x10) connectFrames.push(bytes.toString('latin1'));
      }),
    );
    await signIn(page, stack.url, member.email, member.password);
    await page.goto(`${stack.url}/home?floor=${place.floorId}`, { waitUntil: 'commit' });
    await page.waitForFunction(() => {
      const image = document.querySelector<HTMLImageElement>('[data-testid="floor-plan-stage"] img');
      return image !== null && image.complete && image.naturalWidth > 0;
    });
    expect(await popupText(page)).toContain('22.5 °C');

    // A reading a device publishes changes the value on the open floor, without a reload. (Published
    // until it shows: the page subscribes once its connection is up.)
    await expect
      .poll(async () => {
        await publishReading(25.04);
        return popupText(page);
      })
      .toContain('25.0 °C');
    await screenshot(page, 'realtime-live-value');

    // A notification pushed to the organization raises the badge and is first in the list.
    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
    await raiseNotification(
      { notifications: dynamoNotificationStore, publisher: iotNotificationPublisher, users: dynamoUserStore },
      { orgId: place.orgId, type: 1, message: '<b>LobbySensor</b>: pushed live', time: Date.now() },
    );
    const bell = page.getByRole('button', { name: 'Notifications, 1 unread' });
    await bell.waitFor();
    await bell.click();
    const popover = page.getByRole('dialog', { name: 'Notifications' });
    await popover.getByText('pushed live').waitFor();
    await screenshot(page, 'realtime-notification-push');
    await page.keyboard.press('Escape');

    // The broker closes the connection (as IoT Core's DeleteConnection does). The reconnect waits for
    // a fresh connection token (held here): meanwhile the banner says the connection is lost.
    const held: Route[] = [];
    await page.route('**/api/realtimeToken', (route) => void held.push(route));
    const [connection] = await dynamoConnectionRegistry.ofUser(member.userId);
    if (!connection) throw new Error('the page has no recorded connection');
    const connectsBefore = connectFrames.length;
    await iotConnectionCloser.disconnect(connection.clientId);
    await banner(page, OFFLINE_TEXT).waitFor();
    await expect.poll(() => held.length).toBeGreaterThanOrEqual(1);
    await screenshot(page, 'realtime-connection-lost');
    expect(connectFrames.length).toBe(connectsBefore);

    // The fresh token comes: the page connects with it, and says it is back.
    const minted = page.waitForResponse('**/api/realtimeToken');
    for (const route of held.splice(0)) await route.continue();
    await page.unroute('**/api/realtimeToken');
    const { token, clientId } = (await (await minted).json()) as RealtimeTokenView;
    await banner(page, BACK_ONLINE_TEXT).waitFor();
    await screenshot(page, 'realtime-connection-back');
    expect(connectFrames.length).toBe(connectsBefore + 1);
    expect(connectFrames.at(-1)).toContain(token);
    expect(connectFrames[0]).not.toContain(token);
    // Same browser client id (web-<uuid>), bound to the token, and the live values flow again.
    expect(clientId).toBe(connection.clientId);
    expect(connection.clientId).toMatch(/^web-[0-9a-f-]{36}$/);
    expect(connectFrames.at(-1)).toContain(connection.clientId);
    await expect
      .poll(async () => {
        await publishReading(19.96);
        return popupText(page);
      })
      .toContain('20.0 °C');

    // The browser itself going offline shows the same banner, and coming back the same confirmation.
    await context.setOffline(true);
    await banner(page, OFFLINE_TEXT).waitFor();
    await context.setOffline(false);
    await banner(page, BACK_ONLINE_TEXT).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});

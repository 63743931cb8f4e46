import { topics } from '@argentum/contracts/messaging';
import {
  BACK_ONLINE_TEXT,
  LIVE_BACK_TEXT,
  LIVE_LOST_TEXT,
  OFFLINE_TEXT,
  type RealtimeTokenView,
} from '@argentum/contracts';
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
import {
  newDevices,
  newPlace,
  type Place,
  uploadFloorPlan,
} from '../../functions/test/platform/devices-fixtures';
import '../../functions/test/support/provided';
import { contentSecurityPolicy } from '../../infra/src/content-security-policy';
import { REALTIME_KEEPALIVE_SECONDS } from '../src/shared/config/runtimeConfig';
import { LOSS_GRACE_MS } from '../src/shared/realtime/backoff';
import { cspViolations, frameBytes, launchBrowser, newTestPage, screenshot, signIn } from './browser';

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
  await uploadFloorPlan((await apiSignIn(admin.email, admin.password)).accessToken, place, planSvg);
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

/** The keep-alive (seconds) a CONNECT packet asks for: the two bytes after protocol name, level and flags. */
function keepAliveOf(connect: Buffer): number {
  const name = connect.indexOf('MQTT', 0, 'latin1');
  return connect.readUInt16BE(name + 6);
}

/**
 * Publishes `temp` until the open floor's popup shows `shown` (published again while it does not: the
 * page subscribes once its connection is up).
 */
const showsPublished = (page: Page, temp: number, shown: string) =>
  expect
    .poll(async () => {
      await publishReading(temp);
      return popupText(page);
    })
    .toContain(shown);

const banner = (page: Page, text: string) =>
  page.getByRole(text === OFFLINE_TEXT || text === LIVE_LOST_TEXT ? 'alert' : 'status').getByText(text);

describe('the real-time channel in the browser', () => {
  it('brings live values, notifications, and a reconnect with a fresh connection token after a lost connection', async () => {
    const { context, page, errors } = await newTestPage(browser, { viewport: { width: 1280, height: 800 } });
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
    await showsPublished(page, 25.04, '25.0 °C');
    await screenshot(page, 'realtime-live-value');
    // The production keep-alive, set where the test below sets a short one.
    expect(keepAliveOf(Buffer.from(connectFrames[0] ?? '', 'latin1'))).toBe(REALTIME_KEEPALIVE_SECONDS);

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
    // a fresh connection token (held here): meanwhile the banner says live updates are interrupted
    // (not the specification's offline text: the user's network is fine).
    const held: Route[] = [];
    await page.route('**/api/realtimeToken', (route) => void held.push(route));
    const [connection] = await dynamoConnectionRegistry.ofUser(member.userId);
    if (!connection) throw new Error('the page has no recorded connection');
    const connectsBefore = connectFrames.length;
    await iotConnectionCloser.disconnect(connection.clientId);
    await banner(page, LIVE_LOST_TEXT).waitFor();
    expect(await page.getByText(OFFLINE_TEXT).count()).toBe(0);
    await expect.poll(() => held.length).toBeGreaterThanOrEqual(1);
    await screenshot(page, 'realtime-connection-lost');
    expect(connectFrames.length).toBe(connectsBefore);

    // A reading while the page is away: stored, and published live to nobody.
    await publishReading(27.04);
    const { accessToken } = await apiSignIn(member.email, member.password);
    await expect
      .poll(async () => {
        const { body } = await call<{ devices: { devID: string; latest?: { temp?: number } }[] }>(
          '/api/deviceControl/getAllDevicesDataForFloorPlan',
          { floorID: place.floorId, orgID: place.orgId, onFloor: true },
          { token: accessToken },
        );
        return body.devices.find((d) => d.devID === sensorId)?.latest?.temp;
      })
      .toBe(27.04);

    // The fresh token comes: the page connects with it, and says it is back.
    const minted = page.waitForResponse('**/api/realtimeToken');
    for (const route of held.splice(0)) await route.continue();
    await page.unroute('**/api/realtimeToken');
    const { token, clientId } = (await (await minted).json()) as RealtimeTokenView;
    await banner(page, LIVE_BACK_TEXT).waitFor();
    await screenshot(page, 'realtime-connection-back');
    expect(connectFrames.length).toBe(connectsBefore + 1);
    expect(connectFrames.at(-1)).toContain(token);
    expect(connectFrames[0]).not.toContain(token);
    // Same browser client id (web-<uuid>), bound to the token, and the live values flow again.
    expect(clientId).toBe(connection.clientId);
    expect(connection.clientId).toMatch(/^web-[0-9a-f-]{36}$/);
    expect(connectFrames.at(-1)).toContain(connection.clientId);
    // Back, the page reads the floor again: what it missed is shown without another message.
    await expect.poll(() => popupText(page)).toContain('27.0 °C');
    await showsPublished(page, 19.96, '20.0 °C');

    // The browser itself going offline shows the specification's banner, and its confirmation when back.
    await context.setOffline(true);
    await banner(page, OFFLINE_TEXT).waitFor();
    await context.setOffline(false);
    await banner(page, BACK_ONLINE_TEXT).waitFor();
    expect(await page.getByText(LIVE_BACK_TEXT).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('moves the Floor details occupancy as a motion sensor turns occupied and free', async () => {
    const [motion] = await newDevices(
      place,
      [
        {
          devType: 4,
          devName: 'MotionDesk',
          floorOrigin: { x: 0.2, y: 0.3 },
          dataPoints: [{ dp: 'mState', dn: 'Motion' }],
          latest: { mState: 0 },
          lastSeen: Date.now() - 60_000,
        },
      ],
      place.floorId,
    );
    if (!motion) throw new Error('no motion sensor');
    const sensor = await deviceConnection(place.orgId, motion.devID);
    const publishMotion = (mState: number) =>
      sensor.publishAsync(
        topics.sensorData(place.orgId, motion.devID),
        JSON.stringify({ devID: motion.devID, devType: 4, values: { mState } }),
        { qos: 1 },
      );
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signIn(page, stack.url, member.email, member.password);
    await page.goto(`${stack.url}/home?floor=${place.floorId}`, { waitUntil: 'commit' });
    await page.getByRole('button', { name: 'Floor details' }).click();
    const occupied = page
      .getByRole('region', { name: 'Floor details' })
      .locator('xpath=.//dt[normalize-space(.)="Occupied now"]/following-sibling::dd[1]');
    await expect.poll(() => occupied.textContent()).toBe('0');
    // Published until it shows (the page subscribes once its connection is up); the counts follow the
    // marker, with no reload and no presence change.
    for (const [mState, count] of [
      [1, '1'],
      [0, '0'],
    ] as const) {
      await expect
        .poll(async () => {
          await publishMotion(mState);
          return occupied.textContent();
        })
        .toBe(count);
      if (mState === 1) await screenshot(page, 'realtime-occupied-count');
    }
    await sensor.endAsync();
    await context.close();
  });

  it('says nothing when the platform closes a connection that comes straight back (a revoked organization)', async () => {
    const { context, page, errors } = await newTestPage(browser, { viewport: { width: 1280, height: 800 } });
    let connects = 0;
    // This page's client id, as it asks for its connection tokens.
    let clientId = '';
    page.on('request', (request) => {
      if (request.url().endsWith('/api/realtimeToken'))
        clientId = (request.postDataJSON() as { clientId: string }).clientId;
    });
    page.on('websocket', (socket) =>
      socket.on('framesent', ({ payload }) => {
        if (frameBytes(payload)[0] === 0x10) connects++;
      }),
    );
    // Every banner text the page ever shows, however briefly.
    await page.addInitScript(() => {
      const seen: string[] = [];
      Object.assign(window, { bannersSeen: seen });
      new MutationObserver(() => {
        for (const element of document.querySelectorAll('[role="alert"], [role="status"]')) {
          const text = element.textContent ?? '';
          if (text && !seen.includes(text)) seen.push(text);
        }
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    const bannersSeen = () =>
      page.evaluate(() => (window as unknown as { bannersSeen: string[] }).bannersSeen.join(' | '));
    await signIn(page, stack.url, member.email, member.password);
    await page.goto(`${stack.url}/home?floor=${place.floorId}`, { waitUntil: 'commit' });
    await showsPublished(page, 23.04, '23.0 °C');

    // Closed by the platform (as a revocation closes it), then reconnected with a fresh token at once.
    const connections = await dynamoConnectionRegistry.ofUser(member.userId);
    expect(connections.map((connection) => connection.clientId)).toContain(clientId);
    const connectsBefore = connects;
    await iotConnectionCloser.disconnect(clientId);
    await expect.poll(() => connects, { timeout: LOSS_GRACE_MS }).toBe(connectsBefore + 1);
    await showsPublished(page, 24.04, '24.0 °C');
    // Past the grace, nothing was said: no warning, and so no "back" either.
    await page.waitForTimeout(LOSS_GRACE_MS);
    for (const text of [LIVE_LOST_TEXT, LIVE_BACK_TEXT, OFFLINE_TEXT, BACK_ONLINE_TEXT])
      expect(await bannersSeen()).not.toContain(text);
    await screenshot(page, 'realtime-quiet-reconnect');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('is served the same CSP as CloudFront sends, built by one function', async () => {
    // CloudFront's: IoT Core's WebSocket and the bucket; here the broker (by either loopback name) and s3rver.
    const broker = `ws://127.0.0.1:${stack.mqttWsPort} ws://localhost:${stack.mqttWsPort}`;
    for (const path of ['/', '/home', '/config.json']) {
      const response = await fetch(`${stack.url}${path}`);
      expect(response.headers.get('content-security-policy'), path).toBe(
        contentSecurityPolicy({
          realtime: broker,
          files: stack.env.AWS_ENDPOINT_URL_S3 ?? '',
          // Plan URLs name APP_ORIGIN (localhost); the app is also browsed as 127.0.0.1.
          plans: stack.env.APP_ORIGIN ?? '',
        }),
      );
    }
  });

  it('stays up for several keep-alive periods: pings answered, no reconnect, every message arrives', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // A short keep-alive for this page (the same code path reads the production one from /config.json).
    const keepAlive = 6;
    await context.route('**/config.json', async (route) => {
      const response = await route.fetch();
      const config = (await response.json()) as Record<string, unknown>;
      await route.fulfill({ response, json: { ...config, realtimeKeepAliveSeconds: keepAlive } });
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const frames = { connects: [] as Buffer[], pingsSent: 0, pingsAnswered: 0, closed: 0 };
    page.on('websocket', (socket) => {
      socket.on('framesent', ({ payload }) => {
        const bytes = frameBytes(payload);
        if (bytes[0] === 0x10) frames.connects.push(bytes);
        if (bytes[0] === 0xc0) frames.pingsSent++;
      });
      socket.on('framereceived', ({ payload }) => {
        if (frameBytes(payload)[0] === 0xd0) frames.pingsAnswered++;
      });
      socket.on('close', () => frames.closed++);
    });
    await signIn(page, stack.url, member.email, member.password);
    await page.goto(`${stack.url}/home?floor=${place.floorId}`, { waitUntil: 'commit' });
    await showsPublished(page, 21.04, '21.0 °C');
    expect(frames.connects).toHaveLength(1);
    expect(keepAliveOf(frames.connects[0] ?? Buffer.alloc(0))).toBe(keepAlive);

    // Held open for four keep-alive periods: each period ends with a ping the broker answers, and a
    // reading published then (after the ping, while idle, at a moment the page cannot foresee) reaches
    // the open floor. The pings are counted: the broker, as IoT Core, takes a keep-alive under 30 s as
    // 30 s and would close a silent connection only after 45 s.
    const periods = 4;
    for (let period = 1; period <= periods; period++) {
      await expect
        .poll(() => frames.pingsAnswered, { timeout: keepAlive * 2_000, interval: 200 })
        .toBeGreaterThanOrEqual(period);
      const temp = 30 + period;
      await publishReading(temp + 0.04);
      await expect.poll(() => popupText(page)).toContain(`${temp}.0 °C`);
    }
    await screenshot(page, 'realtime-keepalive-held');
    // The pings came from the keep-alive worker, a same-origin file (a hidden tab keeps its pace).
    expect(page.workers().map((worker) => new URL(worker.url()).pathname)).toEqual([
      expect.stringMatching(/^\/assets\/keepaliveWorker-[\w-]+\.js$/) as string,
    ]);
    expect(frames.pingsSent).toBeGreaterThanOrEqual(periods);
    expect(frames.connects).toHaveLength(1);
    expect(frames.closed).toBe(0);
    expect(await page.getByRole('alert').getByText(LIVE_LOST_TEXT).count()).toBe(0);
    expect(errors).toEqual([]);
    expect(cspViolations()).toEqual([]);
    await context.close();
  }, 120_000);
});

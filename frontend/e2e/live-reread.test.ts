import { DeviceType } from '@argentum/contracts';
import { topics } from '@argentum/contracts/messaging';
import type { MqttClient } from 'mqtt';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { silenceLimitMs } from '../../functions/src/domain/devices/presence';
import { html } from '../../functions/src/domain/notifications/notification-html';
import { raiseNotification } from '../../functions/src/domain/notifications/notifications';
import { dynamoDevices } from '../../functions/src/stores/devices';
import { dynamoNotificationStore } from '../../functions/src/stores/notifications';
import { dynamoUserStore } from '../../functions/src/stores/users';
import { newDevices, type Place } from '../../functions/test/platform/devices-fixtures';
import { callOk, createUser, signInAs, type TestUser } from '../../functions/test/support/api';
import '../../functions/test/support/provided';
import { deviceConnection } from '../../functions/test/support/control';
import { sweepWatched } from '../../functions/test/support/presence-sweep';
import { frameBytes, launchBrowser, newTestPage, open, screenshot, signIn } from './browser';
import { newPlaceWithPlan } from './places';

const stack = inject('stack');
let browser: Browser;
let place: Place;
let sensorId: string;
let viewer: TestUser;
let firmware: MqttClient;

beforeAll(async () => {
  browser = await launchBrowser();
  place = await newPlaceWithPlan('Lost Message Org');
  const [sensor] = await newDevices(
    place,
    [
      {
        devName: 'HallSensor',
        devType: DeviceType.ieq,
        dataPoints: [{ dp: 'temp', dn: 'Temperature' }],
        floorOrigin: { x: 0.5, y: 0.5 },
      },
    ],
    place.floorId,
  );
  if (!sensor) throw new Error('no sensor');
  sensorId = sensor.devID;
  viewer = await createUser(0, [place.orgId], 'Vera Viewer');
  firmware = await deviceConnection(place.orgId, sensorId);
  // Its reading makes it online.
  await firmware.publishAsync(
    topics.sensorData(place.orgId, sensorId),
    JSON.stringify({ devID: sensorId, devType: DeviceType.ieq, time: Date.now(), values: { temp: 21.5 } }),
    { qos: 1 },
  );
});

afterAll(async () => {
  await firmware?.endAsync();
  await browser?.close();
});

const listStatus = (page: Page) =>
  page
    .getByRole('region', { name: 'Devices on this floor' })
    .locator(`[data-devid="${sensorId}"] [data-status]`);

/** A page of the viewer's with its own clock, to let 5 minutes pass without waiting them. */
async function pageWithClock() {
  const { context, page, errors } = await newTestPage(browser, { viewport: { width: 1280, height: 800 } });
  // Connections made: the test's changes must not reach the page by a reconnect's reads.
  const connects = { count: 0 };
  page.on('websocket', (socket) =>
    socket.on('framesent', ({ payload }) => {
      if (frameBytes(payload)[0] === 0x10) connects.count++;
    }),
  );
  await page.clock.install();
  await signIn(page, stack.url, viewer.email, viewer.password);
  await open(page, `${stack.url}/home?floor=${place.floorId}`);
  await page.getByTestId('floor-plan-stage').locator('img').waitFor();
  await expect.poll(() => connects.count).toBe(1);
  // What the page reads once connected has been answered.
  await page.waitForLoadState('networkidle');
  return { context, page, errors, connects };
}

describe('a page left open', () => {
  it('catches up with a change whose live message was lost, by reading its devices again within 5 minutes', async () => {
    const { context, page, errors, connects } = await pageWithClock();
    await expect.poll(() => listStatus(page).textContent()).toBe('Online');

    // The sensor falls silent and the sweep finds it offline, but its live message is lost (as IoT
    // Core discards what passes a connection's 100 messages a second): the page is not told.
    const swept = await sweepWatched(
      (d) => d.devID === sensorId,
      Date.now() + silenceLimitMs(DeviceType.ieq) + 60_000,
      { push: async () => undefined },
    );
    expect(swept).toEqual({ looked: 1, changed: 1 });
    await page.waitForTimeout(1_000);
    expect(await listStatus(page).textContent()).toBe('Online');

    // Five minutes on, the page has read its floor again: the sensor is offline there too, with no
    // reconnect that would have read it anyway.
    await page.clock.fastForward('05:00');
    await expect.poll(() => listStatus(page).textContent()).toBe('Offline');
    expect(connects.count).toBe(1);
    await screenshot(page, 'live-reread-offline');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('counts an alarm whose live message was lost in the bell within 5 minutes', async () => {
    const { context, page, errors, connects } = await pageWithClock();
    const bell = page.getByRole('button', { name: /^Notifications/ });
    const unread = async () =>
      Number(/(\d+) unread/.exec((await bell.getAttribute('aria-label')) ?? '')?.[1] ?? 0);
    // (The sensor's offline alarm of the test above may be there already.)
    const before = await unread();

    // Raised and stored for the organization's members, but its push is lost.
    await raiseNotification(
      {
        notifications: dynamoNotificationStore,
        publisher: { publish: async () => undefined },
        users: dynamoUserStore,
      },
      { orgId: place.orgId, type: 2, message: html`HallSensor is <b>offline</b>`, time: Date.now() },
    );
    await page.waitForTimeout(1_000);
    expect(await unread()).toBe(before);

    await page.clock.fastForward('05:00');
    await expect.poll(unread).toBe(before + 1);
    expect(connects.count).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("goes on with the readings that came since on a sensor's graph of today", async () => {
    const { context, page, errors } = await pageWithClock();
    // Until when each read of the graph asks.
    const asked: number[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/getDeviceInfoDateRange'))
        asked.push((request.postDataJSON() as { cusDate: { endDate: number } }).cusDate.endDate);
    });
    await open(page, `${stack.url}/home/sensor/${encodeURIComponent(sensorId)}`);
    await page.getByTestId('sensor-graph').locator('canvas').waitFor();
    const latest = page.getByText(/^Latest: /);
    await expect.poll(() => latest.textContent()).toMatch(/^Latest: 21\.5 °C/);

    // A reading comes; the graph is no live view, and shows it at its next read, which asks until then.
    const readingTime = Date.now();
    await firmware.publishAsync(
      topics.sensorData(place.orgId, sensorId),
      JSON.stringify({ devID: sensorId, devType: DeviceType.ieq, time: readingTime, values: { temp: 23.4 } }),
      { qos: 1 },
    );
    await expect.poll(async () => (await dynamoDevices.get(sensorId))?.latest?.temp).toBe(23.4);
    expect(await latest.textContent()).toMatch(/^Latest: 21\.5 °C/);

    await page.clock.fastForward('05:00');
    await expect.poll(() => latest.textContent()).toMatch(/^Latest: 23\.4 °C/);
    expect(asked[0]).toBeLessThan(readingTime);
    expect(asked.at(-1)).toBeGreaterThan(readingTime);
    await screenshot(page, 'live-reread-sensor');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a floor another admin added to the sidebar within 5 minutes', async () => {
    const { context, page, errors } = await pageWithClock();
    const sidebar = page.getByRole('navigation', { name: 'Organizations' });
    await sidebar.getByRole('link', { name: 'Level 1' }).waitFor();
    const admin = await createUser(2, [place.orgId], 'Ada Admin');
    await callOk((await signInAs(admin)).accessToken, '/api/dashboard/createOrUpdateFloor', {
      buildID: place.buildId,
      floorName: 'Roof Terrace',
    });
    await page.waitForTimeout(1_000);
    expect(await sidebar.getByRole('link', { name: 'Roof Terrace' }).count()).toBe(0);

    await page.clock.fastForward('05:00');
    await sidebar.getByRole('link', { name: 'Roof Terrace' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});

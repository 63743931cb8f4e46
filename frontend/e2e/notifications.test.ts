import type { NotificationPage } from '@argentum/contracts';
import { iotNotificationPublisher } from '@argentum/functions/adapters/notification-publisher';
import {
  type AlarmDevice,
  type AlarmPorts,
  closeOfflineEpisode,
  raiseOfflineEpisode,
} from '@argentum/functions/domain/notifications/alarms';
import { html } from '@argentum/functions/domain/notifications/notification-html';
import { raiseNotification } from '@argentum/functions/domain/notifications/notifications';
import { dynamoAlarmStore } from '@argentum/functions/stores/alarms';
import { dynamoNotificationStore } from '@argentum/functions/stores/notifications';
import { dynamoUserStore } from '@argentum/functions/stores/users';
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call, createOwnOrganization, createUser, signInAs } from '../../functions/test/support/api';
import '../../functions/test/support/provided';
import { launchBrowser, newTestPage, screenshot, signIn, watchSubscriptions } from './browser';

const stack = inject('stack');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const ports = {
  notifications: dynamoNotificationStore,
  publisher: iotNotificationPublisher,
  users: dynamoUserStore,
};
const alarmPorts: AlarmPorts = {
  ...ports,
  alarms: dynamoAlarmStore,
  alarmMail: { send: async () => undefined },
  logger: { log: () => undefined },
  metrics: { count: () => undefined },
};

describe('the notifications bell in the browser', () => {
  it('shows the badge, pages by 10, filters unread, deletes, marks read on close, renders HTML inert', async () => {
    const owner = await createUser(2, []);
    const orgId = await createOwnOrganization(owner.userId, 2, 'Bell Org');
    const user = await createUser({ [orgId]: 1 });
    let time = Date.UTC(2026, 10, 20, 8, 0);
    for (let i = 1; i <= 14; i++) {
      await raiseNotification(ports, {
        orgId,
        type: (i % 3) as 0 | 1 | 2,
        message: html`Room <b>${`R${i}`}</b> temperature out of comfort zone`,
        properties: { floorID: 'floor-x', devID: `dev-${i}` },
        time: (time += 60_000),
      });
    }
    await raiseNotification(ports, {
      orgId,
      type: 2,
      message: '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script><b>Inert</b>',
      time: (time += 60_000),
    });

    const { context, page, errors } = await newTestPage(browser, { viewport: { width: 1280, height: 800 } });
    // The calls whose specification names `userID` send the caller's id.
    const userIDs = new Map<string, unknown[]>();
    page.on('request', (request) => {
      const call = /\/api\/notification\/(getUnreadNotificationCount|deleteNotification)$/.exec(
        request.url(),
      )?.[1];
      if (call)
        userIDs.set(call, [
          ...(userIDs.get(call) ?? []),
          (request.postDataJSON() as { userID?: unknown }).userID,
        ]);
    });
    await signIn(page, stack.url, user.email, user.password);
    const bell = page.getByRole('button', { name: 'Notifications, 15 unread' });
    await bell.waitFor();
    await bell.click();
    const popover = page.getByRole('dialog', { name: 'Notifications' });
    const items = popover
      .getByRole('listitem')
      .filter({ has: page.getByRole('button', { name: 'Delete notification' }) });
    await expect.poll(() => items.count()).toBe(10);
    await expect.poll(() => page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await items.first().innerText()).toContain('Inert');
    expect(await popover.locator('b', { hasText: 'Inert' }).count()).toBe(1);
    expect(await popover.locator('img, script').count()).toBe(0);
    await screenshot(page, 'notifications-popover');

    // Scrolling to the end loads the next 10 (here the last 5).
    await popover.getByRole('list').evaluate((list) => list.scrollTo(0, list.scrollHeight));
    await expect.poll(() => items.count()).toBe(15);

    // Deleting: it goes from the list; fewer than 8 left would reload.
    await items.nth(1).getByRole('button', { name: 'Delete notification' }).click();
    await expect.poll(() => items.count()).toBe(14);
    expect(await popover.getByText('R14', { exact: true }).count()).toBe(0);
    expect(userIDs.get('deleteNotification')).toEqual([user.userId]);
    expect(userIDs.get('getUnreadNotificationCount')?.length).toBeGreaterThan(0);
    expect(new Set(userIDs.get('getUnreadNotificationCount'))).toEqual(new Set([user.userId]));

    // Closing marks the loaded unread as read and refreshes the badge.
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
    const token = (await signInAs(user)).accessToken;
    const unread = await call<{ count: number }>(
      '/api/notification/getUnreadNotificationCount',
      {},
      { token },
    );
    expect(unread.body.count).toBe(0);

    // A new one: the 'only show unread' toggle lists just it.
    await raiseNotification(ports, { orgId, type: 1, message: 'Fresh one', time: (time += 60_000) });
    await page.reload();
    await page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
    await popover.getByLabel('only show unread').check();
    await expect.poll(() => items.count()).toBe(1);
    expect(await items.first().innerText()).toContain('Fresh one');
    await screenshot(page, 'notifications-unread-only');

    // 'View Device' opens the device's floor with the device highlighted.
    await popover.getByLabel('only show unread').uncheck();
    await expect.poll(() => items.count()).toBe(10);
    await popover.getByRole('button', { name: 'View Device' }).first().click();
    await page.waitForURL(/floor=floor-x&highlight=dev-13/);
    expect(errors).toEqual([]);
    const listed = await call<NotificationPage>(
      '/api/notification/getNotifications',
      { skip: 0, limit: 50 },
      { token },
    );
    expect(listed.body.list).toHaveLength(15);
    await context.close();
  });

  it('shows an alarm resolved on the server as resolved in the open bell, without a reload or another count', async () => {
    const owner = await createUser(2, []);
    const orgId = await createOwnOrganization(owner.userId, 2, 'Bell Alarm Org');
    const user = await createUser({ [orgId]: 1 });
    const device: AlarmDevice = {
      devId: `AA:${randomUUID().slice(0, 8)}`,
      orgId,
      devName: 'DeskLight',
      devType: 3,
      floorId: 'floor-y',
      buildId: 'building-y',
    };
    const since = Date.now() - 20 * 60_000;

    const { context, page, errors } = await newTestPage(browser, { viewport: { width: 1280, height: 800 } });
    const subscriptions = watchSubscriptions(page);
    await signIn(page, stack.url, user.email, user.password);
    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
    // What follows is published live: once the page's subscriptions are acknowledged (its first
    // reads answer before its channel is up).
    await expect.poll(subscriptions.settled, { timeout: 20_000 }).toBe(true);

    // The offline alarm is raised while the page is open, and reaches it live.
    const oneUnread = page.getByRole('button', { name: 'Notifications, 1 unread' });
    const alarmId = await raiseOfflineEpisode(alarmPorts, device, since, since + 10 * 60_000);
    await oneUnread.click();
    const popover = page.getByRole('dialog', { name: 'Notifications' });
    const alarm = popover.getByRole('listitem').filter({ hasText: 'DeskLight: Device Offline' });
    await alarm.waitFor();
    expect(await alarm.innerText()).not.toContain('resolved');

    // The device is back: the alarm is resolved on the server, and 'Device Online' raised.
    const back = since + 15 * 60_000;
    await closeOfflineEpisode(alarmPorts, device, { episodeSince: since, notificationId: alarmId }, back);
    // The open list shows it resolved in place, as a list read afterwards does; only 'Device Online'
    // is counted.
    await expect.poll(() => alarm.innerText()).toMatch(/ · resolved \d{2}-\d{2}-\d{4} \d{2}:\d{2}/);
    await popover.getByText('DeskLight: Device Online').waitFor();
    await page.getByRole('button', { name: 'Notifications, 2 unread' }).waitFor();
    const items = popover
      .getByRole('listitem')
      .filter({ has: page.getByRole('button', { name: 'Delete notification' }) });
    expect(await items.count()).toBe(2);
    const shownLive = await alarm.innerText();
    await screenshot(page, 'notifications-alarm-resolved');
    const token = (await signInAs(user)).accessToken;
    const listed = await call<NotificationPage>(
      '/api/notification/getNotifications',
      { skip: 0, limit: 10 },
      { token },
    );
    expect(listed.body.list.find((n) => n._id === alarmId)?.clearedAt).toBe(new Date(back).toISOString());

    // A building goes dark: its devices' alarms, raised together, reach the open bell (sent together,
    // a burst being one message), each listed and counted once.
    const dark = ['Lobby', 'Stairs', 'Atrium'];
    await Promise.all(
      dark.map((devName) =>
        raiseOfflineEpisode(
          alarmPorts,
          { ...device, devId: `AB:${randomUUID().slice(0, 8)}`, devName },
          since,
          back + 60_000,
        ),
      ),
    );
    for (const devName of dark) await popover.getByText(`${devName}: Device Offline`).waitFor();
    await page.getByRole('button', { name: 'Notifications, 5 unread' }).waitFor();
    expect(await items.count()).toBe(5);
    await screenshot(page, 'notifications-burst');

    // A reload shows the same.
    await page.reload();
    await page.getByRole('button', { name: /^Notifications/ }).click();
    await alarm.waitFor();
    expect(await alarm.innerText()).toBe(shownLive);
    expect(errors).toEqual([]);
    await context.close();
  });
});

import type { NotificationPage } from '@argentum/contracts';
import { topics } from '@argentum/contracts/messaging';
import { iotNotificationPublisher } from '@argentum/functions/adapters/notification-publisher';
import { html } from '@argentum/functions/domain/notifications/notification-html';
import { raiseNotification } from '@argentum/functions/domain/notifications/notifications';
import type { NotificationPorts } from '@argentum/functions/domain/notifications/ports';
import { dynamoNotificationStore } from '@argentum/functions/stores/notifications';
import { dynamoUserStore } from '@argentum/functions/stores/users';
import type { MqttClient } from 'mqtt';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, createOwnOrganization, createUser, signInAs } from '../support/api';
import { connectBrowser, notificationPushesReceived } from '../support/realtime';

const ports: NotificationPorts = {
  notifications: dynamoNotificationStore,
  publisher: iotNotificationPublisher,
  users: dynamoUserStore,
};

const clients: MqttClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.endAsync()));
});

let clock = Date.UTC(2026, 10, 1);
const raise = (orgId: string, message: string, extra: { episodeKey?: string; type?: 0 | 1 | 2 } = {}) =>
  raiseNotification(ports, { orgId, type: extra.type ?? 1, message, time: ++clock, ...extra });

const page = (token: string, body: { skip: number; limit: number; readStatus?: boolean }) =>
  call<NotificationPage>('/api/notification/getNotifications', body, { token: token });
const unread = async (token: string) =>
  (await call<{ count: number }>('/api/notification/getUnreadNotificationCount', {}, { token: token })).body
    .count;

interface Scene {
  orgA: string;
  orgB: string;
  alice: { token: string; id: string };
  bob: { token: string; id: string };
  outsider: { token: string; id: string };
}

async function scene(): Promise<Scene> {
  const owner = await createUser(2, []);
  const orgA = await createOwnOrganization(owner.userId, 2, 'Notify A');
  const orgB = await createOwnOrganization(owner.userId, 2, 'Notify B');
  const alice = await createUser({ [orgA]: 2 });
  const bob = await createUser({ [orgA]: 0 });
  const outsider = await createUser({ [orgB]: 2 });
  return {
    orgA,
    orgB,
    alice: { id: alice.userId, token: (await signInAs(alice)).accessToken },
    bob: { id: bob.userId, token: (await signInAs(bob)).accessToken },
    outsider: { id: outsider.userId, token: (await signInAs(outsider)).accessToken },
  };
}

describe('notifications', () => {
  let s: Scene;
  beforeAll(async () => {
    s = await scene();
    for (let i = 1; i <= 23; i++) await raise(s.orgA, html`Sensor <b>${`IEQ${i}`}</b> out of range`);
    await raise(s.orgB, 'Other organization only');
  });

  it('pages newest first by 10, each user with their own read flags', async () => {
    const first = await page(s.alice.token, { skip: 0, limit: 10 });
    expect(first.status).toBe(200);
    expect(first.body.list.map((n) => n.message)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Sensor <b>IEQ${23 - i}</b> out of range`),
    );
    expect(first.body.hasMore).toBe(true);
    expect(first.body.list.every((n) => n.read === false && n.properties.orgID === s.orgA)).toBe(true);
    const third = await page(s.alice.token, { skip: 20, limit: 10 });
    expect(third.body.list.map((n) => n.message)).toEqual(
      [1, 2, 3].reverse().map((i) => `Sensor <b>IEQ${i}</b> out of range`),
    );
    expect(third.body.hasMore).toBe(false);

    expect(await unread(s.alice.token)).toBe(23);
    const marked = await call<{ count: number }>(
      '/api/notification/setUnreadNotificationStatus',
      { unreadNotificationIds: first.body.list.map((n) => n._id) },
      { token: s.alice.token },
    );
    expect(marked.body).toEqual({ count: 13 });
    // Each listed notification also says it in the specification's form, keyed by the reader's id only.
    const [readOne] = (await page(s.alice.token, { skip: 0, limit: 1 })).body.list;
    expect(readOne).toMatchObject({ read: true, userNotificationProp: { [s.alice.id]: { read: true } } });
    expect(Object.keys(readOne?.userNotificationProp ?? {})).toEqual([s.alice.id]);
    // Bob's flags are his own.
    expect(await unread(s.bob.token)).toBe(23);
    const [bobsOne] = (await page(s.bob.token, { skip: 0, limit: 1 })).body.list;
    expect(bobsOne?.userNotificationProp).toEqual({ [s.bob.id]: { read: false } });
    const onlyUnread = await page(s.alice.token, { skip: 0, limit: 10, readStatus: false });
    expect(onlyUnread.body.list[0]?.message).toBe('Sensor <b>IEQ13</b> out of range');
  });

  it('deletes for one user only; a foreign or unknown id answers alike', async () => {
    const [top] = (await page(s.bob.token, { skip: 0, limit: 1 })).body.list;
    if (!top) throw new Error('Bob has no notification');
    const deleted = await call(
      '/api/notification/deleteNotification',
      { notificationID: top._id },
      { token: s.bob.token },
    );
    expect(deleted.status).toBe(200);
    expect((await page(s.bob.token, { skip: 0, limit: 1 })).body.list[0]?._id).not.toBe(top._id);
    expect((await page(s.alice.token, { skip: 0, limit: 1 })).body.list[0]?._id).toBe(top._id);
    const again = await call(
      '/api/notification/deleteNotification',
      { notificationID: top._id },
      { token: s.bob.token },
    );
    const foreign = await call(
      '/api/notification/deleteNotification',
      { notificationID: top._id },
      { token: s.outsider.token },
    );
    const unknown = await call(
      '/api/notification/deleteNotification',
      { notificationID: 'nope' },
      { token: s.outsider.token },
    );
    expect(again.status).toBe(404);
    expect(foreign.body).toEqual(unknown.body);
    expect(foreign.status).toBe(404);
    const otherUser = await call(
      '/api/notification/getUnreadNotificationCount',
      { userID: s.alice.id },
      { token: s.bob.token },
    );
    expect(otherUser.status).toBe(404);
  });

  it("a user never sees another organization's notifications, nor those from before they joined", async () => {
    const outsiderList = (await page(s.outsider.token, { skip: 0, limit: 50 })).body.list;
    expect(outsiderList.map((n) => n.message)).toEqual(['Other organization only']);
    const late = await createUser({ [s.orgA]: 1 });
    const lateToken = (await signInAs(late)).accessToken;
    expect(await unread(lateToken)).toBe(0);
    await raise(s.orgA, 'After joining');
    expect((await page(lateToken, { skip: 0, limit: 10 })).body.list.map((n) => n.message)).toEqual([
      'After joining',
    ]);
  });

  it('an alarm episode raised twice is one notification, and a deleted one does not come back', async () => {
    const before = await unread(s.bob.token);
    const first = await raise(s.orgA, 'Door left open', { episodeKey: 'door-1#episode-1' });
    const again = await raiseNotification(ports, {
      orgId: s.orgA,
      type: 1,
      message: 'Door left open',
      time: Date.parse(first.notification.createdAt),
      episodeKey: 'door-1#episode-1',
    });
    expect(first.outcome).toBe('new');
    expect(again.outcome).toBe('known');
    expect(again.notification.id).toBe(first.notification.id);
    expect(await unread(s.bob.token)).toBe(before + 1);
    await call(
      '/api/notification/deleteNotification',
      { notificationID: first.notification.id },
      { token: s.bob.token },
    );
    await raiseNotification(ports, {
      orgId: s.orgA,
      type: 1,
      message: 'Door left open',
      time: Date.parse(first.notification.createdAt),
      episodeKey: 'door-1#episode-1',
    });
    expect(await unread(s.bob.token)).toBe(before);
  });

  it('stores message HTML inert: only bare inline tags survive', async () => {
    const { notification } = await raise(
      s.orgB,
      '<img src=x onerror=alert(1)><script>alert(2)</script><b onclick="x()">Bold</b>' +
        '<a href="javascript:y()">link</a><svg onload=z()',
    );
    expect(notification.message).toBe('<b>Bold</b>link&lt;svg onload=z()');
    const listed = (await page(s.outsider.token, { skip: 0, limit: 1 })).body.list[0];
    expect(listed?.message).toBe('<b>Bold</b>link&lt;svg onload=z()');
  });

  it('pushes to the signed-in users of the organization and no one else (real local broker)', async () => {
    const watch = async (token: string, orgId: string) => {
      const client = await connectBrowser(token);
      clients.push(client);
      const { pushes: received } = notificationPushesReceived(client);
      // A refused subscription comes back as a SUBACK failure, which mqtt.js reports as an error.
      const granted = await client.subscribeAsync(topics.notification(orgId), { qos: 1 }).then(
        (g) => g.map((x) => x.qos),
        () => 'refused' as const,
      );
      return { received, granted };
    };
    const alice = await watch(s.alice.token, s.orgA);
    const outsider = await watch(s.outsider.token, s.orgA);
    expect(alice.granted).toEqual([1]);
    expect(outsider.granted).toBe('refused');
    const outsiderOwn = await watch(s.outsider.token, s.orgB);
    expect(outsiderOwn.granted).toEqual([1]);
    const { notification } = await raise(s.orgA, 'Pushed live');
    await expect.poll(() => alice.received.length, { timeout: 10_000 }).toBe(1);
    expect(alice.received[0]).toEqual({
      kind: 'notification',
      notification: expect.objectContaining({ _id: notification.id, message: 'Pushed live' }),
    });
    expect(outsider.received).toEqual([]);
    expect(outsiderOwn.received).toEqual([]);
  });

  it('brings a burst of raises to an open page whole, though a connection takes 100 messages a second', async () => {
    const owner = await createUser(2, []);
    const orgId = await createOwnOrganization(owner.userId, 2, 'Notify burst');
    const client = await connectBrowser((await signInAs(owner)).accessToken, { orgIds: [orgId] });
    clients.push(client);
    const { pushes: received, messages } = notificationPushesReceived(client);
    await client.subscribeAsync(topics.notification(orgId), { qos: 1 });
    // 250 alarms raised at once (a building's devices going offline together).
    const raised = await Promise.all(
      Array.from({ length: 250 }, (_, i) => raise(orgId, `Burst ${i}`, { type: 2 })),
    );
    const ids = raised.map((r) => r.notification.id).sort();
    await expect
      .poll(() => received.map((p) => (p.kind === 'notification' ? p.notification._id : p._id)).sort(), {
        timeout: 20_000,
      })
      .toEqual(ids);
    expect(messages()).toBeLessThan(250);
  });
});

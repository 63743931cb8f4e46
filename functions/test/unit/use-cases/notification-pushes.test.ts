import { describe, expect, it } from 'vitest';
import type { NotificationPush } from '@argentum/contracts';
import { clearNotification, raiseNotification } from '../../../src/domain/notifications/notifications';
import type { NotificationPorts } from '../../../src/domain/notifications/ports';
import type { UserRecord } from '../../../src/domain/users/user';
import { memoryNotificationStore } from '../../support/fakes/memory-stores';

const member: UserRecord = {
  userId: 'u1',
  email: 'ada@example.com',
  userName: 'Ada',
  orgRoles: { 'org-a': 0 },
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  version: 1,
};

function scene() {
  const pushes: NotificationPush[] = [];
  const deps: NotificationPorts = {
    notifications: memoryNotificationStore(),
    publisher: {
      publish: async (_orgId, push) => {
        pushes.push(push);
      },
    },
    users: { memberIds: async () => [member.userId], getMany: async () => [member] },
  };
  return { deps, pushes };
}

const TEN = Date.UTC(2026, 10, 28, 10, 0);
const alarm = {
  orgId: 'org-a',
  type: 2 as const,
  message: '<b>Boiler</b>: Device Offline',
  properties: { devID: 'boiler' },
  episodeKey: 'boiler#offline#1',
  time: TEN,
};

describe('notification pushes to open pages', () => {
  it('push a raise delivered again after its clearing as resolved, not as an open alarm', async () => {
    const { deps, pushes } = scene();
    const first = await raiseNotification(deps, alarm);
    const clearedAt = new Date(TEN + 60_000).toISOString();
    await clearNotification(deps, first.notification.id, clearedAt);
    // The trigger is redelivered (a retried batch) after the alarm ended.
    const again = await raiseNotification(deps, alarm);
    expect(again.outcome).toBe('known');
    expect(again.notification.clearedAt).toBe(clearedAt);
    expect(pushes.map((p) => p.kind)).toEqual(['notification', 'notificationCleared', 'notification']);
    const last = pushes.at(-1);
    expect(last?.kind === 'notification' && last.notification.clearedAt).toBe(clearedAt);
  });

  it('push a raise delivered again while open as it was first pushed', async () => {
    const { deps, pushes } = scene();
    await raiseNotification(deps, alarm);
    await raiseNotification(deps, alarm);
    expect(pushes).toHaveLength(2);
    expect(pushes[1]).toEqual(pushes[0]);
  });
});

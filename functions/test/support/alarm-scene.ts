import type { AlarmPorts, AlarmStore } from '../../src/domain/notifications/alarms';
import type { UserRecord } from '../../src/domain/users/user';
import {
  memoryAlarmStore,
  memoryNotificationStore,
  recordingLogger,
  recordingMetrics,
} from './fakes/memory-stores';

/** The one admin of organization `org-a`, who receives its alarms. */
export const alarmAdmin: UserRecord = {
  userId: 'u1',
  email: 'ada@example.com',
  userName: 'Ada',
  orgRoles: { 'org-a': 2 },
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  version: 1,
};

/**
 * Alarms of organization `org-a` on in-memory fakes (each passes its DynamoDB adapter's contract
 * tests): the ports, the admin's inbox (`raised`, newest first), the ids of the alarm mails queued and
 * the metrics counted.
 */
export function alarmScene(alarms: AlarmStore = memoryAlarmStore()) {
  const notifications = memoryNotificationStore();
  const mails: string[] = [];
  const metrics = recordingMetrics();
  const deps: AlarmPorts = {
    alarms,
    notifications,
    publisher: { publish: async () => undefined },
    users: { memberIds: async () => [alarmAdmin.userId], getMany: async () => [alarmAdmin] },
    alarmMail: {
      send: async (job) => {
        mails.push(job.notificationId);
      },
    },
    logger: recordingLogger(),
    metrics,
  };
  const raised = async () =>
    (
      await notifications.page(alarmAdmin.userId, {
        orgIds: ['org-a'],
        skip: 0,
        limit: 50,
        unreadOnly: false,
      })
    ).entries;
  return { deps, raised, mails, metrics };
}

/**
 * An alarm store that lets another instance in at the worst moment: the work given to `interleave`
 * runs once, just before the next write (after that write's read), which then meets what it saved.
 */
export function racingAlarmStore(stored: AlarmStore = memoryAlarmStore()) {
  let competing: (() => Promise<unknown>) | undefined;
  const store: AlarmStore = {
    ...stored,
    async saveIfUnchanged(next, read) {
      const other = competing;
      competing = undefined;
      if (other) await other();
      return stored.saveIfUnchanged(next, read);
    },
  };
  const interleave = (work: () => Promise<unknown>) => {
    competing = work;
  };
  return { store, interleave };
}

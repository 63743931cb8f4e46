import { apiCalls } from '@argentum/contracts/api';
import { DEFAULT_ALARM_SETTINGS, NOTIFICATION_PAGE_SIZE } from '@argentum/contracts';
import {
  type AlarmSettingsPorts,
  getAlarmSettings,
  setAlarmSettings,
} from '../domain/notifications/alarm-settings';
import {
  deleteNotification,
  listNotifications,
  markRead,
  NOTIFICATION_NOT_FOUND,
  unreadCount,
} from '../domain/notifications/notifications';
import type { NotificationStore } from '../domain/notifications/ports';
import { notFound } from '../domain/errors';
import { type RoutePorts, routesFor } from '../http/types';

const domain = 'notifications';
/** What the notifications' handlers need; lambda/api-notifications.ts wires them. */
export type NotificationsRoutePorts = RoutePorts & { notifications: NotificationStore } & AlarmSettingsPorts;
const route = routesFor<NotificationsRoutePorts>();

/** Older clients send their own user id; any other id is answered like a notification that is not there. */
function checkSelf(userId: string | undefined, callerId: string) {
  if (userId !== undefined && userId !== callerId) throw notFound(NOTIFICATION_NOT_FOUND);
}

export const notificationsRoutes = [
  route({
    call: apiCalls.getNotifications,
    domain,
    access: { minRole: 0 },
    summary:
      "A page of the caller's notifications of their organizations, newest first: `{ list, hasMore }`, " +
      `each with the caller's own \`read\` flag. \`limit\` is ${NOTIFICATION_PAGE_SIZE} in the popover; ` +
      '`readStatus: false` lists only unread ones. Users see the notifications raised while they were members.',
    handler: async ({ user, body: b, ports }) => ({
      body: await listNotifications(ports, user, {
        skip: b.skip,
        limit: b.limit,
        unreadOnly: b.readStatus === false,
      }),
    }),
  }),
  route({
    call: apiCalls.getUnreadNotificationCount,
    domain,
    access: { minRole: 0 },
    summary: 'How many of its notifications the caller has not read: `{ count }`.',
    handler: async ({ user, body: b, ports }) => {
      checkSelf(b.userID, user.userId);
      return { body: { count: await unreadCount(ports, user) } };
    },
  }),
  route({
    call: apiCalls.setUnreadNotificationStatus,
    domain,
    access: { minRole: 0 },
    summary:
      "Marks these notifications read for the caller (others' flags are their own); ids the caller does not " +
      'hold are ignored. Answers the new unread count: `{ count }`.',
    handler: async ({ user, body: b, ports }) => {
      await markRead(ports, user, b.unreadNotificationIds);
      return { body: { count: await unreadCount(ports, user) } };
    },
  }),
  route({
    call: apiCalls.deleteNotification,
    domain,
    access: { minRole: 0 },
    summary:
      'Deletes a notification for the caller only (other users keep it). 404 for one the caller does not hold.',
    handler: async ({ user, body: b, ports }) => {
      checkSelf(b.userID, user.userId);
      await deleteNotification(ports, user, b.notificationID);
      return { body: { message: 'Notification deleted.' } };
    },
  }),
  route({
    call: apiCalls.getAlarmSettings,
    domain,
    access: { minRole: 2 },
    summary:
      "An organization's offline-alarm settings (its admins): `{ orgID, offlineGraceMinutes, alarmUnplacedDevices }`; " +
      `defaults ${DEFAULT_ALARM_SETTINGS.offlineGraceMinutes} minutes and no alarms for devices on no floor.`,
    handler: async ({ user, body: b, ports }) => ({ body: await getAlarmSettings(ports, user, b.orgID) }),
  }),
  route({
    call: apiCalls.setAlarmSettings,
    domain,
    access: { minRole: 2 },
    summary:
      "Sets an organization's offline-alarm settings (its admins): the grace period an offline episode must last " +
      'before it notifies (flapping within it is one episode), and whether devices on no floor raise offline alarms.',
    handler: async ({ user, body: b, ports }) => ({
      body: await setAlarmSettings(ports, user, b.orgID, {
        offlineGraceMinutes: b.offlineGraceMinutes,
        alarmUnplacedDevices: b.alarmUnplacedDevices,
      }),
    }),
  }),
];

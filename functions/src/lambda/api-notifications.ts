import { createApiHandler } from '../http/api-handler';
import { notificationsRoutes } from '../routes/notifications.routes';
import { dynamoNotificationStore } from '../stores/notifications';
import { dynamoAlarmSettings } from '../stores/alarm-settings';
import { clock, users } from './wiring/core';

export const handler = createApiHandler(notificationsRoutes, {
  users,
  notifications: dynamoNotificationStore,
  alarmSettings: dynamoAlarmSettings,
  clock,
});

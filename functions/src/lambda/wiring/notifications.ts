/** Notifications and the alarms that raise them: what ingest and the confirmation handler wire. */
import { emfMetrics } from '../../adapters/emf-metrics';
import { PLATFORM_METRICS } from '../../domain/metrics';
import { sqsMailQueue } from '../../adapters/job-queue';
import { iotNotificationPublisher } from '../../adapters/notification-publisher';
import type { AlarmPorts } from '../../domain/notifications/alarms';
import { dynamoAlarmStore } from '../../stores/alarms';
import { dynamoNotificationStore } from '../../stores/notifications';
import { logger, users } from './core';

export const alarmPorts = (): AlarmPorts => ({
  notifications: dynamoNotificationStore,
  publisher: iotNotificationPublisher,
  users,
  alarms: dynamoAlarmStore,
  alarmMail: sqsMailQueue,
  logger,
  metrics: emfMetrics(PLATFORM_METRICS.alarms.namespace),
});

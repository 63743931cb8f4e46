import { notificationPushSchema, topics } from '@argentum/contracts/messaging';
import type { NotificationPublisher } from '../domain/notifications/ports';
import { iotPublisher } from './iot-publisher';

/**
 * Pushes notifications (raised, or resolved) on `{orgId}/notification` through the IoT data plane,
 * checked against the schema the browser reads them with.
 */
export const iotNotificationPublisher: NotificationPublisher = {
  publish: (orgId, push) =>
    iotPublisher.publish(topics.notification(orgId), notificationPushSchema.parse(push)),
};

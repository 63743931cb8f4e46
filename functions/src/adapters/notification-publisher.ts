import { topics } from '@argentum/contracts/messaging';
import type { NotificationPublisher } from '../domain/notifications/ports';
import { iotPublisher } from './iot-publisher';

/** Pushes notifications on `{orgId}/notification` through the IoT data plane. */
export const iotNotificationPublisher: NotificationPublisher = {
  publish: (orgId, push) => iotPublisher.publish(topics.notification(orgId), { ...push }),
};

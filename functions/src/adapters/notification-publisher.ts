import { PublishCommand } from '@aws-sdk/client-iot-data-plane';
import { topics } from '@argentum/events';
import { iotData } from '../aws/iot-data';
import type { NotificationPublisher } from '../domain/notifications/ports';

/** Pushes notifications on `{orgId}/notification` through the IoT data plane (the local shim publishes into aedes). */
export const iotNotificationPublisher: NotificationPublisher = {
  async publish(orgId, push) {
    await iotData().send(
      new PublishCommand({
        topic: topics.notification(orgId),
        qos: 1,
        payload: new TextEncoder().encode(JSON.stringify(push)),
        contentType: 'application/json',
      }),
      { abortSignal: AbortSignal.timeout(3000) },
    );
  },
};

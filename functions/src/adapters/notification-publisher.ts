import type { NotificationMessage, NotificationPush } from '@argentum/contracts';
import {
  NOTIFICATION_MESSAGE_MAX_BYTES,
  notificationMessageSchema,
  topics,
} from '@argentum/contracts/messaging';
import type { NotificationPublisher } from '../domain/notifications/ports';
import { coalescer } from '../lib/coalesce';
import { packBySize } from '../lib/pack';
import { iotPublisher } from './iot-publisher';

/**
 * At most one message a topic this often from one instance. IoT Core delivers at most 100 messages a
 * second to a connection, counting all its subscriptions (three per organization and a floor), and
 * discards the rest: a burst of raises (a building's devices going offline together) would otherwise
 * lose most of its pushes on every open page.
 */
export const NOTIFICATION_PUSH_SPACING_MS = 100;

/** The messages that carry `pushes` in order: one alone, or batches under the size limit. */
export function notificationMessages(
  pushes: readonly NotificationPush[],
  maxBytes = NOTIFICATION_MESSAGE_MAX_BYTES,
): NotificationMessage[] {
  const envelope = Buffer.byteLength(JSON.stringify({ kind: 'notifications', pushes: [] }));
  return packBySize(pushes, maxBytes, envelope).map((run) =>
    run.length === 1 && run[0] ? run[0] : { kind: 'notifications', pushes: run },
  );
}

const send = coalescer<NotificationPush>(async (topic, pushes) => {
  for (const message of notificationMessages(pushes))
    await iotPublisher.publish(topic, notificationMessageSchema.parse(message));
}, NOTIFICATION_PUSH_SPACING_MS);

/**
 * Pushes notifications (raised, or resolved) on `{orgId}/notification` through the IoT data plane,
 * checked against the schema the browser reads them with. Pushes to one organization within moments
 * of each other leave together (`coalescer`): `publish` resolves once the message carrying its push
 * is sent.
 */
export const iotNotificationPublisher: NotificationPublisher = {
  publish: (orgId, push) => send(topics.notification(orgId), push),
};

import type { MessagePublisher } from '../domain/control/ports';

/** Longest wait for IoT Core to take a message; the caller's request is waiting on it. */
const PUBLISH_TIMEOUT_MS = 3000;

/**
 * Publishes JSON messages through the IoT data plane (the local stack's shim publishes into aedes).
 * QoS 1: IoT Core acknowledges the message once it has taken it.
 */
export const iotPublisher: MessagePublisher = {
  async publish(topic, message) {
    const { iotData, PublishCommand } = await import('../aws/iot-data');
    await iotData().send(
      new PublishCommand({
        topic,
        qos: 1,
        contentType: 'application/json',
        payload: Buffer.from(JSON.stringify(message)),
      }),
      { abortSignal: AbortSignal.timeout(PUBLISH_TIMEOUT_MS) },
    );
  },
};

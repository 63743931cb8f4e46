import { basicIngestTopic, topics } from '@argentum/contracts/messaging';
import { config } from '../config';
import type { ReadingSink } from '../domain/devices/reading-sink';
import { iotPublisher } from './iot-publisher';

/**
 * Readings a device did not publish itself (third-party devices', commands' confirmed values),
 * published through the IoT data plane to the telemetry rule's Basic Ingest topic (no messaging
 * charge; TELEMETRY_RULE_NAME): they reach the telemetry queue and ingest the way a device's own do,
 * except that they tell nothing of its clock (the rule's clientid() is not the device's). Locally the
 * data plane's shim publishes into the broker, whose rule runner takes Basic Ingest topics as IoT Core
 * does.
 */
export const basicIngestReadings: ReadingSink = {
  send: (orgId, message) =>
    iotPublisher.publish(
      basicIngestTopic(config.telemetryRuleName, topics.sensorData(orgId, message.devID)),
      message,
    ),
};

import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { emfMetrics, flushingMetrics } from '../adapters/emf-metrics';
import { firehoseReadingArchive } from '../adapters/firehose-archive';
import { iotLiveFloorPublisher } from '../adapters/live-floor-publisher';
import { sqsTelemetryDeadLetters } from '../adapters/telemetry-dead-letters';
import { assertConfigured } from '../config';
import { PLATFORM_METRICS } from '../domain/metrics';
import type { QueuedReading } from '../domain/telemetry/ingest';
import { takeTelemetry, type TelemetryIntakePorts } from '../domain/telemetry/intake';
import { ENV } from '../environment';
import { dynamoDevices } from '../stores/devices';
import { clock, logger } from './wiring/core';
import { alarmPorts } from './wiring/notifications';
import { presencePorts } from './wiring/presence';
import { ingestTelemetryStore } from './wiring/telemetry';

// A misconfigured function fails its cold start, naming what is missing.
assertConfigured(process.env, [ENV.telemetryDeadLetterQueueUrl, ENV.archiveStreamName]);

const queued = (record: SQSRecord): QueuedReading => ({
  id: record.messageId,
  body: record.body,
  receives: Number(record.attributes.ApproximateReceiveCount) || 1,
  sentAt: Number(record.attributes.SentTimestamp),
});

const ports: TelemetryIntakePorts = {
  telemetry: ingestTelemetryStore,
  devices: dynamoDevices,
  deadLetters: sqsTelemetryDeadLetters,
  archive: firehoseReadingArchive,
  alarms: alarmPorts(),
  presence: presencePorts(),
  liveFloors: { publisher: iotLiveFloorPublisher },
  logger,
  metrics: emfMetrics(PLATFORM_METRICS.telemetry.namespace),
  clock,
};

/**
 * The IoT rule `SELECT *, topic(1) AS orgId, topic(3) AS topicDevId, timestamp() AS receivedAt FROM '+/sensordata/+'` sends each
 * telemetry message to a queue; this function takes them in batches (SQS, at least once) and hands
 * what it accepted to the archive's Firehose stream, one request a batch. Each record's
 * fate is its own (domain/telemetry/intake.ts `takeTelemetry`): the ones to deliver again are answered
 * as `batchItemFailures`, the event source's partial batch response.
 */
export const handler = flushingMetrics(async (event: SQSEvent): Promise<SQSBatchResponse> => ({
  batchItemFailures: (await takeTelemetry(ports, event.Records.map(queued))).map((itemIdentifier) => ({
    itemIdentifier,
  })),
}));

import { assertConfigured } from '../config';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { emfMetrics, flushingMetrics } from '../adapters/emf-metrics';
import { PLATFORM_METRICS } from '../domain/metrics';
import { sqsTelemetryDeadLetters } from '../adapters/telemetry-dead-letters';
import { firehoseReadingArchive } from '../adapters/firehose-archive';
import {
  type BatchResult,
  type DeadLetters,
  type IngestPorts,
  ingestBatch,
  type QueuedReading,
} from '../domain/telemetry/ingest';
import { ENV } from '../environment';
import type { Metrics } from '../domain/ports';
import { log } from '../http/log';
import { observeReadings, type StoredReading } from '../domain/notifications/alarms';
import { type Device, dynamoDevices, getDevice, recordLatest } from '../stores/devices';
import { iotLiveFloorPublisher } from '../adapters/live-floor-publisher';
import { type LiveFloorPorts, type NewestReading, publishLiveFloors } from '../domain/realtime/live-floor';
import { alarmDevice, alarmPorts } from './wiring/notifications';
import { presencePorts } from './wiring/presence';
import { observeReadingsPresence, type PresencePorts } from '../domain/devices/presence';
import { ingestTelemetryStore } from './wiring/telemetry';

// A misconfigured function fails its cold start, naming what is missing.
assertConfigured(process.env, [ENV.telemetryDeadLetterQueueUrl, ENV.archiveStreamName]);

/** A batch's counts: a log line, and metrics of namespace Argentum/Telemetry (sent as the invocation ends). */
function record(metrics: Metrics, counts: BatchResult['counts']) {
  const level = counts.Invalid + counts.UnknownDevice + counts.Failed > 0 ? 'warn' : 'info';
  log(level, 'telemetry batch', counts);
  for (const [name, value] of Object.entries(counts)) metrics.count(name, value);
}

const queued = (record: SQSRecord): QueuedReading => ({
  id: record.messageId,
  body: record.body,
  receives: Number(record.attributes.ApproximateReceiveCount) || 1,
  sentAt: Number(record.attributes.SentTimestamp),
});

/**
 * Takes batches from the telemetry queue (SQS, at least once); each record's fate is its own
 * (domain/telemetry/ingest.ts `ingestBatch`): the ones to deliver again are answered as
 * `batchItemFailures`, the event source's partial batch response.
 */
export async function handleTelemetry(
  ports: IngestPorts & { deadLetters: DeadLetters; metrics: Metrics },
  event: SQSEvent,
): Promise<SQSBatchResponse> {
  const { retry, counts } = await ingestBatch(ports, event.Records.map(queued));
  record(ports.metrics, counts);
  return { batchItemFailures: retry.map((itemIdentifier) => ({ itemIdentifier })) };
}

const alarms = alarmPorts();
const presence = presencePorts();
const metrics = emfMetrics(PLATFORM_METRICS.telemetry.namespace);

/**
 * One invocation's ports. Each device's latest-values write answers the device as it left it
 * (stores/devices.ts `recordLatest`): live placement, comfort alarms and presence decide from that
 * image, so a reading costs one write and no device reads (docs/cost.md). A device whose write did not
 * answer one (a newer reading was there) is read as before.
 */
function ingestPorts() {
  const recorded = new Map<string, Device>();
  const deviceOf = async (devId: string) => recorded.get(devId) ?? (await getDevice(devId));
  // Presence reads again after a conditional write lost a race: only its first read takes the image.
  const presenceTaken = new Set<string>();
  const presenceOfBatch: PresencePorts = {
    ...presence,
    presence: {
      ...presence.presence,
      get: async (devId) => {
        const image = presenceTaken.has(devId) ? undefined : recorded.get(devId);
        presenceTaken.add(devId);
        return image ?? presence.presence.get(devId);
      },
    },
  };
  const liveFloors: LiveFloorPorts = {
    placements: {
      placementOf: async (devId) => {
        const device = await deviceOf(devId);
        return device && { orgId: device.orgID, floorId: device.onFloor ? device.floorID : undefined };
      },
    },
    publisher: iotLiveFloorPublisher,
    logger: { log },
  };
  return {
    telemetry: ingestTelemetryStore,
    devices: {
      ownerOf: dynamoDevices.ownerOf,
      recordLatest: async (devId: string, time: number, values: Record<string, number>) => {
        const device = await recordLatest(devId, time, values);
        if (!device) return undefined;
        recorded.set(devId, device);
        return { orgId: device.orgID };
      },
    },
    deadLetters: sqsTelemetryDeadLetters,
    archive: firehoseReadingArchive,
    // Comfort alarms are evaluated as readings arrive (domain/notifications/alarms.ts).
    readings: {
      stored: (points: readonly StoredReading[]) =>
        observeReadings(
          {
            ...alarms,
            devices: {
              get: async (devId: string) => {
                const device = await deviceOf(devId);
                return device ? alarmDevice(device) : undefined;
              },
            },
          },
          points,
        ),
    },
    // Browsers watching a floor get its devices' newest values, one message per floor and batch; a
    // reading moves its device online (domain/devices/presence.ts).
    live: {
      recorded: async (newest: readonly NewestReading[]) => {
        await publishLiveFloors(liveFloors, newest);
        await observeReadingsPresence(presenceOfBatch, newest, Date.now());
      },
    },
    logger: { log },
    metrics,
  };
}

/**
 * The IoT rule `SELECT *, topic(1) AS orgId, topic(3) AS topicDevId, timestamp() AS receivedAt FROM '+/sensordata/+'` sends each
 * telemetry message to a queue; this function takes them in batches, and hands what it accepted to the
 * archive's Firehose stream, one request a batch.
 */
export const handler = flushingMetrics((event: SQSEvent): Promise<SQSBatchResponse> =>
  handleTelemetry(ingestPorts(), event),
);

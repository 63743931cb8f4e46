import { assertConfigured } from '../config';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { sqsTelemetryDeadLetters } from '../adapters/telemetry-dead-letters';
import {
  type DeadLetter,
  type DeadLetters,
  type IngestOutcome,
  type IngestPorts,
  ingestTelemetry,
  TELEMETRY_MAX_RECEIVES,
  type TelemetryDelivery,
} from '../domain/telemetry/ingest';
import { ENV } from '../environment';
import { log } from '../http/log';
import { observeReadings, type StoredReading } from '../domain/notifications/alarms';
import { dynamoDevices, getDevice } from '../stores/devices';
import { iotLiveFloorPublisher } from '../adapters/live-floor-publisher';
import { type LiveFloorPorts, type NewestReading, publishLiveFloors } from '../domain/realtime/live-floor';
import { alarmDevice, alarmPorts } from './wiring/notifications';
import { presencePorts } from './wiring/presence';
import { observeReadingsPresence } from '../domain/devices/presence';
import { ingestTelemetryStore } from './wiring/telemetry';

// A misconfigured function fails its cold start, naming what is missing.
assertConfigured(process.env, [ENV.telemetryDeadLetterQueueUrl]);

/**
 * The body the IoT rule sends: the device's message plus `orgId` (topic(1)), `topicDevId` (topic(3))
 * and `receivedAt` (timestamp()).
 */
function deliveryOf(record: SQSRecord): TelemetryDelivery | undefined {
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { orgId, topicDevId, receivedAt, ...message } = body as Record<string, unknown>;
  if (typeof orgId !== 'string' || orgId === '') return undefined;
  if (typeof topicDevId !== 'string' || topicDevId === '') return undefined;
  const sent = Number(record.attributes.SentTimestamp);
  return {
    orgId,
    topicDevId,
    message,
    receivedAt:
      typeof receivedAt === 'number' && Number.isFinite(receivedAt)
        ? receivedAt
        : Number.isFinite(sent) && sent > 0
          ? sent
          : Date.now(),
  };
}

/** One CloudWatch embedded-metric line: the counts become metrics without an API call. */
function emitMetrics(
  counts: Record<'Stored' | 'Invalid' | 'UnknownDevice' | 'Failed' | 'DeadLettered', number>,
) {
  const level = counts.Invalid + counts.UnknownDevice + counts.Failed > 0 ? 'warn' : 'info';
  log(level, 'telemetry batch', {
    _aws: {
      Timestamp: Date.now(),
      CloudWatchMetrics: [
        {
          Namespace: 'Argentum/Telemetry',
          Dimensions: [[]],
          Metrics: Object.keys(counts).map((Name) => ({ Name, Unit: 'Count' })),
        },
      ],
    },
    ...counts,
  });
}

/**
 * Takes batches from the telemetry queue (SQS, at least once). Each record's fate is its own:
 * stored (or already stored: writing is idempotent), retried (reported in `batchItemFailures`: storing
 * failed, or the device is not registered yet), or sent to the dead letters with its reason (not a
 * reading; a device still unknown at the last delivery). If the dead letters cannot be reached, those
 * records are retried too, and the queue's own redrive takes them after the last attempt.
 */
export async function handleTelemetry(
  ports: IngestPorts & { deadLetters: DeadLetters },
  event: SQSEvent,
): Promise<SQSBatchResponse> {
  const entries = event.Records.map((record) => ({ record, delivery: deliveryOf(record) }));
  const valid = entries.filter((e): e is { record: SQSRecord; delivery: TelemetryDelivery } => !!e.delivery);
  let outcomes: IngestOutcome[];
  try {
    outcomes = await ingestTelemetry(
      ports,
      valid.map((e) => e.delivery),
    );
  } catch (error) {
    const reason = `ingest failed: ${error instanceof Error ? error.message : String(error)}`;
    outcomes = valid.map(() => ({ kind: 'failed', reason }));
  }
  const outcomeOf = new Map(valid.map((e, i) => [e.record.messageId, outcomes[i]]));

  const retry: string[] = [];
  const letters: DeadLetter[] = [];
  const counts = { Stored: 0, Invalid: 0, UnknownDevice: 0, Failed: 0, DeadLettered: 0 };
  for (const { record } of entries) {
    const outcome: IngestOutcome = outcomeOf.get(record.messageId) ?? {
      kind: 'invalid',
      reason: 'not a JSON object with the topic organization',
    };
    const receives = Number(record.attributes.ApproximateReceiveCount) || 1;
    switch (outcome.kind) {
      case 'stored':
        counts.Stored++;
        break;
      case 'invalid':
        counts.Invalid++;
        letters.push({ messageId: record.messageId, body: record.body, reason: outcome.reason });
        break;
      case 'unknown-device':
        counts.UnknownDevice++;
        log('warn', 'telemetry from an unknown device', {
          messageId: record.messageId,
          devId: outcome.devId,
          receives,
        });
        if (receives >= TELEMETRY_MAX_RECEIVES)
          letters.push({ messageId: record.messageId, body: record.body, reason: outcome.reason });
        else retry.push(record.messageId);
        break;
      case 'failed':
        counts.Failed++;
        log('warn', 'telemetry not stored, will come again', {
          messageId: record.messageId,
          reason: outcome.reason,
          receives,
        });
        retry.push(record.messageId);
        break;
    }
  }
  if (letters.length > 0) {
    try {
      await ports.deadLetters.send(letters);
      counts.DeadLettered = letters.length;
      for (const letter of letters)
        log('warn', 'telemetry dead letter', { messageId: letter.messageId, reason: letter.reason });
    } catch (error) {
      log('error', 'telemetry dead letters not sent, will come again', {
        error: error instanceof Error ? error.message : String(error),
        count: letters.length,
      });
      retry.push(...letters.map((l) => l.messageId));
    }
  }
  emitMetrics(counts);
  return { batchItemFailures: retry.map((itemIdentifier) => ({ itemIdentifier })) };
}

const alarms = alarmPorts();
const presence = presencePorts();
const liveFloors: LiveFloorPorts = {
  placements: {
    placementOf: async (devId) => {
      const device = await getDevice(devId);
      return device && { orgId: device.orgID, floorId: device.onFloor ? device.floorID : undefined };
    },
  },
  publisher: iotLiveFloorPublisher,
  logger: { log },
};
const ports = {
  telemetry: ingestTelemetryStore,
  devices: dynamoDevices,
  deadLetters: sqsTelemetryDeadLetters,
  // Comfort alarms are evaluated as readings arrive (domain/notifications/alarms.ts).
  readings: {
    stored: (points: readonly StoredReading[]) =>
      observeReadings(
        {
          ...alarms,
          devices: {
            get: async (devId: string) => {
              const device = await getDevice(devId);
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
      await observeReadingsPresence(presence, newest, Date.now());
    },
  },
  logger: { log },
};

/**
 * The IoT rule `SELECT *, topic(1) AS orgId, topic(3) AS topicDevId, timestamp() AS receivedAt FROM '+/sensordata/+'` sends each
 * telemetry message to a queue; this function takes them in batches.
 */
export const handler = (event: SQSEvent): Promise<SQSBatchResponse> => handleTelemetry(ports, event);

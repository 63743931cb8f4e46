import { assertConfigured } from '../config';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { ingestTelemetry, type TelemetryDelivery } from '../domain/telemetry/ingest';
import { log } from '../http/log';
import { dynamoDevices } from '../stores/devices';
import { dynamoTelemetryStore } from '../stores/telemetry-dynamodb';

// A misconfigured function fails its cold start, naming what is missing.
assertConfigured();

/**
 * The IoT rule `SELECT *, topic(1) AS orgId FROM '+/sensordata/+'` sends each telemetry message to a
 * queue; this function takes them in batches. Messages that are not telemetry are dropped (a retry
 * would not help); if storing fails, the whole batch is reported failed and comes back.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const deliveries: TelemetryDelivery[] = [];
  for (const record of event.Records) {
    let body: unknown;
    try {
      body = JSON.parse(record.body);
    } catch {
      body = undefined;
    }
    const { orgId, ...message } =
      typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    deliveries.push({ orgId: typeof orgId === 'string' ? orgId : '', message });
  }
  try {
    const outcomes = await ingestTelemetry(
      { telemetry: dynamoTelemetryStore, devices: dynamoDevices },
      deliveries,
    );
    const dropped = outcomes.filter((o) => o !== 'stored').length;
    if (dropped > 0) log('warn', 'telemetry dropped', { dropped, received: outcomes.length });
    return { batchItemFailures: [] };
  } catch (error) {
    log('error', 'telemetry batch not stored', {
      error: error instanceof Error ? error.message : String(error),
    });
    return { batchItemFailures: event.Records.map((r) => ({ itemIdentifier: r.messageId })) };
  }
}

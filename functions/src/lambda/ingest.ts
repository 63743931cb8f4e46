import { ingestTelemetry } from '../domain/telemetry/ingest';
import { log } from '../http/log';
import { dynamoTelemetryStore } from '../stores/telemetry-dynamodb';

/** The IoT rule `SELECT *, topic(1) AS orgId FROM '+/sensordata/+'` invokes this with the message. */
export interface IngestEvent extends Record<string, unknown> {
  orgId?: string;
}

export async function handler(event: IngestEvent): Promise<{ outcome: string }> {
  const { orgId, ...message } = event;
  if (typeof orgId !== 'string' || orgId === '') return { outcome: 'invalid' };
  const outcome = await ingestTelemetry(dynamoTelemetryStore, orgId, message);
  if (outcome !== 'stored') log('warn', 'telemetry dropped', { orgId, outcome, devID: message.devID });
  return { outcome };
}

import { assertConfigured } from '../config';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { log } from '../http/log';
import { rawKeyHour, recomputeHours } from '../stores/telemetry-dynamodb';

// A misconfigured function fails its cold start, naming what is missing.
assertConfigured();

/**
 * Keeps the hourly roll-ups (DynamoDB telemetry store): the telemetry table's stream (keys only) brings
 * the raw readings written; each device hour they fall in is recomputed once per batch from the raw
 * readings stored (idempotent, and safe beside concurrent recomputations: stores/telemetry-dynamodb.ts).
 * Roll-up items that come through the stream are ignored. If an hour cannot be recomputed, the batch is
 * retried from its first record of that device (the stream keeps order per key).
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const seen: { devId: string; hour: number; sequence: string }[] = [];
  for (const record of event.Records) {
    const keys = record.dynamodb?.Keys;
    const hour = rawKeyHour({ series: keys?.series?.S, t: keys?.t?.N });
    if (hour) seen.push({ ...hour, sequence: record.dynamodb?.SequenceNumber ?? '' });
  }
  const failed = await recomputeHours(seen);
  if (failed.size === 0) return { batchItemFailures: [] };
  const first = seen.find((s) => failed.has(s.devId));
  log('warn', 'telemetry roll-ups not recomputed, will come again', { devices: [...failed].slice(0, 20) });
  return { batchItemFailures: first ? [{ itemIdentifier: first.sequence }] : [] };
}

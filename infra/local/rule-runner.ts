import { randomUUID } from 'node:crypto';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { telemetryFilter } from '@argentum/events';
import { telemetryBatching } from '../src/definitions';
import type { Broker } from './broker';

/** As configured on the queue's event source in CDK. */
const BATCH_SIZE = telemetryBatching.batchSize;
const BATCHING_WINDOW_MS = telemetryBatching.maxBatchingWindowSeconds * 1000;
/** Lambda polls a queue with a few concurrent batches; enough to keep DynamoDB busy. */
const MAX_CONCURRENT_BATCHES = 4;

const sqsRecord = (body: string): SQSRecord => ({
  messageId: randomUUID(),
  receiptHandle: 'local',
  body,
  attributes: {
    ApproximateReceiveCount: '1',
    SentTimestamp: String(Date.now()),
    SenderId: 'iot',
    ApproximateFirstReceiveTimestamp: String(Date.now()),
  },
  messageAttributes: {},
  md5OfBody: '',
  eventSource: 'aws:sqs',
  eventSourceARN: 'arn:aws:sqs:local:000000000000:telemetry',
  awsRegion: 'local',
});

/**
 * Plays the IoT topic rule `SELECT *, topic(1) AS orgId FROM '+/sensordata/+'` and the queue behind it:
 * messages are collected into batches (size or time window, as the SQS event source does) and each
 * batch is one invocation of the ingest handler. Failed records are retried, like SQS redelivers them.
 */
export function startRuleRunner(broker: Broker): { stop(): Promise<void>; drained(): Promise<void> } {
  let pending: SQSRecord[] = [];
  let timer: NodeJS.Timeout | undefined;
  const inFlight = new Set<Promise<void>>();
  const waiting: SQSRecord[][] = [];

  const invoke = async (records: SQSRecord[], attempt = 1): Promise<void> => {
    const event: SQSEvent = { Records: records };
    // The ingest Lambda's entry point, loaded once the stack has set the environment it reads.
    const { handler: ingest } = await import('@argentum/functions/lambda/ingest');
    const result = await ingest(event).catch(() => ({
      batchItemFailures: records.map((r) => ({ itemIdentifier: r.messageId })),
    }));
    const failed = new Set(result.batchItemFailures.map((f) => f.itemIdentifier));
    if (failed.size > 0 && attempt < 5) {
      await new Promise((r) => setTimeout(r, 100 * attempt));
      await invoke(
        records.filter((r) => failed.has(r.messageId)),
        attempt + 1,
      );
    } else if (failed.size > 0) {
      console.error(
        `ingest: ${failed.size} telemetry messages failed 5 times and were dropped (a dead-letter queue in AWS)`,
      );
    }
  };

  const pump = () => {
    while (inFlight.size < MAX_CONCURRENT_BATCHES && waiting.length > 0) {
      const batch = waiting.shift() as SQSRecord[];
      const run = invoke(batch).finally(() => {
        inFlight.delete(run);
        pump();
      });
      inFlight.add(run);
    }
  };

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    waiting.push(pending);
    pending = [];
    pump();
  };

  const deliver = (packet: { topic: string; payload: Buffer | string }, callback: () => void) => {
    callback();
    let message: unknown;
    try {
      message = JSON.parse(packet.payload.toString());
    } catch {
      return; // A JSON SELECT skips payloads that are not JSON.
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return;
    const orgId = packet.topic.split('/')[0];
    pending.push(sqsRecord(JSON.stringify({ ...(message as Record<string, unknown>), orgId })));
    if (pending.length >= BATCH_SIZE) flush();
    else timer ??= setTimeout(flush, BATCHING_WINDOW_MS);
  };
  broker.aedes.subscribe(telemetryFilter, deliver, () => undefined);

  const drained = async () => {
    flush();
    while (inFlight.size > 0 || waiting.length > 0) await Promise.all([...inFlight]);
  };
  return {
    drained,
    async stop() {
      await new Promise<void>((resolve) =>
        broker.aedes.unsubscribe(telemetryFilter, deliver, () => resolve()),
      );
      await drained();
    },
  };
}

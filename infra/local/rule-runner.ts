import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { basicIngestTopic, ruleSeenTopic, telemetryFilter } from '@argentum/events';
import { TELEMETRY_MAX_RECEIVES } from '@argentum/functions/domain/telemetry/ingest';
import { telemetryBatching } from '../src/definitions';
import type { Broker } from './broker';
import { HOST } from './config';
import { close, listen, readBody } from './http-util';

/** The batch size of the queue's event source in CDK; the window is the local one (definitions.ts). */
const BATCH_SIZE = telemetryBatching.batchSize;
const BATCHING_WINDOW_MS = telemetryBatching.localBatchingWindowMs;
/** Lambda polls a queue with a few concurrent batches; enough to keep DynamoDB busy. */
const MAX_CONCURRENT_BATCHES = 4;
/** Delay before a failed record comes again (the queue's visibility timeout, 180 s in AWS, shortened). */
const RETRY_DELAY_MS = 1000;
const DEAD_LETTER_PATH = '/000000000000/telemetry-dead-letters';

/** A message on the dead-letter list: its body and why it could not be stored. */
export interface LocalDeadLetter {
  messageId: string;
  body: string;
  reason: string;
  at: string;
}

export interface LocalDeadLetterQueue {
  /** The queue's URL (TELEMETRY_DEAD_LETTER_QUEUE_URL). GET answers the list as JSON, for tests. */
  url: string;
  letters: LocalDeadLetter[];
  add(letter: Omit<LocalDeadLetter, 'at'>): void;
  /** What `POST {url}/redeliver {"match": text}` does: set by the rule runner. */
  onRedeliver?: (match: string) => Promise<number>;
  stop(): Promise<void>;
}

/**
 * The telemetry dead-letter queue: accepts SendMessageBatch (the AWS JSON protocol the SDK speaks;
 * the SDK sends to the queue URL's host) and keeps the list, each message with its `reason` attribute,
 * and logs it. GET on the queue URL answers the list.
 */
export async function startDeadLetterQueue(): Promise<LocalDeadLetterQueue> {
  const letters: LocalDeadLetter[] = [];
  const add = (letter: Omit<LocalDeadLetter, 'at'>) => {
    letters.push({ ...letter, at: new Date().toISOString() });
    console.error(`ingest: dead letter ${letter.messageId}: ${letter.reason}`);
  };
  const answer = (response: ServerResponse, status: number, body: unknown) =>
    response.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify(body));
  const queue: LocalDeadLetterQueue = { url: '', letters, add, stop: () => close(server) };
  const server: Server = createServer((request, response) => {
    if (request.method === 'GET') {
      answer(response, 200, letters);
      return;
    }
    readBody(request, 1024 * 1024)
      .then(async (raw) => {
        if (request.url?.endsWith('/redeliver')) {
          // Local only: SQS delivers at least once; tests make it deliver batches again.
          const { match } = JSON.parse(raw.toString('utf8')) as { match: string };
          const records = (await queue.onRedeliver?.(match)) ?? 0;
          answer(response, 200, { records });
          return;
        }
        const input = JSON.parse(raw.toString('utf8')) as {
          Entries?: {
            Id: string;
            MessageBody: string;
            MessageAttributes?: Record<string, { StringValue?: string }>;
          }[];
        };
        if (request.headers['x-amz-target'] !== 'AmazonSQS.SendMessageBatch' || !input.Entries) {
          answer(response, 400, { __type: 'com.amazonaws.sqs#InvalidAction', message: 'Not here' });
          return;
        }
        const Successful = input.Entries.map((entry) => {
          add({
            messageId: entry.MessageAttributes?.messageId?.StringValue ?? entry.Id,
            body: entry.MessageBody,
            reason: entry.MessageAttributes?.reason?.StringValue ?? 'no reason given',
          });
          return {
            Id: entry.Id,
            MessageId: randomUUID(),
            MD5OfMessageBody: createHash('md5').update(entry.MessageBody).digest('hex'),
          };
        });
        answer(response, 200, { Successful, Failed: [] });
      })
      .catch(() => {
        if (!response.headersSent) answer(response, 400, { __type: 'com.amazonaws.sqs#InvalidRequest' });
      });
  });
  await listen(server, 0, HOST);
  const { port } = server.address() as AddressInfo;
  queue.url = `http://${HOST}:${port}${DEAD_LETTER_PATH}`;
  return queue;
}

const sqsRecord = (body: string, messageId: string, receives: number, sentAt: number): SQSRecord => ({
  messageId,
  receiptHandle: 'local',
  body,
  attributes: {
    ApproximateReceiveCount: String(receives),
    SentTimestamp: String(sentAt),
    SenderId: 'iot',
    ApproximateFirstReceiveTimestamp: String(sentAt),
  },
  messageAttributes: {},
  md5OfBody: '',
  eventSource: 'aws:sqs',
  eventSourceARN: 'arn:aws:sqs:local:000000000000:telemetry',
  awsRegion: 'local',
});

export interface RuleRunner {
  stop(): Promise<void>;
  /** Resolves when every message received so far has been ingested, retries included. */
  drained(): Promise<void>;
  /**
   * Delivers again every recent batch holding a record whose body contains `match`, as SQS does when
   * a Lambda's batch times out after it stored them (at-least-once delivery); resolves when they have
   * been handled, with the number of records. For tests and benchmarks.
   */
  redeliver(match: string): Promise<number>;
}

/** Batches kept for redelivery (recent ones only: the local stack runs for days). */
const KEPT_BATCHES = 2000;

/**
 * Plays the IoT topic rule `SELECT *, topic(1) AS orgId, topic(3) AS topicDevId, timestamp() AS
 * receivedAt FROM '+/sensordata/+'` and the queue behind it: messages are collected into batches (size or time
 * window, as the SQS event source does) and each batch is one invocation of the ingest handler.
 * Records reported failed come again (the receive count grows), up to the queue's maximum receives;
 * then they go to the dead-letter list, as the queue's redrive does.
 */
export function startRuleRunner(
  broker: Broker,
  deadLetters: LocalDeadLetterQueue,
  /** The rule's name: devices may also publish to it through Basic Ingest, as on AWS. */
  ruleName: string,
): RuleRunner {
  let pending: SQSRecord[] = [];
  let timer: NodeJS.Timeout | undefined;
  const inFlight = new Set<Promise<void>>();
  const waiting: SQSRecord[][] = [];
  const delivered: SQSRecord[][] = [];

  const invoke = async (records: SQSRecord[]): Promise<void> => {
    // The ingest Lambda's entry point, loaded once the stack has set the environment it reads.
    const { handler: ingest } = await import('@argentum/functions/lambda/ingest');
    const result = await ingest({ Records: records } satisfies SQSEvent).catch(() => ({
      batchItemFailures: records.map((r) => ({ itemIdentifier: r.messageId })),
    }));
    const failed = new Set(result.batchItemFailures.map((f) => f.itemIdentifier));
    if (failed.size === 0) return;
    const again: SQSRecord[] = [];
    for (const record of records) {
      if (!failed.has(record.messageId)) continue;
      const receives = Number(record.attributes.ApproximateReceiveCount);
      if (receives >= TELEMETRY_MAX_RECEIVES) {
        deadLetters.add({
          messageId: record.messageId,
          body: record.body,
          reason: `failed ${receives} times (the queue's redrive)`,
        });
      } else {
        again.push({
          ...record,
          attributes: { ...record.attributes, ApproximateReceiveCount: String(receives + 1) },
        });
      }
    }
    if (again.length === 0) return;
    await new Promise((r) => setTimeout(r, RETRY_DELAY_MS));
    await invoke(again);
  };

  const pump = () => {
    while (inFlight.size < MAX_CONCURRENT_BATCHES && waiting.length > 0) {
      const batch = waiting.shift() as SQSRecord[];
      delivered.push(batch);
      if (delivered.length > KEPT_BATCHES) delivered.shift();
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
      // A JSON SELECT cannot parse it: IoT Core's rule error action logs it; here the dead letters keep it.
      deadLetters.add({
        messageId: randomUUID(),
        body: packet.payload.toString().slice(0, 1000),
        reason: `not JSON (topic ${packet.topic})`,
      });
      return;
    }
    const [orgId, , topicDevId] = ruleSeenTopic(packet.topic).split('/');
    const receivedAt = Date.now();
    const fields = typeof message === 'object' && message !== null && !Array.isArray(message) ? message : {};
    pending.push(
      sqsRecord(JSON.stringify({ ...fields, orgId, topicDevId, receivedAt }), randomUUID(), 1, receivedAt),
    );
    if (pending.length >= BATCH_SIZE) flush();
    else timer ??= setTimeout(flush, BATCHING_WINDOW_MS);
  };
  // `+` never matches a `$` level (MQTT), so the Basic Ingest form is a filter of its own.
  const filters = [telemetryFilter, basicIngestTopic(ruleName, telemetryFilter)];
  for (const filter of filters) broker.aedes.subscribe(filter, deliver, () => undefined);

  const drained = async () => {
    flush();
    while (inFlight.size > 0 || waiting.length > 0) await Promise.all([...inFlight]);
  };
  const redeliver = async (match: string) => {
    await drained();
    const batches = delivered.filter((batch) => batch.some((r) => r.body.includes(match)));
    await Promise.all(
      batches.map((batch) =>
        invoke(
          batch.map((r) => ({
            ...r,
            attributes: {
              ...r.attributes,
              ApproximateReceiveCount: String(Number(r.attributes.ApproximateReceiveCount) + 1),
            },
          })),
        ),
      ),
    );
    return batches.reduce((n, batch) => n + batch.length, 0);
  };
  deadLetters.onRedeliver = redeliver;
  return {
    drained,
    redeliver,
    async stop() {
      for (const filter of filters)
        await new Promise<void>((resolve) => broker.aedes.unsubscribe(filter, deliver, () => resolve()));
      await drained();
    },
  };
}

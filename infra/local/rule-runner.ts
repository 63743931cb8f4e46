import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AedesPublishPacket, Client } from 'aedes';
import { basicIngestTopic, ruleSeenTopic } from '@argentum/contracts/messaging';
import { TELEMETRY_MAX_RECEIVES } from '@argentum/functions/domain/telemetry/ingest';
import { SQS_BATCH_LIMITS, sqsMessageBytes } from '@argentum/functions/adapters/telemetry-dead-letters';
import { telemetryBatching } from '../src/definitions';
import type { Broker } from './broker';
import { HOST } from './config';
import { BodyTooLarge, close, listen, readBody } from './http-util';
import { sqsRefusesBody, startEventSource } from './sqs-event-source';
import { asFunction } from './function-grants';

/** Lambda polls a queue with a few concurrent batches; enough to keep DynamoDB busy. */
const MAX_CONCURRENT_BATCHES = 4;
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

/** A batch entry's id: "up to 80 characters ... alphanumeric characters, hyphens (-), and underscores (_)". */
const BATCH_ENTRY_ID = /^[A-Za-z0-9_-]{1,80}$/;

type BatchEntry = {
  Id: string;
  MessageBody: string;
  MessageAttributes?: Record<string, { DataType?: string; StringValue?: string }>;
};

/**
 * Why SQS refuses a SendMessageBatch request (API reference, SendMessageBatch; "Amazon SQS message
 * quotas"), as its error code, or undefined: no entries, more than 10, an id not of the form or twice,
 * or messages (bodies with their attributes) of more than 1 MiB together.
 */
export function sendMessageBatchRefusal(entries: readonly BatchEntry[]): string | undefined {
  if (entries.length === 0) return 'EmptyBatchRequest';
  if (entries.length > SQS_BATCH_LIMITS.entries) return 'TooManyEntriesInBatchRequest';
  if (entries.some((entry) => !BATCH_ENTRY_ID.test(String(entry.Id)))) return 'InvalidBatchEntryId';
  if (new Set(entries.map((entry) => entry.Id)).size !== entries.length) return 'BatchEntryIdsNotDistinct';
  const bytes = entries.reduce(
    (n, entry) => n + sqsMessageBytes(entry.MessageBody, entry.MessageAttributes),
    0,
  );
  return bytes > SQS_BATCH_LIMITS.payloadBytes ? 'BatchRequestTooLong' : undefined;
}

/**
 * The telemetry dead-letter queue: accepts SendMessageBatch (the AWS JSON protocol the SDK speaks;
 * the SDK sends to the queue URL's host) within SQS's limits (`sendMessageBatchRefusal`) and keeps the
 * list, each message with its `reason` attribute, and logs it. GET on the queue URL answers the list.
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
    // The request's JSON is longer than the messages it carries (escapes, names): read past the limit.
    readBody(request, 4 * SQS_BATCH_LIMITS.payloadBytes)
      .then(async (raw) => {
        if (request.url?.endsWith('/redeliver')) {
          // Local only: SQS delivers at least once; tests make it deliver batches again.
          const { match } = JSON.parse(raw.toString('utf8')) as { match: string };
          const records = (await queue.onRedeliver?.(match)) ?? 0;
          answer(response, 200, { records });
          return;
        }
        const input = JSON.parse(raw.toString('utf8')) as { Entries?: BatchEntry[] };
        if (request.headers['x-amz-target'] !== 'AmazonSQS.SendMessageBatch') {
          answer(response, 400, { __type: 'com.amazonaws.sqs#InvalidAction', message: 'Not here' });
          return;
        }
        const refused = sendMessageBatchRefusal(input.Entries ?? []);
        if (refused || !input.Entries) {
          answer(response, 400, { __type: `com.amazonaws.sqs#${refused}`, message: refused });
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
      .catch((error: unknown) => {
        if (response.headersSent) return;
        const type = error instanceof BodyTooLarge ? 'BatchRequestTooLong' : 'InvalidRequest';
        answer(response, 400, { __type: `com.amazonaws.sqs#${type}`, message: type });
      });
  });
  await listen(server, 0, HOST);
  const { port } = server.address() as AddressInfo;
  queue.url = `http://${HOST}:${port}${DEAD_LETTER_PATH}`;
  return queue;
}

/**
 * What the telemetry rule's SQL makes of a JSON object published on `{org}/sensordata/{dev}`: its
 * fields, then topic(1) AS orgId, topic(3) AS topicDevId, clientid() AS clientId, timestamp() AS
 * receivedAt.
 */
export function telemetryRuleBody(
  topic: string,
  message: object,
  clientId: string,
  receivedAt: number,
): Record<string, unknown> {
  // A Basic Ingest topic ($aws/rules/{rule}/...) reaches the rule without its prefix.
  const [orgId, , topicDevId] = ruleSeenTopic(topic).split('/');
  return { ...message, orgId, topicDevId, clientId, receivedAt };
}

/**
 * Whether the rule named `ruleName` receives a message on `topic`: one matching its filter
 * `+/sensordata/+`, or its Basic Ingest form `$aws/rules/{ruleName}/+/sensordata/+` (a `$` level is
 * never matched by `+`).
 */
export function telemetryRuleReceives(topic: string, ruleName: string): boolean {
  const prefix = basicIngestTopic(ruleName, '');
  const seen = topic.startsWith(prefix) ? topic.slice(prefix.length) : topic;
  const levels = seen.split('/');
  return levels.length === 3 && levels[1] === 'sensordata' && !levels[0]?.startsWith('$');
}

export interface RuleRunner {
  stop(): Promise<void>;
  /** Resolves when every message received so far has met its fate, retries included. */
  drained(): Promise<void>;
  /**
   * Delivers again every recent batch holding a record whose body contains `match`, as SQS does when
   * a Lambda's batch times out after it stored them (at-least-once delivery); resolves when they have
   * been handled, with the number of records. For tests and benchmarks.
   */
  redeliver(match: string): Promise<number>;
}

/**
 * Plays the IoT topic rule `SELECT *, topic(1) AS orgId, topic(3) AS topicDevId, clientid() AS
 * clientId, timestamp() AS receivedAt FROM '+/sensordata/+'` (infra/cdk/constructs/telemetry-intake.ts) and the queue and event source
 * behind it (sqs-event-source.ts, with the queue's settings from definitions.ts): batches by size,
 * bytes or window, partial batch responses, failed records received again after the visibility
 * timeout, the dead-letter queue after `maxReceiveCount` receives.
 */
export function startRuleRunner(
  broker: Broker,
  deadLetters: LocalDeadLetterQueue,
  /** The rule's name: devices may also publish to it through Basic Ingest, as on AWS. */
  ruleName: string,
): RuleRunner {
  const source = startEventSource(
    {
      batchSize: telemetryBatching.batchSize,
      batchingWindowMs: telemetryBatching.localBatchingWindowMs,
      visibilityTimeoutMs: telemetryBatching.localVisibilityTimeoutMs,
      maxReceiveCount: TELEMETRY_MAX_RECEIVES,
      maxConcurrentBatches: MAX_CONCURRENT_BATCHES,
      queueName: 'telemetry',
    },
    async (event) => {
      // The ingest Lambda's entry point, loaded once the stack has set the environment it reads.
      const { handler: ingest } = await import('@argentum/functions/lambda/ingest');
      return asFunction('ingest', () => ingest(event));
    },
    (record, reason) => deadLetters.add({ messageId: record.messageId, body: record.body, reason }),
  );

  // The broker's 'publish' event names the publishing client, which the rule's clientid() returns (a
  // device's authenticated client id = its id; "n/a" for what did not come over MQTT: the data plane).
  const deliver = (packet: AedesPublishPacket, client: Client | null) => {
    if (!telemetryRuleReceives(packet.topic, ruleName)) return;
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
    const receivedAt = Date.now();
    const fields = typeof message === 'object' && message !== null && !Array.isArray(message) ? message : {};
    const body = JSON.stringify(
      telemetryRuleBody(packet.topic, fields, client ? client.id : 'n/a', receivedAt),
    );
    if (sqsRefusesBody(body)) {
      // The rule's SQS action fails (InvalidMessageContents): IoT Core's error action logs it.
      deadLetters.add({
        messageId: randomUUID(),
        body: body.slice(0, 1000),
        reason: `the rule's SQS action failed: InvalidMessageContents (topic ${packet.topic})`,
      });
      return;
    }
    source.send(body, receivedAt);
  };
  broker.aedes.on('publish', deliver);

  deadLetters.onRedeliver = source.redeliver;
  return {
    drained: source.drained,
    redeliver: source.redeliver,
    async stop() {
      broker.aedes.off('publish', deliver);
      await source.stop();
    },
  };
}

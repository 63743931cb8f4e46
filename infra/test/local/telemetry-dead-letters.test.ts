import { randomUUID } from 'node:crypto';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import {
  SQS_BATCH_LIMITS,
  sqsTelemetryDeadLetters,
} from '@argentum/functions/adapters/telemetry-dead-letters';
import { config } from '@argentum/functions/config';

/**
 * The telemetry dead-letter queue (rule-runner.ts) takes SendMessageBatch within SQS's limits, and the
 * ingest's adapter sends within them whatever it sets aside.
 */
const letters = async () =>
  (await (await fetch(config.telemetryDeadLetterQueueUrl)).json()) as { body: string; reason: string }[];

// The SDK sends to the queue URL's host.
const send = (entries: { Id: string; MessageBody: string }[]) =>
  new SQSClient({ endpoint: new URL(config.telemetryDeadLetterQueueUrl).origin }).send(
    new SendMessageBatchCommand({ QueueUrl: config.telemetryDeadLetterQueueUrl, Entries: entries }),
  );

describe('the telemetry dead-letter queue (SQS SendMessageBatch)', () => {
  it('refuses no entries, more than 10, an id twice or malformed, and more than 1 MiB together', async () => {
    const entry = (n: number, body = `{"n":${n}}`) => ({ Id: `e${n}`, MessageBody: body });
    const marker = randomUUID();
    await send(Array.from({ length: 10 }, (_, n) => entry(n, `${marker}-${n}`)));
    expect((await letters()).filter((l) => l.body.startsWith(marker))).toHaveLength(10);

    const half = 'x'.repeat(SQS_BATCH_LIMITS.payloadBytes / 2);
    for (const [entries, error] of [
      [[], 'EmptyBatchRequest'],
      [Array.from({ length: 11 }, (_, n) => entry(n)), 'TooManyEntriesInBatchRequest'],
      [[entry(1), entry(1)], 'BatchEntryIdsNotDistinct'],
      [[{ Id: 'not an id', MessageBody: '{}' }], 'InvalidBatchEntryId'],
      [[entry(1, half), entry(2, `${half}y`)], 'BatchRequestTooLong'],
    ] as const)
      await expect(send([...entries]), error).rejects.toMatchObject({ name: error });
    // Exactly 1 MiB together is taken.
    await send([entry(1, half), entry(2, half)]);
  });

  it("sends ingest's dead letters within the limits: ten large ones go in more than one request", async () => {
    const marker = randomUUID();
    // A rule's message is at most 128 KB and its fields: ten of them pass 1 MiB.
    const body = (n: number) => `{"marker":"${marker}-${n}","pad":"${'p'.repeat(120 * 1024)}"}`;
    await sqsTelemetryDeadLetters.send(
      Array.from({ length: 10 }, (_, n) => ({
        messageId: `${marker}-${n}`,
        body: body(n),
        reason: 'too big',
      })),
    );
    const kept = (await letters()).filter((l) => l.body.includes(marker));
    expect(kept.map((l) => l.reason)).toEqual(Array.from({ length: 10 }, () => 'too big'));
  });
});

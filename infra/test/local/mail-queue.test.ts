import type { AddressInfo } from 'node:net';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { close } from '../../local/http-util';
import { type LocalMailQueue, localMailQueueUrl, startMailQueue } from '../../local/mail-queue';

/** The local mail queue on its own: it takes a message body SQS takes, and refuses what SQS refuses. */
let queue: LocalMailQueue;
let sqs: SQSClient;
let url: string;

beforeAll(async () => {
  queue = await startMailQueue(0);
  url = localMailQueueUrl((queue.server.address() as AddressInfo).port);
  sqs = new SQSClient({
    endpoint: new URL(url).origin,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  sqs.destroy();
  await queue.stop();
  await close(queue.server);
});

describe('the local mail queue', () => {
  const send = (MessageBody: string) => sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody }));

  it('refuses a body with a character SQS does not take, or none (InvalidMessageContents)', async () => {
    for (const body of ['{"name":"\uffff"}', 'a\u0000b', '\ud800', ''])
      await expect(send(body), JSON.stringify(body)).rejects.toEqual(
        expect.objectContaining({
          name: 'InvalidMessageContents',
          $metadata: expect.objectContaining({ httpStatusCode: 400 }),
        }),
      );
    // Tabs, line breaks, any plane of Unicode SQS takes: queued (no job, so the mailer drops it).
    const { MessageId } = await send('{"name":"Zoë 🏢\\t\\n\ue000"}');
    expect(MessageId).toMatch(/^[0-9a-f-]{36}$/);
    await queue.drained();
  });
});

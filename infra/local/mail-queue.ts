import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { SQSRecord } from 'aws-lambda';
import { mailQueue } from '../src/definitions';
import { HOST } from './config';
import { listen, type ListenAt, readBody } from './http-util';
import { asFunction } from './function-grants';
import { INVALID_MESSAGE_CONTENTS, sqsRefusesBody } from './sqs-event-source';

/** Delay before a failed job is tried again (the queue's visibility timeout, shortened). */
const RETRY_DELAY_MS = 200;
/** SQS takes messages of up to 256 KiB. */
const MAX_REQUEST_BYTES = 256 * 1024;
const QUEUE_PATH = '/000000000000/mail';

/** The local queue's URL (MAIL_QUEUE_URL); the SDK sends to the queue URL's host. */
export const localMailQueueUrl = (port: number) => `http://${HOST}:${port}${QUEUE_PATH}`;

const sqsRecord = (messageId: string, body: string, receiveCount: number): SQSRecord => ({
  messageId,
  receiptHandle: 'local',
  body,
  attributes: {
    ApproximateReceiveCount: String(receiveCount),
    SentTimestamp: String(Date.now()),
    SenderId: 'api-auth',
    ApproximateFirstReceiveTimestamp: String(Date.now()),
  },
  messageAttributes: {},
  md5OfBody: md5(body),
  eventSource: 'aws:sqs',
  eventSourceARN: 'arn:aws:sqs:local:000000000000:mail',
  awsRegion: 'local',
});

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

function answer(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify(body));
}

export interface LocalMailQueue {
  server: Server;
  /** Resolves when every job sent so far has been worked off. */
  drained(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Local SQS for the `mail` queue and its event source: accepts SendMessage (the AWS JSON protocol the
 * SDK speaks; a body SQS refuses is refused, `sqsRefusesBody`) and works each message off with one
 * invocation of the mailer Lambda's handler in this process, after the request that sent it has been
 * answered, one job at a time in the order sent. A job the handler reports failed comes back, as SQS
 * redelivers it, until it has been received `maxReceiveCount` times; then it is dropped (the
 * dead-letter queue in AWS).
 */
export async function startMailQueue(port: ListenAt): Promise<LocalMailQueue> {
  const waiting: { messageId: string; body: string; receives: number }[] = [];
  let running: Promise<void> | undefined;
  let stopped = false;

  const work = async () => {
    // The mailer's entry point, loaded once the stack has set the environment it reads.
    const { handler: mailer } = await import('@argentum/functions/lambda/mailer');
    while (waiting.length > 0) {
      const next = waiting.shift() as { messageId: string; body: string; receives: number };
      const record = sqsRecord(next.messageId, next.body, next.receives + 1);
      const result = await asFunction('mailer', () => mailer({ Records: [record] })).catch(() => ({
        batchItemFailures: [{ itemIdentifier: record.messageId }],
      }));
      if (result.batchItemFailures.length === 0) continue;
      if (next.receives + 1 >= mailQueue.maxReceiveCount) {
        console.error(
          `mailer: a job failed ${mailQueue.maxReceiveCount} times and was dropped (the dead-letter queue in AWS)`,
        );
        continue;
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
      waiting.push({ ...next, receives: next.receives + 1 });
    }
  };

  const pump = () => {
    running ??= new Promise<void>((resolve) => setImmediate(resolve)).then(work).finally(() => {
      running = undefined;
      if (waiting.length > 0 && !stopped) pump();
    });
  };

  const drained = async () => {
    while (running) await running;
  };

  const server = createServer((request, response) => {
    readBody(request, MAX_REQUEST_BYTES)
      .then((raw) => {
        const target = request.headers['x-amz-target'];
        const input = JSON.parse(raw.toString('utf8')) as { QueueUrl?: unknown; MessageBody?: unknown };
        if (target !== 'AmazonSQS.SendMessage' || typeof input.MessageBody !== 'string') {
          answer(response, 400, {
            __type: 'com.amazonaws.sqs#InvalidAction',
            message: `Not here: ${target}`,
          });
          return;
        }
        if (typeof input.QueueUrl !== 'string' || new URL(input.QueueUrl).pathname !== QUEUE_PATH) {
          answer(response, 400, {
            __type: 'com.amazonaws.sqs#QueueDoesNotExist',
            message: 'The specified queue does not exist.',
          });
          return;
        }
        if (sqsRefusesBody(input.MessageBody)) {
          answer(response, 400, {
            __type: 'com.amazonaws.sqs#InvalidMessageContents',
            message: INVALID_MESSAGE_CONTENTS,
          });
          return;
        }
        if (stopped) {
          answer(response, 503, { __type: 'com.amazonaws.sqs#ServiceUnavailable', message: 'Stopped' });
          return;
        }
        const messageId = randomUUID();
        waiting.push({ messageId, body: input.MessageBody, receives: 0 });
        pump();
        answer(response, 200, { MessageId: messageId, MD5OfMessageBody: md5(input.MessageBody) });
      })
      .catch(() => {
        if (!response.headersSent) answer(response, 400, { __type: 'com.amazonaws.sqs#InvalidRequest' });
      });
  });
  await listen(server, port, HOST);

  return {
    server,
    drained,
    async stop() {
      stopped = true;
      await drained();
    },
  };
}

import { config } from '../config';
import type { DeadLetter, DeadLetters } from '../domain/telemetry/ingest';

/**
 * Telemetry that cannot be stored goes to the telemetry queue's dead-letter queue, each message with
 * its reason as the `reason` message attribute (locally the rule runner keeps the list).
 */
export const sqsTelemetryDeadLetters: DeadLetters = {
  async send(letters) {
    for (let i = 0; i < letters.length; i += 10) {
      const batch = letters.slice(i, i + 10);
      // The SQS client is loaded on first use: a batch rarely has a record to set aside.
      const [{ SendMessageBatchCommand }, { sqs }] = await Promise.all([
        import('@aws-sdk/client-sqs'),
        import('../aws/sqs'),
      ]);
      const { Failed } = await sqs().send(
        new SendMessageBatchCommand({
          QueueUrl: config.telemetryDeadLetterQueueUrl,
          Entries: batch.map((letter: DeadLetter, j) => ({
            Id: String(j),
            MessageBody: letter.body,
            MessageAttributes: {
              reason: { DataType: 'String', StringValue: letter.reason.slice(0, 1000) },
              messageId: { DataType: 'String', StringValue: letter.messageId },
            },
          })),
        }),
      );
      if (Failed && Failed.length > 0)
        throw new Error(`${Failed.length} dead letters not accepted: ${Failed[0]?.Message ?? ''}`);
    }
  },
};

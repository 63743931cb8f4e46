import { config } from '../config';
import type { DeadLetter, DeadLetters } from '../domain/telemetry/ingest';

/**
 * SQS's SendMessageBatch limits (API reference, SendMessageBatch,
 * https://docs.aws.amazon.com/AWSSimpleQueueService/latest/APIReference/API_SendMessageBatch.html, and
 * "Amazon SQS message quotas"): at most 10 messages a request, and "the maximum total payload size (the
 * sum of the individual lengths of all of the batched messages)" 1 MiB, as is a message's.
 */
export const SQS_BATCH_LIMITS = { entries: 10, payloadBytes: 1024 * 1024 } as const;

/**
 * A message's length as SQS counts it: its body and every part of its attributes, name, type and value
 * (API reference, MessageAttributeValue: "All parts of the message attribute, including Name, Type, and
 * Value, are part of the message size restriction").
 */
export function sqsMessageBytes(
  body: string,
  attributes: Record<string, { DataType?: string; StringValue?: string }> = {},
): number {
  let bytes = Buffer.byteLength(body);
  for (const [name, value] of Object.entries(attributes))
    bytes +=
      Buffer.byteLength(name) +
      Buffer.byteLength(value.DataType ?? '') +
      Buffer.byteLength(value.StringValue ?? '');
  return bytes;
}

const entryOf = (letter: DeadLetter) => ({
  MessageBody: letter.body,
  MessageAttributes: {
    reason: { DataType: 'String', StringValue: letter.reason.slice(0, 1000) },
    messageId: { DataType: 'String', StringValue: letter.messageId },
  },
});

/** The letters in SendMessageBatch requests SQS takes: by count and by their length together. */
function batchesOf(letters: readonly DeadLetter[]) {
  const batches: ReturnType<typeof entryOf>[][] = [];
  let bytes = 0;
  for (const letter of letters) {
    const entry = entryOf(letter);
    const size = sqsMessageBytes(entry.MessageBody, entry.MessageAttributes);
    const last = batches.at(-1);
    if (last && last.length < SQS_BATCH_LIMITS.entries && bytes + size <= SQS_BATCH_LIMITS.payloadBytes) {
      last.push(entry);
      bytes += size;
    } else {
      batches.push([entry]);
      bytes = size;
    }
  }
  return batches;
}

/**
 * Telemetry that cannot be stored goes to the telemetry queue's dead-letter queue, each message with
 * its reason as the `reason` message attribute (locally the rule runner keeps the list). A message is
 * at most the IoT rule's (128 KB and the rule's fields), so ten of them may pass a request's 1 MiB:
 * requests are cut by count and by length.
 */
export const sqsTelemetryDeadLetters: DeadLetters = {
  async send(letters) {
    for (const batch of batchesOf(letters)) {
      const { sqs, SendMessageBatchCommand } = await import('../aws/sqs');
      const { Failed } = await sqs().send(
        new SendMessageBatchCommand({
          QueueUrl: config.telemetryDeadLetterQueueUrl,
          Entries: batch.map((entry, j) => ({ Id: String(j), ...entry })),
        }),
      );
      if (Failed && Failed.length > 0)
        throw new Error(`${Failed.length} dead letters not accepted: ${Failed[0]?.Message ?? ''}`);
    }
  },
};

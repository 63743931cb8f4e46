import { randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

/**
 * An SQS queue and the Lambda event source that drains it, as AWS runs them (AWS Lambda developer
 * guide, "Using Lambda with Amazon SQS"; the SQS developer guide on visibility timeouts and redrive):
 * - a batch is handed over when `batchSize` messages wait, when their bodies reach the 6 MB invocation
 *   payload, or when the batching window since the first waiting message has passed;
 * - each receive counts (`ApproximateReceiveCount`); a message received `maxReceiveCount` times and
 *   failed again goes to the dead-letter queue instead of a further receive (the queue's redrive);
 * - the answer is a partial batch response: the records named in `batchItemFailures` stay in the queue
 *   and are received again after the visibility timeout (with whatever else is waiting then), the
 *   others are deleted; no answer, or an empty or null list, is success; an item identifier that is
 *   empty, not a string or not in the batch fails the whole batch, as a thrown handler does.
 */
export interface EventSourceSettings {
  batchSize: number;
  batchingWindowMs: number;
  visibilityTimeoutMs: number;
  maxReceiveCount: number;
  /** Batches handed over at once (Lambda polls a queue with several). */
  maxConcurrentBatches: number;
  /** The invocation payload limit, 6 MB in AWS. */
  maxBatchBytes?: number;
  /** Names the queue in the records' `eventSourceARN`. */
  queueName: string;
}

/**
 * Whether SQS refuses a message body for its characters (InvalidMessageContents): it takes only #x9,
 * #xA, #xD, #x20 to #xD7FF, #xE000 to #xFFFD and #x10000 to #x10FFFF, and no empty body (SQS API
 * reference, SendMessage). Every local queue holds its messages to this.
 */
export const sqsRefusesBody = (body: string): boolean =>
  body.length === 0 || /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u.test(body);

/** SQS's answer to such a body. */
export const INVALID_MESSAGE_CONTENTS =
  'Invalid characters found. Valid unicode characters are #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF';

/** A handler's answer: a partial batch response, or nothing (the whole batch succeeded). */
export type BatchAnswer = SQSBatchResponse | null | undefined;
export type BatchHandler = (event: SQSEvent) => Promise<BatchAnswer>;

export interface EventSource {
  /** SendMessage: queues a body; answers its message id. */
  send(body: string, sentAt?: number): string;
  /** Resolves when nothing waits, runs or is invisible for a retry: every message has met its fate. */
  drained(): Promise<void>;
  /**
   * Hands over again every recent batch holding a record whose body contains `match`, as SQS does
   * when a batch outlives its visibility timeout (at-least-once delivery); resolves with the number of
   * records once they are handled. For tests and benchmarks.
   */
  redeliver(match: string): Promise<number>;
  stop(): Promise<void>;
}

const SIX_MB = 6 * 1024 * 1024;
/** Batches kept for redelivery (recent ones only: the local stack runs for days). */
const KEPT_BATCHES = 2000;

interface Message {
  id: string;
  body: string;
  sentAt: number;
  receives: number;
  firstReceivedAt?: number;
}

/** Which records of a batch failed, read as Lambda reads a partial batch response. */
export function failedRecords(records: readonly SQSRecord[], response: BatchAnswer): Set<string> {
  const all = new Set(records.map((r) => r.messageId));
  const failures: unknown = response?.batchItemFailures;
  if (failures === undefined || failures === null) return new Set();
  if (!Array.isArray(failures)) return all;
  const failed = new Set<string>();
  for (const failure of failures as unknown[]) {
    const id = (failure as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    if (typeof id !== 'string' || id === '' || !all.has(id)) return all;
    failed.add(id);
  }
  return failed;
}

export function startEventSource(
  settings: EventSourceSettings,
  handler: BatchHandler,
  deadLetter: (record: SQSRecord, reason: string) => void,
): EventSource {
  const maxBytes = settings.maxBatchBytes ?? SIX_MB;
  const visible: Message[] = [];
  let windowTimer: NodeJS.Timeout | undefined;
  const invisible = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  const delivered: Message[][] = [];
  let stopped = false;

  const recordOf = (m: Message): SQSRecord => ({
    messageId: m.id,
    receiptHandle: `${m.id}#${m.receives}`,
    body: m.body,
    attributes: {
      ApproximateReceiveCount: String(m.receives),
      SentTimestamp: String(m.sentAt),
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: String(m.firstReceivedAt ?? m.sentAt),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:local:000000000000:${settings.queueName}`,
    awsRegion: 'local',
  });

  /** The visibility timeout: a failed message is received again once it has passed. */
  const returnLater = (messages: Message[]) => {
    if (messages.length === 0) return;
    const timer = setTimeout(() => {
      invisible.delete(timer);
      visible.push(...messages);
      schedule();
    }, settings.visibilityTimeoutMs);
    invisible.add(timer);
  };

  const invoke = async (batch: Message[]) => {
    const records = batch.map(recordOf);
    let failed: Set<string>;
    try {
      failed = failedRecords(records, await handler({ Records: records }));
    } catch {
      failed = new Set(records.map((r) => r.messageId));
    }
    returnLater(batch.filter((m) => failed.has(m.id)));
  };

  const run = (batch: Message[]) => {
    const running = invoke(batch).finally(() => {
      inFlight.delete(running);
      schedule();
    });
    inFlight.add(running);
  };

  /** ReceiveMessage: up to a batch (by count and bytes), each receive counted; redrive past the max. */
  const receive = (): Message[] => {
    const batch: Message[] = [];
    let bytes = 0;
    while (visible.length > 0 && batch.length < settings.batchSize) {
      const next = visible[0] as Message;
      const size = Buffer.byteLength(next.body);
      if (batch.length > 0 && bytes + size > maxBytes) break;
      visible.shift();
      if (next.receives >= settings.maxReceiveCount) {
        deadLetter(recordOf(next), `received ${next.receives} times (the queue's maxReceiveCount)`);
        continue;
      }
      next.receives += 1;
      next.firstReceivedAt ??= Date.now();
      batch.push(next);
      bytes += size;
    }
    return batch;
  };

  const full = () => {
    if (visible.length >= settings.batchSize) return true;
    let bytes = 0;
    for (const m of visible) if ((bytes += Buffer.byteLength(m.body)) >= maxBytes) return true;
    return false;
  };

  /** Hands over batches while there is room: at once when one is full, else when the window ends. */
  function schedule() {
    if (stopped) return;
    while (inFlight.size < settings.maxConcurrentBatches && visible.length > 0 && full()) flush();
    if (visible.length > 0 && !windowTimer)
      windowTimer = setTimeout(() => {
        windowTimer = undefined;
        while (inFlight.size < settings.maxConcurrentBatches && visible.length > 0) flush();
        if (visible.length > 0) schedule();
      }, settings.batchingWindowMs);
  }

  function flush() {
    const batch = receive();
    if (batch.length === 0) return;
    delivered.push(batch);
    if (delivered.length > KEPT_BATCHES) delivered.shift();
    run(batch);
  }

  const idle = () => visible.length === 0 && inFlight.size === 0 && invisible.size === 0;

  const drained = async () => {
    while (!idle()) {
      if (inFlight.size > 0) await Promise.all([...inFlight]);
      else await new Promise((r) => setTimeout(r, 20));
    }
  };

  return {
    send(body, sentAt = Date.now()) {
      const id = randomUUID();
      visible.push({ id, body, sentAt, receives: 0 });
      schedule();
      return id;
    },
    drained,
    async redeliver(match) {
      await drained();
      const batches = delivered.filter((batch) => batch.some((m) => m.body.includes(match)));
      await Promise.all(
        batches.map((batch) => {
          for (const m of batch) m.receives += 1;
          return invoke(batch);
        }),
      );
      await drained();
      return batches.reduce((n, batch) => n + batch.length, 0);
    },
    async stop() {
      await drained();
      stopped = true;
      if (windowTimer) clearTimeout(windowTimer);
    },
  };
}

import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { type BatchHandler, failedRecords, startEventSource } from '../../local/sqs-event-source';

const started: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((source) => source.stop()));
});

/** A queue and its event source with short local timings, recording every batch handed over. */
function queue(
  handler: (records: SQSRecord[]) => SQSBatchResponse | undefined,
  settings: { batchSize?: number; maxReceiveCount?: number; maxBatchBytes?: number } = {},
) {
  const batches: { body: string; receives: number }[][] = [];
  const dead: { body: string; reason: string }[] = [];
  const run: BatchHandler = async (event: SQSEvent) => {
    batches.push(
      event.Records.map((r) => ({ body: r.body, receives: Number(r.attributes.ApproximateReceiveCount) })),
    );
    return handler(event.Records);
  };
  const source = startEventSource(
    {
      batchSize: settings.batchSize ?? 10,
      batchingWindowMs: 50,
      visibilityTimeoutMs: 50,
      maxReceiveCount: settings.maxReceiveCount ?? 3,
      maxConcurrentBatches: 2,
      ...(settings.maxBatchBytes !== undefined ? { maxBatchBytes: settings.maxBatchBytes } : {}),
      queueName: 'test',
    },
    run,
    (record, reason) => dead.push({ body: record.body, reason }),
  );
  started.push(source);
  return { source, batches, dead };
}

const receivesOf = (batches: { body: string; receives: number }[][], body: string) =>
  batches
    .flat()
    .filter((r) => r.body === body)
    .map((r) => r.receives);

describe('the local SQS event source (the twin of the Lambda SQS trigger)', () => {
  it('hands over batches of at most the batch size, and of at most the payload limit in bytes', async () => {
    const { source, batches } = queue(() => undefined, { batchSize: 3 });
    for (let i = 0; i < 7; i++) source.send(`m${i}`);
    await source.drained();
    expect(batches.map((b) => b.length).sort()).toEqual([1, 3, 3]);

    const bytes = queue(() => undefined, { batchSize: 10, maxBatchBytes: 10 });
    for (let i = 0; i < 4; i++) bytes.source.send(`body-${i}`); // 6 bytes each
    await bytes.source.drained();
    expect(bytes.batches.map((b) => b.length)).toEqual([1, 1, 1, 1]);
  });

  it('receives again only the records named in batchItemFailures, after the visibility timeout', async () => {
    let failedOnce = false;
    const { source, batches, dead } = queue((records) => {
      const bad = records.find((r) => r.body === 'bad');
      if (!bad || failedOnce) return { batchItemFailures: [] };
      failedOnce = true;
      return { batchItemFailures: [{ itemIdentifier: bad.messageId }] };
    });
    for (const body of ['a', 'bad', 'b']) source.send(body);
    await source.drained();
    expect(receivesOf(batches, 'a')).toEqual([1]);
    expect(receivesOf(batches, 'b')).toEqual([1]);
    expect(receivesOf(batches, 'bad')).toEqual([1, 2]);
    expect(dead).toEqual([]);
  });

  it('sends a record that keeps failing to the dead letters after maxReceiveCount receives, and only it', async () => {
    const { source, batches, dead } = queue((records) => ({
      batchItemFailures: records
        .filter((r) => r.body === 'poison')
        .map((r) => ({ itemIdentifier: r.messageId })),
    }));
    for (const body of ['poison', 'ok']) source.send(body);
    await source.drained();
    expect(receivesOf(batches, 'poison')).toEqual([1, 2, 3]);
    expect(receivesOf(batches, 'ok')).toEqual([1]);
    expect(dead).toEqual([{ body: 'poison', reason: "received 3 times (the queue's maxReceiveCount)" }]);
  });

  it('retries the whole batch when the handler throws or names a record that is not in the batch', async () => {
    let calls = 0;
    const thrown = queue(() => {
      calls++;
      if (calls === 1) throw new Error('boom');
      return undefined;
    });
    for (const body of ['x', 'y']) thrown.source.send(body);
    await thrown.source.drained();
    expect(receivesOf(thrown.batches, 'x')).toEqual([1, 2]);
    expect(receivesOf(thrown.batches, 'y')).toEqual([1, 2]);

    let answered = false;
    const stray = queue(() => {
      if (answered) return undefined;
      answered = true;
      return { batchItemFailures: [{ itemIdentifier: 'not-in-this-batch' }] };
    });
    for (const body of ['x', 'y']) stray.source.send(body);
    await stray.source.drained();
    expect(receivesOf(stray.batches, 'x')).toEqual([1, 2]);
    expect(receivesOf(stray.batches, 'y')).toEqual([1, 2]);
  });

  it('reads a partial batch response as Lambda does', () => {
    const records = ['1', '2'].map((messageId) => ({ messageId }) as SQSRecord);
    expect(failedRecords(records, undefined)).toEqual(new Set());
    expect(failedRecords(records, { batchItemFailures: [] })).toEqual(new Set());
    expect(failedRecords(records, { batchItemFailures: [{ itemIdentifier: '2' }] })).toEqual(new Set(['2']));
    for (const itemIdentifier of ['', 'elsewhere', null, 7])
      expect(
        failedRecords(records, { batchItemFailures: [{ itemIdentifier } as { itemIdentifier: string }] }),
      ).toEqual(new Set(['1', '2']));
  });
});

import { FirehoseClient, PutRecordBatchCommand } from '@aws-sdk/client-firehose';
import { describe, expect, it } from 'vitest';
import { FIREHOSE_LIMITS, packLines } from '@argentum/functions/adapters/firehose-archive';
import { config } from '@argentum/functions/config';

const firehose = new FirehoseClient({});
const put = (records: Uint8Array[]) =>
  firehose.send(
    new PutRecordBatchCommand({
      DeliveryStreamName: config.archiveStreamName,
      Records: records.map((Data) => ({ Data })),
    }),
  );
const line = (i: number) =>
  JSON.stringify({ devID: `D${i}`, time: Date.now(), orgId: 'org-limits', values: { temp: i } });

describe("the local Firehose holds the archive stream's documented limits", () => {
  it('takes a batch of JSON lines packed as ingest packs them: 500 lines a record', async () => {
    const records = packLines(Array.from({ length: 1200 }, (_, i) => line(i)));
    expect(records).toHaveLength(3);
    await expect(put(records)).resolves.toMatchObject({ FailedPutCount: 0 });
  });

  it('refuses more than 500 records a request, a record over 1,000 KiB, a request over 4 MiB, 501 lines in a record', async () => {
    const small = new TextEncoder().encode(`${line(1)}\n`);
    await expect(put(Array.from({ length: 501 }, () => small))).rejects.toThrow(/500 records/);
    await expect(put([new Uint8Array(FIREHOSE_LIMITS.recordBytes + 1).fill(32)])).rejects.toThrow(
      /1,000 KiB/,
    );
    const large = new Uint8Array(FIREHOSE_LIMITS.recordBytes).fill(32);
    await expect(put([large, large, large, large, large])).rejects.toThrow(/4 MiB/);
    const lines = new TextEncoder().encode(Array.from({ length: 501 }, (_, i) => `${line(i)}\n`).join(''));
    await expect(put([lines])).rejects.toThrow(/500 JSON records/);
  });
});

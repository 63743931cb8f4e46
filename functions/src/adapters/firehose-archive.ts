import type { PutRecordBatchResponseEntry } from '@aws-sdk/client-firehose';
import { config } from '../config';
import type { ReadingArchive } from '../domain/telemetry/archive';

/**
 * Amazon Data Firehose's documented limits (PutRecordBatch; multi-record deaggregation): at most 500
 * records and 4 MiB a request, 1,000 KiB a record, and at most 500 JSON sub-records a record.
 */
export const FIREHOSE_LIMITS = {
  recordsPerRequest: 500,
  requestBytes: 4 * 1024 * 1024,
  recordBytes: 1000 * 1024,
  subRecordsPerRecord: 500,
} as const;

const encoder = new TextEncoder();

/**
 * Packs JSON lines into Firehose records: each record holds up to 500 lines (the stream deaggregates
 * them, then partitions each line), under 1,000 KiB. Firehose meters a record in 5 KB steps, so a
 * record of many lines costs what its bytes cost, where a record a reading cost 5 KB each.
 */
export function packLines(lines: readonly string[], limits = FIREHOSE_LIMITS): Uint8Array[] {
  const records: Uint8Array[] = [];
  let current: string[] = [];
  let bytes = 0;
  const flush = () => {
    if (current.length > 0) records.push(encoder.encode(current.join('')));
    current = [];
    bytes = 0;
  };
  for (const line of lines) {
    const text = `${line}\n`;
    const size = Buffer.byteLength(text);
    if (size > limits.recordBytes)
      throw new Error(`an archive line of ${size} bytes exceeds a Firehose record`);
    if (current.length >= limits.subRecordsPerRecord || bytes + size > limits.recordBytes) flush();
    current.push(text);
    bytes += size;
  }
  flush();
  return records;
}

/** Requests of at most 500 records and 4 MiB. */
function requestsOf(records: readonly Uint8Array[], limits = FIREHOSE_LIMITS): Uint8Array[][] {
  const requests: Uint8Array[][] = [];
  let current: Uint8Array[] = [];
  let bytes = 0;
  for (const record of records) {
    if (current.length >= limits.recordsPerRequest || bytes + record.length > limits.requestBytes) {
      requests.push(current);
      current = [];
      bytes = 0;
    }
    current.push(record);
    bytes += record.length;
  }
  if (current.length > 0) requests.push(current);
  return requests;
}

const ATTEMPTS = 4;

/**
 * The archive as ingest feeds it: one PutRecordBatch a batch (more only past Firehose's limits), the
 * records Firehose refused sent again a few times; what still fails is thrown, and ingest has the batch
 * delivered again (a line archived twice is read once: domain/telemetry/archive.ts).
 */
export const firehoseReadingArchive: ReadingArchive = {
  async put(lines) {
    for (const request of requestsOf(packLines(lines))) {
      let pending = request;
      for (let attempt = 1; pending.length > 0; attempt++) {
        const { firehose, PutRecordBatchCommand } = await import('../aws/firehose');
        const { FailedPutCount, RequestResponses } = await firehose().send(
          new PutRecordBatchCommand({
            DeliveryStreamName: config.archiveStreamName,
            Records: pending.map((Data) => ({ Data })),
          }),
        );
        if (!FailedPutCount) break;
        const responses: PutRecordBatchResponseEntry[] = RequestResponses ?? [];
        pending = pending.filter((_, i) => responses[i]?.ErrorCode !== undefined);
        if (attempt >= ATTEMPTS)
          throw new Error(
            `${pending.length} archive records refused by Firehose: ${responses.find((r) => r.ErrorCode)?.ErrorMessage ?? ''}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
      }
    }
  },
};

import { randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { FIREHOSE_LIMITS } from '@argentum/functions/adapters/firehose-archive';
import { archiveDayPrefix, archivePartition } from '@argentum/functions/domain/telemetry/archive';
import { HOST } from './config';
import { close, listen, readBody } from './http-util';

/** Firehose buffers up to 900 s on AWS; locally a second keeps tests and the demo quick. */
const BUFFER_MS = 1000;
/** The archive's stream name on the local stack (ARCHIVE_STREAM_NAME). */
export const LOCAL_ARCHIVE_STREAM = 'argentum-readings';

export interface LocalFirehose {
  /** The endpoint the SDK is pointed at (AWS_ENDPOINT_URL_FIREHOSE). */
  url: string;
  /** Resolves when every record accepted so far is in the bucket. */
  drained(): Promise<void>;
  stop(): Promise<void>;
}

/** Firehose's error answer (AWS JSON 1.1). */
const refuse = (response: ServerResponse, type: string, message: string) =>
  response
    .writeHead(400, { 'content-type': 'application/x-amz-json-1.1' })
    .end(JSON.stringify({ __type: type, message }));

/**
 * Amazon Data Firehose as the archive's stream uses it, on one machine: PutRecordBatch (AWS JSON 1.1,
 * as the SDK sends it) into the one stream, with the service's limits enforced (500 records and 4 MiB a
 * request, 1,000 KiB a record, 500 JSON lines a record for multi-record deaggregation); each record is
 * deaggregated into its JSON lines, each line partitioned by organization and day as the stream's JQ
 * query does (`archivePartition`), buffered and written gzipped to the archive bucket under the same
 * keys Firehose writes. A line it cannot partition is left out (Firehose puts it under its error prefix,
 * which nothing reads).
 */
export async function startLocalFirehose(options: { s3: S3Client; bucket: string }): Promise<LocalFirehose> {
  const buffers = new Map<string, string[]>();
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batches = [...buffers];
    buffers.clear();
    writing = writing.then(async () => {
      for (const [prefix, lines] of batches) {
        const key = `${prefix}argentum-archive-${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.gz`;
        await options.s3
          .send(
            new PutObjectCommand({
              Bucket: options.bucket,
              Key: key,
              Body: gzipSync(`${lines.join('\n')}\n`),
              ContentType: 'application/x-ndjson',
              ContentEncoding: 'gzip',
            }),
          )
          .catch((error: unknown) => console.error(`archive: ${key} not written`, error));
      }
    });
    return writing;
  };

  const accept = (line: string) => {
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      return;
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record)) return;
    const partition = archivePartition(record as Record<string, unknown>);
    if (!partition) return;
    const prefix = archiveDayPrefix(partition.orgId, partition.day);
    buffers.set(prefix, [...(buffers.get(prefix) ?? []), line]);
    timer ??= setTimeout(() => void flush(), BUFFER_MS);
  };

  const server: Server = createServer((request, response) => {
    readBody(request, 2 * FIREHOSE_LIMITS.requestBytes)
      .then((raw) => {
        const target = request.headers['x-amz-target'];
        if (target !== 'Firehose_20150804.PutRecordBatch') {
          refuse(response, 'InvalidArgumentException', `${String(target)} is not played locally`);
          return;
        }
        const input = JSON.parse(raw.toString('utf8')) as {
          DeliveryStreamName?: string;
          Records?: { Data?: string }[];
        };
        if (input.DeliveryStreamName !== LOCAL_ARCHIVE_STREAM) {
          refuse(response, 'ResourceNotFoundException', `Firehose ${input.DeliveryStreamName} not found`);
          return;
        }
        const records = (input.Records ?? []).map((r) => Buffer.from(r.Data ?? '', 'base64'));
        const bytes = records.reduce((n, r) => n + r.length, 0);
        if (records.length === 0 || records.length > FIREHOSE_LIMITS.recordsPerRequest) {
          refuse(
            response,
            'ValidationException',
            `1 to ${FIREHOSE_LIMITS.recordsPerRequest} records a request`,
          );
          return;
        }
        if (bytes > FIREHOSE_LIMITS.requestBytes) {
          refuse(response, 'InvalidArgumentException', 'a request holds at most 4 MiB');
          return;
        }
        if (records.some((r) => r.length > FIREHOSE_LIMITS.recordBytes)) {
          refuse(response, 'ValidationException', 'a record holds at most 1,000 KiB');
          return;
        }
        for (const record of records) {
          const lines = record.toString('utf8').split('\n').filter(Boolean);
          // Deaggregation beyond 500 sub-records "does not work as expected": refused here outright.
          if (lines.length > FIREHOSE_LIMITS.subRecordsPerRecord) {
            refuse(
              response,
              'ValidationException',
              'at most 500 JSON records are deaggregated from a record',
            );
            return;
          }
        }
        for (const record of records)
          for (const line of record.toString('utf8').split('\n')) if (line) accept(line);
        response.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' }).end(
          JSON.stringify({
            FailedPutCount: 0,
            Encrypted: false,
            RequestResponses: records.map(() => ({ RecordId: randomUUID() })),
          }),
        );
      })
      .catch(() => {
        if (!response.headersSent) refuse(response, 'InvalidArgumentException', 'not a request');
      });
  });
  await listen(server, 0, HOST);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${HOST}:${port}`,
    drained: flush,
    async stop() {
      await flush();
      await close(server);
    },
  };
}

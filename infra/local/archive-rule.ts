import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { basicIngestTopic, ruleSeenTopic, telemetryFilter } from '@argentum/events';
import { archiveDayPrefix, archivePartition } from '@argentum/functions/domain/telemetry/archive';
import type { Broker } from './broker';

/** Firehose buffers up to 900 s on AWS; locally a second keeps tests and the demo quick. */
const BUFFER_MS = 1000;

export interface ArchiveRule {
  /** Resolves when every message received so far is in the bucket. */
  drained(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The telemetry rule's second action on AWS (Amazon Data Firehose, dynamic partitioning, GZIP), played
 * locally: every message the rule selects (`{...message, orgId, topicDevId, receivedAt}`) is buffered
 * and written as gzipped JSON lines to the archive bucket, one object per organization and day and
 * flush, under the same keys Firehose writes. A record Firehose could not partition is left out here
 * (Firehose puts it under its error prefix, which nothing reads).
 */
export function startArchiveRule(
  broker: Broker,
  options: { s3: S3Client; bucket: string; ruleName: string },
): ArchiveRule {
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

  const deliver = (packet: { topic: string; payload: Buffer | string }, callback: () => void) => {
    callback();
    let message: unknown;
    try {
      message = JSON.parse(packet.payload.toString());
    } catch {
      return;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return;
    // The rule's SELECT: the message, topic(1), topic(3) and timestamp().
    const [orgId, , topicDevId] = ruleSeenTopic(packet.topic).split('/');
    const record = { ...message, orgId, topicDevId, receivedAt: Date.now() };
    const partition = archivePartition(record);
    if (!partition) return;
    const prefix = archiveDayPrefix(partition.orgId, partition.day);
    const lines = buffers.get(prefix) ?? [];
    lines.push(JSON.stringify(record));
    buffers.set(prefix, lines);
    timer ??= setTimeout(() => void flush(), BUFFER_MS);
  };
  const filters = [telemetryFilter, basicIngestTopic(options.ruleName, telemetryFilter)];
  for (const filter of filters) broker.aedes.subscribe(filter, deliver, () => undefined);

  return {
    drained: flush,
    async stop() {
      for (const filter of filters)
        await new Promise<void>((resolve) => broker.aedes.unsubscribe(filter, deliver, () => resolve()));
      await flush();
    },
  };
}

import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { lazy } from '../aws/lazy';
import { config } from '../config';
import { zlib } from '../lib/zlib';
import { archiveDayPrefix, type TelemetryArchive } from '../domain/telemetry/archive';

/**
 * The archive in S3: every object under the organization's day prefix, gunzipped (Firehose's GZIP, the
 * local archive rule's too) and read line by line, so a large day never sits in memory whole.
 */
const s3Sdk = lazy(() => import('../aws/s3-sdk'));

export const s3TelemetryArchive: TelemetryArchive = {
  async *dayLines(orgId, day) {
    // The S3 SDK, loaded on first use (aws/s3-sdk.ts).
    const { GetObjectCommand, ListObjectsV2Command, s3 } = await s3Sdk();
    const bucket = config.archiveBucket;
    let token: string | undefined;
    do {
      const page = await s3().send(
        new ListObjectsV2Command({
          Bucket: bucket,
          Prefix: archiveDayPrefix(orgId, day),
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        const { Body } = await s3().send(new GetObjectCommand({ Bucket: bucket, Key: object.Key }));
        if (!Body) continue;
        const lines = createInterface({
          input: (Body as Readable).pipe(zlib().createGunzip()),
          crlfDelay: Infinity,
        });
        for await (const line of lines) if (line.trim() !== '') yield line;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  },
};

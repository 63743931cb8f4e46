import { randomBytes } from 'node:crypto';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3, twinCredentials } from '../support/s3-twin';

/**
 * S3's consistency, which s3rver's own file store lacks: a PUT replaces an object whole and at once
 * (a reader gets the old bytes or the new ones, never a mix, a short body or a hang), what a PUT
 * answered is read back whole, and a delete or a write beside a listing never fails it.
 */
const BUCKET = 'store-test-files';
const credentials = twinCredentials;
let s3: Awaited<ReturnType<typeof startTestS3>>;
let client: S3Client;

beforeAll(async () => {
  s3 = await startTestS3(BUCKET);
  // A hung answer fails the request (and the test) instead of waiting for ever.
  client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials,
    requestHandler: { requestTimeout: 15_000, throwOnRequestTimeout: true },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  client.destroy();
  await s3.stop();
});

const put = (key: string, body: Uint8Array) =>
  client.send(
    new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body, Metadata: { size: `${body.length}` } }),
  );
const get = async (key: string) => {
  const object = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return {
    bytes: Buffer.from((await object.Body?.transformToByteArray()) ?? []),
    metadataSize: object.Metadata?.size,
    length: object.ContentLength,
  };
};

describe('the S3 twin keeps S3’s consistency', () => {
  it('reads back whole what a PUT answered, at once', async () => {
    for (let round = 0; round < 12; round++) {
      const body = randomBytes(2 * 1024 * 1024 + round * 4099);
      await put('plans/read-after-write.svg', body);
      const read = await get('plans/read-after-write.svg');
      expect(read.bytes.length).toBe(body.length);
      expect(read.bytes.equals(body)).toBe(true);
      expect(read.metadataSize).toBe(`${body.length}`);
    }
  }, 120_000);

  it('replaces an object whole: readers racing the writes get one version or the other, never a mix or a hang', async () => {
    const versions = [randomBytes(3 * 1024 * 1024), randomBytes(1024 * 1024 + 17), randomBytes(64 * 1024)];
    await put('plans/replaced.svg', versions[0] ?? new Uint8Array());
    let writing = true;
    const writer = (async () => {
      for (let round = 1; round <= 24; round++)
        await put('plans/replaced.svg', versions[round % 3] ?? new Uint8Array());
      writing = false;
    })();
    const reads: { matches: number; metadataAgrees: boolean }[] = [];
    const readers = [1, 2].map(async () => {
      while (writing) {
        const read = await get('plans/replaced.svg');
        reads.push({
          matches: versions.findIndex((version) => version.equals(read.bytes)),
          metadataAgrees: read.metadataSize === `${read.bytes.length}` && read.length === read.bytes.length,
        });
        const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'plans/replaced.svg' }));
        expect(versions.map((version) => version.length)).toContain(head.ContentLength);
      }
    });
    await Promise.all([writer, ...readers]);
    expect(reads.length).toBeGreaterThan(5);
    expect(reads.filter((read) => read.matches < 0 || !read.metadataAgrees)).toEqual([]);
  }, 180_000);

  it('lists, deletes and writes side by side without failing any of them', async () => {
    const body = randomBytes(256 * 1024);
    const keys = Array.from({ length: 16 }, (_, index) => `listed/floor/plan-${index}.svg`);
    await Promise.all(keys.map((key) => put(key, body)));
    const churn = async () => {
      for (let round = 0; round < 6; round++) {
        for (const key of keys) {
          await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: key }));
          await put(key, body);
        }
      }
    };
    let listing = true;
    const listings: number[] = [];
    const lister = (async () => {
      while (listing) {
        const page = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'listed/' }));
        listings.push(page.KeyCount ?? 0);
      }
    })();
    await Promise.all([churn(), churn()]);
    listing = false;
    await lister;
    expect(listings.length).toBeGreaterThan(3);
    const final = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'listed/' }));
    expect(final.Contents?.map((object) => object.Key).sort()).toEqual([...keys].sort());
  }, 180_000);
});

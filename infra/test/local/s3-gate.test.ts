import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postUpload, startTestS3, twinCredentials } from '../support/s3-twin';

/**
 * The S3 twin's rules on their own: a gate and an s3rver of this file's own, with a clock the tests
 * move. S3 refuses a forged, unsigned, key-swapped or expired presigned link and a POST outside its
 * policy; so does the twin, with S3's status and error code.
 */
const BUCKET = 'gate-test-files';
const credentials = twinCredentials;
let clockShift = 0;
let s3: Awaited<ReturnType<typeof startTestS3>>;
let client: S3Client;
let endpoint: string;

beforeAll(async () => {
  s3 = await startTestS3(BUCKET, () => Date.now() + clockShift);
  endpoint = s3.endpoint;
  client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
  await client.send(
    new PutObjectCommand({
      Bucket: BUCKET,
      Key: 'plans/a.svg',
      Body: '<svg/>',
      ContentType: 'image/svg+xml',
    }),
  );
  await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'plans/b.svg', Body: '<svg id="b"/>' }));
  await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'plans/empty', Body: new Uint8Array(0) }));
});
afterAll(async () => {
  client.destroy();
  await s3.stop();
});

async function fetchText(url: string, init?: RequestInit) {
  const response = await fetch(url, init);
  return { status: response.status, text: await response.text(), headers: response.headers };
}
const codeOf = (text: string) => /<Code>([^<]+)<\/Code>/.exec(text)?.[1];
const messageOf = (text: string) => /<Message>([^<]+)<\/Message>/.exec(text)?.[1];
const presign = (key: string, options: { expiresIn?: number; signingDate?: Date; type?: string } = {}) =>
  getSignedUrl(
    client,
    new GetObjectCommand({
      Bucket: BUCKET,
      Key: key,
      ...(options.type ? { ResponseContentType: options.type } : {}),
    }),
    {
      expiresIn: options.expiresIn ?? 60,
      ...(options.signingDate ? { signingDate: options.signingDate } : {}),
    },
  );

describe('presigned GET links', () => {
  it('serves a link signed for the object, with the response headers it names', async () => {
    const answer = await fetchText(await presign('plans/a.svg', { type: 'image/svg+xml' }));
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('<svg/>');
    expect(answer.headers.get('content-type')).toBe('image/svg+xml');
  });

  it('refuses an unsigned request: 403 AccessDenied', async () => {
    const answer = await fetchText(`${endpoint}/${BUCKET}/plans/a.svg`);
    expect([answer.status, codeOf(answer.text)]).toEqual([403, 'AccessDenied']);
  });

  it('refuses a forged signature, a swapped key and a changed response header: 403 SignatureDoesNotMatch', async () => {
    const url = await presign('plans/a.svg', { type: 'image/svg+xml' });
    const forged = url.replace(
      /X-Amz-Signature=([0-9a-f])/,
      (_m, c: string) => `X-Amz-Signature=${c === '0' ? '1' : '0'}`,
    );
    const swapped = url.replace('plans/a.svg', 'plans/b.svg');
    const retyped = url.replace(/response-content-type=[^&]+/, 'response-content-type=text%2Fhtml');
    for (const link of [forged, swapped, retyped]) {
      expect(link).not.toBe(url);
      const answer = await fetchText(link);
      expect([answer.status, codeOf(answer.text)], link).toEqual([403, 'SignatureDoesNotMatch']);
    }
  });

  it("refuses a link past its expiry: 403 AccessDenied 'Request has expired'", async () => {
    const expired = await presign('plans/a.svg', {
      expiresIn: 60,
      signingDate: new Date(Date.now() - 61_000),
    });
    const answer = await fetchText(expired);
    expect([answer.status, codeOf(answer.text), messageOf(answer.text)]).toEqual([
      403,
      'AccessDenied',
      'Request has expired',
    ]);
    const lasting = await presign('plans/a.svg', { expiresIn: 60 });
    clockShift = 61_000;
    try {
      expect(codeOf((await fetchText(lasting)).text)).toBe('AccessDenied');
    } finally {
      clockShift = 0;
    }
    expect((await fetchText(lasting)).status).toBe(200);
  });

  it('refuses an expiry beyond 7 days: 400 AuthorizationQueryParametersError', async () => {
    const url = (await presign('plans/a.svg')).replace(/X-Amz-Expires=\d+/, 'X-Amz-Expires=604801');
    const answer = await fetchText(url);
    expect([answer.status, codeOf(answer.text)]).toEqual([400, 'AuthorizationQueryParametersError']);
  });

  it('answers a ranged GET of an empty object with 416 InvalidRange, as S3 does', async () => {
    const answer = await client
      .send(new GetObjectCommand({ Bucket: BUCKET, Key: 'plans/empty', Range: 'bytes=0-10' }))
      .then(
        () => 200,
        (error: { $metadata?: { httpStatusCode?: number } }) => error.$metadata?.httpStatusCode,
      );
    expect(answer).toBe(416);
  });
});

describe('header-signed requests (the SDK)', () => {
  it('refuses a wrong secret (SignatureDoesNotMatch) and an unknown key (InvalidAccessKeyId)', async () => {
    const failures = [];
    for (const wrong of [
      { accessKeyId: 'S3RVER', secretAccessKey: 'not-the-secret' },
      { accessKeyId: 'AKIAUNKNOWN', secretAccessKey: 'S3RVER' },
    ]) {
      const other = new S3Client({
        endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: wrong,
        maxAttempts: 1,
      });
      failures.push(
        await other.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'plans/a.svg', Body: 'x' })).then(
          () => 'stored',
          (error: { name?: string }) => error.name,
        ),
      );
      other.destroy();
    }
    expect(failures).toEqual(['SignatureDoesNotMatch', 'InvalidAccessKeyId']);
    const kept = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'plans/a.svg' }));
    expect(await kept.Body?.transformToString()).toBe('<svg/>');
  });
});

describe('presigned POST uploads: the policy', () => {
  const form = (key: string, options: { expires?: number; max?: number } = {}) =>
    createPresignedPost(client, {
      Bucket: BUCKET,
      Key: key,
      Fields: { 'Content-Type': 'image/svg+xml' },
      Conditions: [['content-length-range', 1, options.max ?? 100]],
      Expires: options.expires ?? 60,
    });
  const stored = async (key: string) =>
    client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key })).then(
      () => true,
      () => false,
    );

  it('takes a post that fits its policy', async () => {
    const upload = await form('staging/ok');
    expect(await postUpload(upload, 50)).toEqual([204, '']);
    expect(await stored('staging/ok')).toBe(true);
  });

  it('refuses what the policy does not allow, and stores nothing', async () => {
    const upload = await form('staging/refused');
    const cases: [
      string,
      number,
      (f: Record<string, string>) => Record<string, string>,
      readonly [number, string],
    ][] = [
      ['too large', 101, (f) => f, [400, 'EntityTooLarge']],
      ['empty', 0, (f) => f, [400, 'EntityTooSmall']],
      ['another type', 50, (f) => ({ ...f, 'Content-Type': 'text/html' }), [403, 'AccessDenied']],
      ['another key', 50, (f) => ({ ...f, key: 'staging/other' }), [403, 'AccessDenied']],
      [
        'a field the policy does not name',
        50,
        (f) => ({ ...f, 'Cache-Control': 'no-store' }),
        [403, 'AccessDenied'],
      ],
      [
        'a policy of its own (larger range), not signed',
        50,
        (f) => ({
          ...f,
          Policy: Buffer.from(
            JSON.stringify({
              ...(JSON.parse(Buffer.from(f.Policy ?? '', 'base64').toString()) as object),
              conditions: [{ bucket: BUCKET }, { key: 'staging/refused' }, ['content-length-range', 0, 1e9]],
            }),
          ).toString('base64'),
        }),
        [403, 'SignatureDoesNotMatch'],
      ],
      ['no signature', 50, ({ 'X-Amz-Signature': _s, ...f }) => f, [403, 'AccessDenied']],
    ];
    for (const [what, bytes, change, expected] of cases)
      expect(await postUpload(upload, bytes, change), what).toEqual(expected);
    expect(await stored('staging/refused')).toBe(false);
    expect(await stored('staging/other')).toBe(false);
  });

  it('refuses a post after the policy expired', async () => {
    const upload = await form('staging/late', { expires: 60 });
    clockShift = 61_000;
    try {
      expect(await postUpload(upload, 50)).toEqual([403, 'AccessDenied']);
    } finally {
      clockShift = 0;
    }
    expect(await stored('staging/late')).toBe(false);
  });
});

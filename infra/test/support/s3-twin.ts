import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { S3GateOptions } from '../../local/s3-gate';
import { startS3Twin } from '../../local/s3-twin';

const HOST = '127.0.0.1';
/** The one key pair the twin knows, as in the local stack. */
export const twinCredentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * An S3 twin of a test file's own, with one bucket, in a folder of its own (removed on stop). It
 * knows `twinCredentials` and the keys in `gate.credentials`.
 */
export async function startTestS3(
  bucket: string,
  now?: () => number,
  gate: Partial<Pick<S3GateOptions, 'credentials' | 'signerMayUpload'>> = {},
) {
  const dir = mkdtempSync(path.join(tmpdir(), 's3-twin-'));
  const twin = await startS3Twin({
    host: HOST,
    port: 0,
    directory: path.join(dir, 's3'),
    buckets: [{ name: bucket, configs: [] }],
    credentials: { ...gate.credentials, [twinCredentials.accessKeyId]: twinCredentials.secretAccessKey },
    corsOrigins: [],
    ...(now ? { now } : {}),
    ...(gate.signerMayUpload ? { signerMayUpload: gate.signerMayUpload } : {}),
  });
  return {
    endpoint: `http://${HOST}:${twin.port}`,
    async stop() {
      await twin.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Posts an upload form as a browser does: its fields (`change` may alter them), then a file of
 * `bytes` bytes. Answers the status and S3's error code ('' for none).
 */
export async function postUpload(
  upload: { url: string; fields: Record<string, string> },
  bytes: number,
  change: (fields: Record<string, string>) => Record<string, string> = (f) => f,
): Promise<readonly [number, string]> {
  const body = new FormData();
  for (const [name, value] of Object.entries(change({ ...upload.fields }))) body.append(name, value);
  body.append('file', new Blob([new Uint8Array(bytes).fill(60)], { type: 'image/svg+xml' }), 'plan.svg');
  const answer = await fetch(upload.url, { method: 'POST', body });
  return [answer.status, /<Code>([^<]+)<\/Code>/.exec(await answer.text())?.[1] ?? ''] as const;
}

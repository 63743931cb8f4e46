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

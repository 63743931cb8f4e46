import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { coldStartOutputs, inputsOf, lambdaBuild } from '../../cdk/lambda-bundling';
import { repoRoot } from '../../cdk/paths';

/**
 * The Lambdas run as bundles (lambda-bundling.ts, with the SDK's barrels bypassed: debarrel.ts). A
 * bundle built the same way does every kind of call the platform makes to DynamoDB and S3 against the
 * local twins, and its cold start reads none of the S3 client's own protocol code.
 */
const stack = inject('stack');
let outdir: string;
let metafile: Metafile;

beforeAll(async () => {
  // Inside the repository, as the bench does: what stays external resolves as on the runtime.
  const cache = path.join(repoRoot, 'node_modules/.cache');
  await mkdir(cache, { recursive: true });
  outdir = await mkdtemp(path.join(cache, 'bundle-probe-'));
  ({ metafile } = await build({
    ...lambdaBuild(path.join(repoRoot, 'infra/test/support/bundle-probe.ts'), outdir),
    metafile: true,
    logLevel: 'error',
  }));
}, 120_000);
afterAll(async () => {
  await rm(outdir, { recursive: true, force: true });
});

/** The input files of the outputs a cold start reads. */
const coldStartInputs = () => inputsOf(metafile, coldStartOutputs(metafile));

describe('a Lambda bundle', () => {
  it('talks to DynamoDB and S3 as the source does: items, objects, metadata, ranges, presigned reads and forms', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(outdir, 'index.mjs')], {
      env: { ...process.env, ...stack.env },
      timeout: 60_000,
    });
    expect(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}')).toEqual({
      dynamo: 42,
      described: { size: 41, contentType: 'image/svg+xml', metadata: { version: 'v1' } },
      read: '<svg xmlns="http://www.w3.org/2000/svg"/>',
      fetched: '<svg xmlns="http://www.w3.org/2000/svg"/>',
      formFields: expect.arrayContaining(['Content-Type', 'Policy', 'X-Amz-Signature', 'key']) as string[],
      gone: true,
    });
  }, 90_000);

  it('reads the S3 client’s XML protocol and waiters only on first use', () => {
    const cold = coldStartInputs();
    expect(cold.some((input) => input.includes('@aws-sdk/client-dynamodb/'))).toBe(true);
    const s3Only = cold.filter((input) => /protocols\/xml\/|util-waiter\/|@aws-sdk\/client-s3\//.test(input));
    expect(s3Only).toEqual([]);
    const lazy = Object.values(metafile.outputs).flatMap((output) => Object.keys(output.inputs));
    expect(lazy.some((input) => input.includes('protocols/xml/AwsRestXmlProtocol'))).toBe(true);
  });
});

import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coldStartOutputs, inputsOf, lambdaBuild, packageOf } from '../../cdk/lambda-bundling';
import { repoRoot } from '../../cdk/paths';

/**
 * What a Lambda's cold start reads (docs/architecture.md, Lambda runtime and bundling): the clients and
 * libraries most of a function's invocations never use are read on first use, from chunks of their
 * own, in every Lambda built as deployed (lambdaBuild).
 */
const ON_FIRST_USE = [
  // The files bucket, export files and the archive; the plan renditions' reads and writes.
  '@aws-sdk/client-s3',
  '@aws-sdk/s3-presigned-post',
  '@aws-sdk/s3-request-presigner',
  // Mail jobs and telemetry dead letters; mail; the archive's stream.
  '@aws-sdk/client-sqs',
  '@aws-sdk/client-ses',
  '@aws-sdk/client-firehose',
  // Publishing (a presence sweep with no change, a vendor read, a command history publish nothing)
  // and closing connections.
  '@aws-sdk/client-iot-data-plane',
  // Deleting a user, sign-in; vendor and signing secrets; plan URLs; tokens not yet verified.
  '@aws-sdk/client-cognito-identity-provider',
  '@aws-sdk/client-secrets-manager',
  '@aws-sdk/cloudfront-signer',
  'jose',
  // The xls writer and the plan sanitizer's parser.
  '@e965/xlsx',
  'saxes',
];

const lambdaDir = path.join(repoRoot, 'functions/src/lambda');
const lambdas = readdirSync(lambdaDir)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.replace(/\.ts$/, ''));
let outdir: string;
const coldStartPackages = new Map<string, string[]>();
/** Every package some chunk of some Lambda holds (a name above that no bundle holds is a typo). */
const bundled = new Set<string>();

beforeAll(async () => {
  outdir = await mkdtemp(path.join(tmpdir(), 'cold-start-'));
  for (const name of lambdas) {
    const { metafile } = await build({
      ...lambdaBuild(path.join(lambdaDir, `${name}.ts`), path.join(outdir, name)),
      metafile: true,
      write: false,
      logLevel: 'error',
    });
    const packagesOf = (outputs: string[]) =>
      inputsOf(metafile, outputs).flatMap((input) => packageOf(input) ?? []);
    coldStartPackages.set(name, [...new Set(packagesOf(coldStartOutputs(metafile)))].sort());
    for (const pkg of packagesOf(Object.keys(metafile.outputs))) bundled.add(pkg);
  }
}, 240_000);
afterAll(async () => {
  await rm(outdir, { recursive: true, force: true });
});

describe('a Lambda cold start', () => {
  it.each(lambdas)('of %s reads no client or library kept for first use', (name) => {
    const packages = coldStartPackages.get(name) ?? [];
    expect(packages.filter((pkg) => ON_FIRST_USE.includes(pkg))).toEqual([]);
  });

  it('is told apart from the chunks read on first use, which hold each of those packages', () => {
    expect(coldStartPackages.get('api-tree')).toContain('@aws-sdk/client-dynamodb');
    expect(ON_FIRST_USE.filter((pkg) => !bundled.has(pkg))).toEqual([]);
  });
});

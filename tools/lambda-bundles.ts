import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { lambdaBundling } from '../infra/cdk/lambda-bundling';

/**
 * What each Lambda's bundle holds, from esbuild's metafile, bundled as deployed: the size of the
 * bundle and its largest parts (packages, or our own folders), in KB. A part's bytes are parsed at
 * every cold start, whether or not the code runs; `npm run bench lambda` measures the load itself.
 * `tsx tools/lambda-bundles.ts [name-part]`.
 */
const root = path.resolve(import.meta.dirname, '..');
const lambdaDir = path.join(root, 'functions/src/lambda');
const only = process.argv[2];
const outDir = await mkdtemp(path.join(tmpdir(), 'lambda-bundles-'));
try {
  for (const file of readdirSync(lambdaDir).filter((f) => f.endsWith('.ts') && (!only || f.includes(only)))) {
    const result = await build({
      ...lambdaBundling,
      entryPoints: [path.join(lambdaDir, file)],
      outfile: path.join(outDir, file.replace(/\.ts$/, '.mjs')),
      metafile: true,
      logLevel: 'silent',
    });
    const output = Object.values(result.metafile.outputs).find((o) => o.entryPoint);
    if (!output) continue;
    const parts = new Map<string, number>();
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];
      const part =
        pkg ?? input.replace(/^.*?functions\/src\/([^/]+).*$/, 'src/$1').replace(/^.*?events\/.*$/, 'events');
      parts.set(part, (parts.get(part) ?? 0) + bytesInOutput);
    }
    const largest = [...parts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 10)
      .map(([part, bytes]) => `${part} ${(bytes / 1024).toFixed(0)}`);
    console.log(
      `${file.replace(/\.ts$/, '')}: ${(output.bytes / 1024).toFixed(0)} KB: ${largest.join(', ')}`,
    );
  }
} finally {
  await rm(outDir, { recursive: true, force: true });
}

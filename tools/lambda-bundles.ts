import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { coldStartOutputs, lambdaBuild, packageOf } from '../infra/cdk/lambda-bundling';

/**
 * What each Lambda's bundle holds, from esbuild's metafile, bundled as deployed: the bytes a cold
 * start reads (the entry and its static chunks), the lazily loaded rest, and the largest parts read
 * at cold start (packages, or our own folders), in KB. A part's bytes are parsed at
 * every cold start, whether or not the code runs; `npm run bench lambda` measures the load itself.
 * `tsx tools/lambda-bundles.ts [--verbose] [name-part]`; `--verbose` also lists, per part, the input
 * files read at cold start with their KB (to find what pulls a package in).
 */
const root = path.resolve(import.meta.dirname, '..');
const lambdaDir = path.join(root, 'functions/src/lambda');
const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const only = args.find((a) => !a.startsWith('--'));
const kb = (bytes: number) => (bytes / 1024).toFixed(0);
const outDir = await mkdtemp(path.join(tmpdir(), 'lambda-bundles-'));
try {
  for (const file of readdirSync(lambdaDir).filter((f) => f.endsWith('.ts') && (!only || f.includes(only)))) {
    const result = await build({
      ...lambdaBuild(path.join(lambdaDir, file), path.join(outDir, file.replace(/\.ts$/, ''))),
      metafile: true,
      logLevel: 'silent',
    });
    // What a cold start reads: the entry and the chunks it imports statically (lazy chunks are apart).
    const outputs = result.metafile.outputs;
    const loaded = new Set(coldStartOutputs(result.metafile));
    if (loaded.size === 0) continue;
    const parts = new Map<string, number>();
    const files = new Map<string, [string, number][]>();
    let bytes = 0;
    const lazy = Object.entries(outputs)
      .filter(([out]) => !loaded.has(out) && out.endsWith('.mjs'))
      .reduce((sum, [, o]) => sum + o.bytes, 0);
    for (const out of loaded) {
      const output = outputs[out];
      if (!output) continue;
      bytes += output.bytes;
      for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
        const pkg = packageOf(input);
        const part =
          pkg ??
          input
            .replace(/^.*?functions\/src\/([^/]+).*$/, 'src/$1')
            .replace(/^.*?contracts\/.*$/, 'contracts');
        parts.set(part, (parts.get(part) ?? 0) + bytesInOutput);
        files.set(part, [...(files.get(part) ?? []), [input, bytesInOutput]]);
      }
    }
    const largest = [...parts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 10)
      .map(([part, bytes]) => `${part} ${(bytes / 1024).toFixed(0)}`);
    const name = file.replace(/\.ts$/, '');
    console.log(`${name}: ${kb(bytes)} KB at cold start (${kb(lazy)} KB lazy): ${largest.join(', ')}`);
    if (verbose)
      for (const [part, size] of [...parts].sort((a, b) => b[1] - a[1])) {
        console.log(`  ${part} ${kb(size)}`);
        for (const [input, b] of (files.get(part) ?? []).sort((x, y) => y[1] - x[1]))
          console.log(`    ${(b / 1024).toFixed(1)} ${input.replace(/^.*node_modules\//, '')}`);
      }
  }
} finally {
  await rm(outDir, { recursive: true, force: true });
}

import { Runtime } from 'aws-cdk-lib/aws-lambda';
import type { BuildOptions, Metafile } from 'esbuild';
import { debarrel } from './debarrel';

/** The Lambda runtime of every platform function. */
export const lambdaRuntime = Runtime.NODEJS_24_X;

/** The Node major of that runtime: bundles target it, and the benchmark loads them on it. */
export const lambdaNodeMajor = Number(/^nodejs(\d+)\.x$/.exec(lambdaRuntime.name)?.[1]);

/**
 * How every Lambda is bundled, in esbuild's terms (see lambdaBuild). The CDK construct builds with
 * them and `npm run bench` too, so the benchmark loads what is deployed.
 */
export const lambdaBundling = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: `node${lambdaNodeMajor}`,
  mainFields: ['module', 'main'],
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  // ESM bundles of CommonJS dependencies need a `require`.
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
  // The AWS SDK clients a Lambda uses are bundled, minified, rather than taken from the runtime: the
  // heavier Lambdas load in about a quarter less time (figures in docs/architecture.md, from
  // bench/lambda.bench.ts).
  external: [] as string[],
} satisfies BuildOptions;

/**
 * The esbuild options of one Lambda: its entry as `index.mjs` in `outdir` (the handler is
 * `index.handler`) and, split off into `chunks/`, each module that is only imported dynamically
 * (`await import(...)`): the xls writer, the plan sanitizer, rarely used AWS clients. A chunk is read
 * on first use; in one file, even code that never runs is parsed at every cold start (the xls writer
 * alone added 0.8x of the floor to the data Lambda's load). esbuild runs plugins only in its
 * asynchronous build: a synchronous caller runs bundle-lambda.ts.
 */
export function lambdaBuild(entry: string, outdir: string): BuildOptions {
  return {
    ...lambdaBundling,
    entryPoints: { index: entry },
    outdir,
    splitting: true,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    // The SDK's names imported from their own files, not its barrels: what a lazily loaded client
    // alone uses stays in its chunk (debarrel.ts).
    plugins: [debarrel()],
  };
}

/**
 * The outputs of a lambdaBuild that a cold start reads: the entry (`entry`, its file name) and the
 * chunks it imports statically; the chunks it imports dynamically are read on first use. Keys of
 * `metafile.outputs`.
 */
export function coldStartOutputs(metafile: Metafile, entry = 'index.mjs'): string[] {
  const outputs = metafile.outputs;
  const loaded = new Set<string>();
  const visit = (out: string) => {
    const output = outputs[out];
    if (loaded.has(out) || !output) return;
    loaded.add(out);
    for (const i of output.imports) if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  const first = Object.keys(outputs).find((out) => out === entry || out.endsWith(`/${entry}`));
  if (first) visit(first);
  return [...loaded];
}

/** The input files (as esbuild names them) that these outputs of a lambdaBuild hold. */
export const inputsOf = (metafile: Metafile, outputs: readonly string[]): string[] =>
  outputs.flatMap((out) => Object.keys(metafile.outputs[out]?.inputs ?? {}));

/** The npm package an input file comes from (`@aws-sdk/client-s3`, `zod`), if any. */
export const packageOf = (input: string): string | undefined =>
  /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];

/** The Node options every Lambda runs with: stack traces through the source maps. */
export const lambdaNodeOptions = '--enable-source-maps';

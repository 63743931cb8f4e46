import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import {
  coldStartOutputs,
  lambdaBuild,
  lambdaBundling,
  lambdaNodeMajor,
  lambdaNodeOptions,
} from '../infra/cdk/lambda-bundling';
import { quantile, type Bench, type BenchResult } from './types';

const root = path.resolve(import.meta.dirname, '..');
const lambdaDir = path.join(root, 'functions/src/lambda');
const RUNS = 21;
const FLOOR = 'DynamoDB document client alone';
/** The floor with Powertools' Logger and Metrics (http/log.ts, adapters/emf-metrics.ts): their cost. */
const POWERTOOLS = 'DynamoDB document client + Powertools Logger and Metrics';
const floorSource =
  "export { DynamoDBClient } from '@aws-sdk/client-dynamodb';\n" +
  "export { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';\n";
/**
 * The plan renditions Lambda touches no DynamoDB: its bundle (its row against the floor) is sharp,
 * libvips' binding and its work, and a logger. Every event reads a plan from the files bucket and
 * writes WebP beside it through the S3 module that every function loads on first use
 * (aws/s3-sdk.ts), so its first event loads that module too: a reference row shows the two together.
 */
const RENDITIONS_WITH_S3 = 'plan-renditions with the S3 module its first event loads (reference)';

const majorOf = (node: string) => {
  try {
    return Number(execFileSync(node, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }));
  } catch {
    return undefined;
  }
};

/** A Node of the deployed runtime's major: this one, one installed in .tools/ (as .ci/run does), or one on PATH. */
function runtimeNode(): string | undefined {
  if (Number(process.versions.node.split('.')[0]) === lambdaNodeMajor) return process.execPath;
  const tools = path.join(root, '.tools');
  const candidates = [
    ...(existsSync(tools) ? readdirSync(tools) : [])
      .filter((dir) => dir.startsWith(`node-v${lambdaNodeMajor}.`))
      .map((dir) => path.join(tools, dir, 'bin', 'node')),
    ...(process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, 'node')),
  ];
  return candidates.find((node) => existsSync(node) && majorOf(node) === lambdaNodeMajor);
}

/** Bytes of an output file and of the chunks it imports statically, transitively: what a cold start reads. */
function loadedBytes(metafile: Metafile, file: string): number {
  return coldStartOutputs(metafile, path.basename(file)).reduce(
    (sum, out) => sum + (metafile.outputs[out]?.bytes ?? 0),
    0,
  );
}

/**
 * Bundles each Lambda exactly as CDK does (infra/cdk/lambda-bundling.ts) and measures the time a fresh
 * Node process of the deployed runtime's major, with the Lambda's NODE_OPTIONS, takes to load it:
 * the median of several processes, against the same for a bundle holding only the DynamoDB document
 * client. The plan renditions Lambda is also shown with the S3 module its first event loads, for
 * reference. `BENCH_SDK=external|bundled` measures the other choice of AWS SDK bundling, for comparison.
 */
const lambdaBench: Bench = async () => {
  const sdk = process.env.BENCH_SDK;
  const external = sdk === 'external' ? ['@aws-sdk/*'] : sdk === 'bundled' ? [] : lambdaBundling.external;
  const label = sdk ? ` (SDK ${sdk})` : '';
  const node = runtimeNode();
  if (!node) {
    const pinned = readFileSync(path.join(root, '.node-version'), 'utf8').trim();
    return [
      {
        name: 'Lambda cold module loads',
        value: Number.NaN,
        unit: 'ms',
        skipped:
          `needs Node ${lambdaNodeMajor} (the nodejs${lambdaNodeMajor}.x runtime), not found in .tools/ or on PATH; ` +
          `run \`bash .ci/run\` (installs Node ${pinned} into .tools/) or put Node ${lambdaNodeMajor} first on PATH`,
      },
    ];
  }
  console.log(
    `  cold loads on Node ${execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()} (${node}), ` +
      `NODE_OPTIONS=${lambdaNodeOptions}, bundles ${external.length ? `with ${external.join(' ')} external` : 'holding the AWS SDK'}${sdk ? ' (not as deployed)' : ''}, median of ${RUNS} processes`,
  );

  // Inside the repository, so external packages resolve as the runtime provides them.
  const cacheDir = path.join(root, 'node_modules/.cache');
  mkdirSync(cacheDir, { recursive: true });
  const outDir = mkdtempSync(path.join(cacheDir, 'lambda-bench-'));
  try {
    const bundles: { name: string; file: string; bytes?: number }[] = [];
    for (const file of readdirSync(lambdaDir)
      .filter((f) => f.endsWith('.ts'))
      .sort()) {
      // As deployed: index.mjs, what it imports statically (loaded at cold start), lazy chunks beside.
      const dir = path.join(outDir, file.replace(/\.ts$/, ''));
      const { metafile } = await build({
        ...lambdaBuild(path.join(lambdaDir, file), dir),
        external,
        logLevel: 'silent',
        metafile: true,
      });
      const index = path.join(dir, 'index.mjs');
      bundles.push({ name: file.replace(/\.ts$/, ''), file: index, bytes: loadedBytes(metafile, index) });
    }
    const references = {
      [FLOOR]: floorSource,
      [POWERTOOLS]:
        floorSource +
        "export { Logger } from '@aws-lambda-powertools/logger';\n" +
        "export { Metrics } from '@aws-lambda-powertools/metrics';\n",
      [RENDITIONS_WITH_S3]:
        "export { handler } from './src/lambda/plan-renditions';\nexport * from './src/aws/s3-sdk';\n",
    };
    for (const [index, [name, contents]] of Object.entries(references).entries()) {
      // Bundled as the Lambdas are (lambdaBuild): the SDK's own lazy imports split off alike.
      const dir = path.join(outDir, `reference-${index}`);
      const { entryPoints: _entry, ...split } = lambdaBuild('', dir);
      const { metafile } = await build({
        ...split,
        external,
        logLevel: 'silent',
        metafile: true,
        stdin: { contents, resolveDir: path.join(root, 'functions'), loader: 'ts', sourcefile: 'index.ts' },
      });
      const file = path.join(dir, 'stdin.mjs');
      bundles.push({ name, file, bytes: loadedBytes(metafile, file) });
    }

    // Runs interleaved, so a burst of load elsewhere on the machine hits every bundle alike.
    const loads = new Map(bundles.map((b) => [b.name, [] as number[]]));
    for (let run = 0; run < RUNS; run++) {
      for (const bundle of bundles) {
        const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(bundle.file).href)}); console.log(performance.now() - t);`;
        const output = execFileSync(node, ['--input-type=module', '-e', script], {
          cwd: root,
          encoding: 'utf8',
          env: { ...process.env, NODE_OPTIONS: lambdaNodeOptions },
        });
        loads.get(bundle.name)?.push(Number(output.trim().split('\n').pop()));
      }
    }
    const median = (name: string) => quantile(loads.get(name) ?? [], 0.5);
    const floor = median(FLOOR);
    const results: BenchResult[] = [];
    for (const bundle of bundles) {
      results.push({
        name: `${bundle.name}: bundle${label}`,
        value: (bundle.bytes ?? statSync(bundle.file).size) / 1024,
        unit: 'KB',
      });
      results.push(
        bundle.name === FLOOR
          ? { name: `${FLOOR}: cold module load${label}`, value: floor, unit: 'ms' }
          : {
              name: `${bundle.name}: cold module load${label}`,
              value: median(bundle.name),
              unit: 'ms',
              floor,
              ...(bundle.name === RENDITIONS_WITH_S3 ? {} : { goal: { max: 1.5 } }),
            },
      );
    }
    return results;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
};

export default lambdaBench;

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { quantile, type Bench, type BenchResult } from './types';

const lambdaDir = path.resolve(import.meta.dirname, '../functions/src/lambda');

/**
 * Bundles each Lambda as CDK does (esbuild, minified, ESM, AWS SDK external since the nodejs22.x
 * runtime provides it) and measures the bundle and the time a fresh Node process takes to load it.
 */
const lambdaBench: Bench = async () => {
  // Inside the repository, so the bundles resolve the AWS SDK the way the Lambda runtime provides it.
  const cacheDir = path.resolve(import.meta.dirname, '../node_modules/.cache');
  mkdirSync(cacheDir, { recursive: true });
  const outDir = mkdtempSync(path.join(cacheDir, 'lambda-bench-'));
  const results: BenchResult[] = [];
  try {
    for (const file of readdirSync(lambdaDir)
      .filter((f) => f.endsWith('.ts'))
      .sort()) {
      const name = file.replace(/\.ts$/, '');
      const outfile = path.join(outDir, `${name}.mjs`);
      await build({
        entryPoints: [path.join(lambdaDir, file)],
        outfile,
        bundle: true,
        minify: true,
        platform: 'node',
        format: 'esm',
        target: 'node22',
        external: ['@aws-sdk/*'],
        banner: {
          js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
        },
        logLevel: 'silent',
      });
      results.push({
        name: `${name}: bundle`,
        value: statSync(outfile).size / 1024,
        unit: 'KB',
        budget: { max: 150 },
      });
      const loads: number[] = [];
      for (let i = 0; i < 7; i++) {
        const script = `const t = performance.now(); await import(${JSON.stringify(outfile)}); console.log(performance.now() - t);`;
        const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
          cwd: path.resolve(import.meta.dirname, '..'),
          encoding: 'utf8',
          env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
        });
        loads.push(Number(output.trim().split('\n').pop()));
      }
      results.push({
        name: `${name}: module load (median)`,
        value: quantile(loads, 0.5),
        unit: 'ms',
        budget: { max: 50 },
      });
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
  return results;
};

export default lambdaBench;

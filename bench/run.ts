import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DEFAULT_DEMO_PASSWORD } from '../infra/local/demo-data';
import { startLocalStack } from '../infra/local/stack';
import type { Bench, BenchContext, BenchResult } from './types';

/**
 * Runs every bench/*.bench.ts (or those whose name contains an argument) against a fresh local stack
 * and prints each measurement beside its floor and goal. Exits 1 when a goal is missed.
 */
async function main() {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const filters = process.argv.slice(2);
  const files = readdirSync(here)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
    .sort();
  process.env.LOG_LEVEL ??= 'warn';
  console.log(`Node ${process.version} (${process.execPath})`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'argentum-bench-'));
  const stack = await startLocalStack({
    dataDir,
    ports: { app: 0, dynamodb: 0, s3: 0, cognito: 0, mqtt: 0, mqttWs: 0, iotData: 0, ses: 0, sqs: 0 },
    seed: true,
    demoPassword: DEFAULT_DEMO_PASSWORD,
    historyDays: 1,
    simulator: false,
    ephemeral: true,
  });
  const url = `http://127.0.0.1:${stack.ports.app}`;
  const context: BenchContext = {
    stack,
    url,
    async signIn(email, password = DEFAULT_DEMO_PASSWORD) {
      const response = await fetch(`${url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user: { email, password } }),
      });
      if (!response.ok) throw new Error(`sign-in of ${email} failed: ${response.status}`);
      return ((await response.json()) as { accessToken: string }).accessToken;
    },
  };

  const rows: (BenchResult & { file: string; ratio?: number; ok: boolean })[] = [];
  try {
    for (const file of files) {
      const bench = (await import(pathToFileURL(path.join(here, file)).href)) as { default: Bench };
      console.log(`running ${file}…`);
      for (const result of await bench.default(context)) {
        if (result.skipped) console.log(`  skipped ${result.name}: ${result.skipped}`);
        const ratio = result.floor === undefined ? undefined : result.value / result.floor;
        const held = ratio ?? result.value;
        const { max, min } = result.goal ?? {};
        const ok =
          result.skipped !== undefined ||
          ((max === undefined || held <= max) && (min === undefined || held >= min));
        rows.push({ ...result, file, ratio, ok });
      }
    }
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const figure = (value: number | undefined) =>
    value === undefined || Number.isNaN(value) ? '' : Number(value.toFixed(value < 10 ? 2 : 0));
  const goalText = (r: BenchResult) =>
    r.goal
      ? [
          r.goal.max !== undefined ? `<= ${r.goal.max}` : '',
          r.goal.min !== undefined ? `>= ${r.goal.min}` : '',
        ]
          .join(' ')
          .trim() + (r.floor === undefined ? ` ${r.unit}` : 'x floor')
      : '';
  console.log('');
  console.table(
    rows.map((r) => ({
      benchmark: r.name,
      value: r.skipped ? 'skipped' : figure(r.value),
      unit: r.unit,
      floor: figure(r.floor),
      ratio: figure(r.ratio),
      goal: goalText(r),
      result: r.skipped ? 'skipped' : r.goal ? (r.ok ? 'ok' : 'MISSED') : '',
    })),
  );
  const missed = rows.filter((r) => !r.ok);
  if (missed.length > 0) {
    console.log(`${missed.length} goal(s) missed: ${missed.map((r) => r.name).join(', ')}`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

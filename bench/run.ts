import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DEFAULT_DEMO_PASSWORD } from '../infra/local/demo-data';
import { startLocalStack } from '../infra/local/stack';
import { formatTable, judge, loadText, type ReportRow, runBenches } from './report';
import { type Bench, type BenchContext, withRetries } from './types';

/**
 * Runs every bench/*.bench.ts (or those whose name contains an argument) against a fresh local stack
 * and prints each measurement beside its floor, ratio, goal and the machine's load. A bench that fails
 * on a transient network error runs again once; a bench that still fails is reported and the others
 * run. Exits 1 when a goal is missed or a bench failed.
 */
async function main() {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const filters = process.argv.slice(2);
  const files = readdirSync(here)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
    .sort();
  process.env.LOG_LEVEL ??= 'warn';
  // The handlers' metrics (EMF lines on stdout, CloudWatch's on AWS) would bury the table.
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  console.log(
    `Node ${process.version} (${process.execPath}); ${availableParallelism()} cores; load (1, 5, 15 min) ${loadText()}`,
  );
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
      const response = await withRetries(`sign-in of ${email}`, () =>
        fetch(`${url}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ user: { email, password } }),
        }),
      );
      if (!response.ok) throw new Error(`sign-in of ${email} failed: ${response.status}`);
      return ((await response.json()) as { accessToken: string }).accessToken;
    },
  };

  let rows: ReportRow[] = [];
  try {
    rows = await runBenches(
      files.map((file) => ({
        file,
        run: async () => {
          const bench = (await import(pathToFileURL(path.join(here, file)).href)) as { default: Bench };
          return bench.default(context);
        },
      })),
    );
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }

  console.log('');
  console.log(formatTable(rows));
  console.log('');
  console.log(
    `Node ${process.version}; ${availableParallelism()} cores; load (1, 5, 15 min) ${loadText()} at the end` +
      ' (the load column: the 1-minute load when each figure was taken)',
  );
  const missed = rows.filter((r) => ['MISSED', 'FAILED'].includes(judge(r).verdict));
  if (missed.length > 0) {
    console.log(
      `${missed.length} goal(s) missed or bench(es) failed: ${missed.map((r) => r.name).join(', ')}`,
    );
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

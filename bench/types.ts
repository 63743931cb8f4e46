import type { LocalStack } from '../infra/local/stack';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** The floor measured in the same run, in the same unit: the goal then bounds value / floor. */
  floor?: number;
  /** The goal from the design brief: bounds on value / floor when a floor is given, else on the value. */
  goal?: { max?: number; min?: number };
  /** Why this figure was not measured in this run; printed instead of a number, not a failure. */
  skipped?: string;
}

export interface BenchContext {
  stack: LocalStack;
  /** Base URL of the web app and API. */
  url: string;
  /** Signs a user in and answers the access token. */
  signIn(email: string, password?: string): Promise<string>;
}

export type Bench = (context: BenchContext) => Promise<BenchResult[]>;

/** The q-th quantile (0..1) of a list of numbers. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}

/** Runs `fn` `total` times with at most `concurrency` runs in flight; answers the runs per second. */
export async function throughput(concurrency: number, total: number, fn: () => Promise<unknown>) {
  let issued = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, total) }, async () => {
      while (issued < total) {
        issued++;
        await fn();
      }
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

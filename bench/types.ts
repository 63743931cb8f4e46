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

/** Network errors a loaded machine produces now and then (a reset or refused socket, a timeout). */
const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** Whether an error (or what caused it: fetch wraps the socket's error) is a transient network error. */
export function isTransient(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as Error & { code?: unknown }).code;
    if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return true;
  }
  return false;
}

/**
 * Runs `fn`, again after a transient network error (at most `attempts` runs in all), saying so; any
 * other error, or the last attempt's, is thrown. For a request a benchmark cannot do without (a 10 MB
 * upload on a loaded machine): one reset socket does not abort the run.
 */
export async function withRetries<T>(label: string, fn: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (attempt >= attempts || !isTransient(error)) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      console.log(`  ${label}: ${reason}; trying again (${attempt + 1} of ${attempts})`);
    }
  }
}

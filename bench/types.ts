import type { LocalStack } from '../infra/local/stack';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** The budget from the design brief: the value must stay at or under max, at or over min. */
  budget?: { max?: number; min?: number };
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

/** Ports every domain may name: time, logging and metrics. Adapters are wired by each Lambda entry point. */

export interface Clock {
  now(): Date;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
}

/**
 * The platform's own metrics (CloudWatch, embedded metric format: adapters/emf-metrics.ts). A port is
 * bound to one namespace by the entry point that wires it; counts are sent when the invocation ends.
 */
export interface Metrics {
  /** Adds `value` to the count `name` (with `dimensions`, a metric of its own). */
  count(name: string, value: number, dimensions?: Record<string, string>): void;
}

export const systemClock: Clock = { now: () => new Date() };

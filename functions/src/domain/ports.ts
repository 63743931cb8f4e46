/** Ports every domain may name: time and logging. Adapters are wired by each Lambda entry point. */

export interface Clock {
  now(): Date;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
}

export const systemClock: Clock = { now: () => new Date() };

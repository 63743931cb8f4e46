import { AsyncLocalStorage } from 'node:async_hooks';
import { Logger } from '@aws-lambda-powertools/logger';
import { SERVICE_NAME } from '../domain/metrics';

/**
 * Structured JSON logs, one object a line, as CloudWatch Logs Insights reads them: Powertools for
 * AWS Lambda's Logger (level, message, timestamp, service, X-Ray trace id, then the fields).
 */
type Level = 'debug' | 'info' | 'warn' | 'error';
type LoggerLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT';
const levels = new Set<string>(['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT']);

const root = new Logger({ serviceName: SERVICE_NAME });

/**
 * The fields of the request being handled: the request's id, the user and the organization it
 * concerns, set once where the request enters (http/api-handler.ts) and completed as they become
 * known (http/middleware.ts), so no handler or domain call passes them along. Held in async-local
 * storage: the local platform runs many requests at once in one process. Each line passes them to
 * the one logger as extra keys: a child logger per request (Powertools `createChild`) cost about
 * 100 µs of CPU for every request's line, the extra keys about 15 µs.
 */
interface RequestFields {
  fields: Record<string, unknown>;
}
const requestFields = new AsyncLocalStorage<RequestFields>();

/** Runs `work` with `fields` on every line it logs. */
export function withLogFields<T>(fields: Record<string, unknown>, work: () => T): T {
  return requestFields.run({ fields: { ...fields } }, work);
}

/** Adds fields to the lines the current request logs from now on (no-op outside a request). */
export function addLogFields(fields: Record<string, unknown>): void {
  const current = requestFields.getStore();
  if (!current) return;
  Object.assign(current.fields, fields);
}

/** LOG_LEVEL (debug, info, warn, error, silent; default info), read at each call. */
function configuredLevel(): LoggerLevel {
  const configured = (process.env.LOG_LEVEL ?? 'info').toUpperCase();
  return levels.has(configured) ? (configured as LoggerLevel) : 'INFO';
}

const order: LoggerLevel[] = ['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT'];
/** Whether a line at `level` is written at `wanted` (Powertools' debug sampling may write more). */
const written = (level: Level, wanted: LoggerLevel) =>
  process.env.POWERTOOLS_LOGGER_SAMPLE_RATE !== undefined ||
  order.indexOf(level.toUpperCase() as LoggerLevel) >= order.indexOf(wanted);

export function log(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  const wanted = configuredLevel();
  if (!written(level, wanted)) return;
  if (root.getLevelName() !== wanted) root.setLogLevel(wanted);
  const current = requestFields.getStore();
  if (current) root[level](message, current.fields, fields);
  else root[level](message, fields);
}

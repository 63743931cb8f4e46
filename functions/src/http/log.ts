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
 * storage: the local platform runs many requests at once in one process. The request's child logger
 * carrying them is made only when a line is written at an enabled level: making one costs far more
 * than a read's own work (a request that logs nothing at the level set makes none).
 */
interface RequestFields {
  fields: Record<string, unknown>;
  logger?: Logger;
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
  current.logger?.appendKeys(fields);
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
  const current = requestFields.getStore();
  if (current && !current.logger) {
    current.logger = root.createChild();
    current.logger.appendKeys(current.fields);
  }
  const logger = current?.logger ?? root;
  if (logger.getLevelName() !== wanted) logger.setLogLevel(wanted);
  logger[level](message, fields);
}

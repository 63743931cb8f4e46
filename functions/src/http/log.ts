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
 * The logger of the request being handled: a child of the root logger whose temporary keys are the
 * request's id, the user and the organization it concerns, set once where the request enters
 * (http/api-handler.ts) and completed as they become known (http/middleware.ts), so no handler or
 * domain call passes them along. One child per request, held in async-local storage: the local
 * platform runs many requests at once in one process, which one logger's keys could not keep apart.
 */
const requestLogger = new AsyncLocalStorage<Logger>();

/** Runs `work` with `fields` on every line it logs. */
export function withLogFields<T>(fields: Record<string, unknown>, work: () => T): T {
  const child = root.createChild();
  child.appendKeys(fields);
  return requestLogger.run(child, work);
}

/** Adds fields to the lines the current request logs from now on (no-op outside a request). */
export function addLogFields(fields: Record<string, unknown>): void {
  requestLogger.getStore()?.appendKeys(fields);
}

/** LOG_LEVEL (debug, info, warn, error, silent; default info), read at each call. */
function configuredLevel(): LoggerLevel {
  const configured = (process.env.LOG_LEVEL ?? 'info').toUpperCase();
  return levels.has(configured) ? (configured as LoggerLevel) : 'INFO';
}

export function log(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  const logger = requestLogger.getStore() ?? root;
  const wanted = configuredLevel();
  if (logger.getLevelName() !== wanted) logger.setLogLevel(wanted);
  logger[level](message, fields);
}

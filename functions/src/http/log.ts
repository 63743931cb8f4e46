import { AsyncLocalStorage } from 'node:async_hooks';

/** Structured JSON logs, one object a line, as CloudWatch Logs Insights reads them. */
type Level = 'debug' | 'info' | 'warn' | 'error';
const order: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

function threshold(): number {
  const configured = process.env.LOG_LEVEL as Level | 'silent' | undefined;
  return order[configured ?? 'info'] ?? order.info;
}

/**
 * Fields every line logged while handling one request carries (its request id, the user and the
 * organization it concerns), set once where the request enters (http/api-handler.ts) and
 * completed as they become known, so no handler or domain call passes them along.
 */
const requestFields = new AsyncLocalStorage<Record<string, unknown>>();

/** Runs `work` with `fields` on every line it logs. */
export function withLogFields<T>(fields: Record<string, unknown>, work: () => T): T {
  return requestFields.run({ ...fields }, work);
}

/** Adds fields to the lines the current request logs from now on (no-op outside a request). */
export function addLogFields(fields: Record<string, unknown>): void {
  const current = requestFields.getStore();
  if (current) Object.assign(current, fields);
}

export function log(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  if (order[level] < threshold()) return;
  const line = JSON.stringify({
    level,
    message,
    time: new Date().toISOString(),
    ...requestFields.getStore(),
    ...fields,
  });
  if (level === 'error' || level === 'warn') console.error(line);
  else console.log(line);
}

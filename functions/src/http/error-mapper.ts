import { UNEXPECTED_ERROR_TEXT } from '@argentum/contracts';
import { JsonText } from '../lib/json-text';
import { DomainError, type DomainErrorKind } from '../domain/errors';
import { log } from './log';
import type { ApiResponse } from './types';

/** The one place where a domain error becomes an HTTP status. */
const statusOf: Record<DomainErrorKind, number> = {
  validation: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  gone: 410,
  'too-large': 413,
  'unsupported-media-type': 415,
  'too-many-requests': 429,
  upstream: 502,
  'upstream-timeout': 504,
};

export const jsonHeaders = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/**
 * A JSON response. A body of JSON text with stored deflated parts (the sidebar's) is answered gzip,
 * spliced from them, when the caller accepts it (`gzip`; API Gateway passes the bytes on, and
 * CloudFront does not compress what is compressed), and as text otherwise; either way it varies by
 * Accept-Encoding. Nothing else is compressed: that would cost every call CPU.
 */
export function jsonResponse(
  statusCode: number,
  body: unknown,
  extra: Partial<ApiResponse> = {},
  { gzip = false }: { gzip?: boolean } = {},
): ApiResponse {
  if (body instanceof JsonText && body.deflated) {
    const encoding: Record<string, string> = gzip ? { 'content-encoding': 'gzip' } : {};
    return {
      statusCode,
      ...extra,
      headers: { ...jsonHeaders, ...extra.headers, vary: 'accept-encoding', ...encoding },
      ...(gzip ? { body: body.gzip().toString('base64'), isBase64Encoded: true } : { body: body.text }),
    };
  }
  return {
    statusCode,
    ...extra,
    headers: { ...jsonHeaders, ...extra.headers },
    body: body === undefined ? '' : body instanceof JsonText ? body.text : JSON.stringify(body),
  };
}

/** Maps any thrown value to a response; no stack trace or internal detail ever reaches the client. */
export function errorResponse(error: unknown, requestId: string): ApiResponse {
  if (error instanceof DomainError) {
    const status = statusOf[error.kind];
    log(status >= 500 ? 'error' : 'info', 'request refused', {
      requestId,
      status,
      reason: error.message,
    });
    // The wait of a 429 goes into Retry-After (seconds), as HTTP clients expect it.
    const { retryAfterSeconds, ...details } = error.details ?? {};
    return jsonResponse(
      status,
      { message: error.message, ...details },
      typeof retryAfterSeconds === 'number' ? { headers: { 'retry-after': String(retryAfterSeconds) } } : {},
    );
  }
  log('error', 'unexpected failure', {
    requestId,
    error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : error,
  });
  return jsonResponse(500, { message: UNEXPECTED_ERROR_TEXT });
}

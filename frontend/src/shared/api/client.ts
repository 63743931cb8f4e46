import {
  clearSession,
  establishSession,
  getAccessToken,
  isSigningOut,
  parseAuthResponse,
  renewalsSettled,
  type AuthResponse,
} from '../session/sessionStore';
import { endSessionHint } from '../session/sessionHint';
import { UNEXPECTED_ERROR_TEXT } from '@argentum/contracts';
import type { ApiAnswer, ApiRequest } from '@argentum/contracts/api';
import { apiEndpoint, type ApiCallName } from '@argentum/contracts/api-paths';
import { showToast } from '../ui/toastStore';

/** A failed call. `status` is 0 when the server could not be reached. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, message: string, body: unknown = undefined) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  get isClientError(): boolean {
    return this.status >= 400 && this.status < 500;
  }
}

/**
 * A background call (see RequestOptions.background) found the session refused: its access token was
 * refused as expired or ended, and so was the refresh cookie. See endSessionUnlessRenewed.
 */
export class SessionRefused extends ApiError {
  constructor(refusal: ApiError) {
    super(refusal.status, refusal.message, refusal.body);
    this.name = 'SessionRefused';
  }
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Do not toast unexpected failures (for calls whose errors the specification ignores). */
  silent?: boolean;
  /**
   * A call the user did not make (the real-time channel's connection token): a refused refresh is
   * thrown as SessionRefused instead of ending the session at once. Such a call can race a change that
   * renews the session (a password change revokes the old refresh token, then answers the new one):
   * its caller decides with endSessionUnlessRenewed.
   */
  background?: boolean;
}

const REFRESH_PATH = apiEndpoint('refreshToken').path;
const LOGIN_ROUTE = '/login';

/**
 * Makes a call of the API by its name in the contracts (contracts/src/api.ts): its path comes
 * from there, its body is typed by the call's request schema and its answer by its response schema.
 */
export function callApi<Name extends ApiCallName>(
  name: Name,
  body: ApiRequest<Name>,
  options: RequestOptions = {},
): Promise<ApiAnswer<Name>> {
  const { method, path } = apiEndpoint(name);
  return request<ApiAnswer<Name>>(method, path, method === 'GET' ? undefined : body, options);
}

/** Reads a JSON document of the web app that is no API call (such as /openapi.json). */
export function getJson<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return request<T>('GET', path, undefined, options);
}

async function request<T>(
  method: 'GET' | 'POST',
  path: string,
  body: unknown,
  options: RequestOptions,
): Promise<T> {
  const tokenUsed = getAccessToken();
  let response = await send(method, path, body, tokenUsed, options);

  if (response.status === 401 && (await carriesExpiryFlag(response))) {
    // Another request may already have refreshed while this one was in flight.
    if (getAccessToken() === tokenUsed) {
      try {
        await refreshSession({ silent: options.silent });
      } catch (error) {
        if (error instanceof ApiError && error.isClientError) {
          if (!options.background) return expireSession();
          throw new SessionRefused(error);
        }
        throw error;
      }
    }
    response = await send(method, path, body, getAccessToken(), options);
  }

  return readResponse<T>(response, options);
}

async function send(
  method: 'GET' | 'POST',
  path: string,
  body: unknown,
  token: string | null,
  options: RequestOptions,
): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    return await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal,
    });
  } catch (error) {
    if (isAbort(error)) throw error;
    if (!options.silent) showToast(UNEXPECTED_ERROR_TEXT, 'error');
    throw new ApiError(0, error instanceof Error ? error.message : 'Network error');
  }
}

async function readResponse<T>(response: Response, options: RequestOptions): Promise<T> {
  const body = await readBody(response);
  if (response.ok) return body as T;
  const error = new ApiError(
    response.status,
    serverMessage(body) ?? `Request failed (${response.status})`,
    body,
  );
  if (!error.isClientError && !options.silent) showToast(UNEXPECTED_ERROR_TEXT, 'error');
  throw error;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  if (!(response.headers.get('content-type') ?? '').includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The server's own text of a failed call (its documented message), when it answered with one. */
export function serverText(error: unknown): string | undefined {
  return error instanceof ApiError ? serverMessage(error.body) : undefined;
}

function serverMessage(body: unknown): string | undefined {
  if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string') {
    return body.message;
  }
  return undefined;
}

async function carriesExpiryFlag(response: Response): Promise<boolean> {
  if ((response.headers.get('www-authenticate') ?? '').toLowerCase().includes('expired')) return true;
  // Read a clone: the original body stays available when this 401 is reported as is.
  const body = await readBody(response.clone());
  return typeof body === 'object' && body !== null && 'expired' in body && body.expired === true;
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

let refreshInFlight: Promise<AuthResponse> | null = null;

/**
 * Exchanges the httpOnly refresh cookie for a new access token and stores the session.
 * Concurrent callers share one request: refresh tokens may rotate, so a second refresh would race.
 */
export function refreshSession(options: Pick<RequestOptions, 'silent'> = {}): Promise<AuthResponse> {
  refreshInFlight ??= (async () => {
    const response = await send('POST', REFRESH_PATH, {}, null, options);
    const auth = parseAuthResponse(await readResponse<unknown>(response, options));
    if (!auth) throw new ApiError(401, 'The session could not be refreshed.');
    establishSession(auth);
    return auth;
  })().finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

/**
 * After a background call found the session refused (SessionRefused, its access token `tokenUsed`):
 * once no renewal of this page's session is in flight (a password change here ends the old session
 * before it answers the new one), resolves if the session was renewed meanwhile. Otherwise the session
 * is over (signed out or password changed elsewhere, the user removed) and ends here as a user's own
 * call would end it, on the sign-in page: a page left open must not go on showing values that stopped
 * coming. Then it never settles.
 */
export async function endSessionUnlessRenewed(tokenUsed: string | null): Promise<void> {
  await renewalsSettled();
  if (getAccessToken() !== tokenUsed) return;
  return expireSession();
}

/**
 * The refresh token is gone or expired: drop the session and start over on the sign-in page, which
 * says the session ended. Unless the user signs out in this page: the sign-out is what refused the
 * tokens, and it leaves for the sign-in page itself once answered (its answer clears the cookies).
 */
function expireSession(): Promise<never> {
  // Never settles: the page is being replaced, and callers must not flash an error meanwhile.
  const replaced = new Promise<never>(() => undefined);
  if (isSigningOut()) return replaced;
  endSessionHint();
  clearSession();
  window.location.assign(LOGIN_ROUTE);
  return replaced;
}

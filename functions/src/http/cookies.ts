import { SESSION_HINT_COOKIE } from '@argentum/contracts';

export const REFRESH_COOKIE = 'refreshToken';

/** Parses the cookies of an HTTP API v2 event (`cookies: ["a=1", "b=2"]`). */
export function parseCookies(cookies: readonly string[] | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const cookie of cookies ?? []) {
    const separator = cookie.indexOf('=');
    if (separator <= 0) continue;
    const name = cookie.slice(0, separator).trim();
    try {
      result[name] = decodeURIComponent(cookie.slice(separator + 1).trim());
    } catch {
      // A malformed cookie is ignored like an absent one.
    }
  }
  return result;
}

interface CookieOptions {
  maxAgeSeconds: number;
  secure: boolean;
  /** Only the auth calls need the refresh cookie, so the browser sends it nowhere else. */
  path: string;
  /** Out of the page's reach (the default); only the session hint is readable. */
  httpOnly?: boolean;
}

export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    `Max-Age=${options.maxAgeSeconds}`,
    `Path=${options.path}`,
    ...(options.httpOnly === false ? [] : ['HttpOnly']),
    'SameSite=Strict',
  ];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

/** How the refresh cookie is set: its lifetime matches the refresh token's; Secure everywhere. */
export interface RefreshCookieSettings {
  refreshTokenValidityDays: number;
  secure: boolean;
}

const REFRESH_COOKIE_PATH = '/api';

const cookiesOfSession = (token: string, maxAgeSeconds: number, settings: RefreshCookieSettings) => [
  // The httpOnly cookie that carries the refresh token (never the response body).
  serializeCookie(REFRESH_COOKIE, token, {
    maxAgeSeconds,
    secure: settings.secure,
    path: REFRESH_COOKIE_PATH,
  }),
  // The page's sign that there is a session to restore (contracts: SESSION_HINT_COOKIE).
  serializeCookie(SESSION_HINT_COOKIE, token === '' ? '' : '1', {
    maxAgeSeconds,
    secure: settings.secure,
    path: '/',
    httpOnly: false,
  }),
];

/** The cookies a new session sets: the refresh token's, and the session hint, as long-lived. */
export const sessionCookies = (refreshToken: string, settings: RefreshCookieSettings) =>
  cookiesOfSession(refreshToken, settings.refreshTokenValidityDays * 24 * 3600, settings);

/** The same cookies, cleared (signing out). */
export const clearedSessionCookies = (settings: RefreshCookieSettings) => cookiesOfSession('', 0, settings);

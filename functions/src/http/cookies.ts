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
}

export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    `Max-Age=${options.maxAgeSeconds}`,
    `Path=${options.path}`,
    'HttpOnly',
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

/** The httpOnly cookie that carries the refresh token (never the response body). */
export const refreshCookie = (token: string, settings: RefreshCookieSettings) =>
  serializeCookie(REFRESH_COOKIE, token, {
    maxAgeSeconds: settings.refreshTokenValidityDays * 24 * 3600,
    secure: settings.secure,
    path: REFRESH_COOKIE_PATH,
  });

export const clearedRefreshCookie = (settings: RefreshCookieSettings) =>
  serializeCookie(REFRESH_COOKIE, '', {
    maxAgeSeconds: 0,
    secure: settings.secure,
    path: REFRESH_COOKIE_PATH,
  });

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

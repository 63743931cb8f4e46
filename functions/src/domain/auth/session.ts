import { identity } from '../../adapters/identity';
import { config } from '../../config';
import { REFRESH_COOKIE, serializeCookie } from '../../http/cookies';
import { getUser } from '../../stores/users';
import { unauthenticated } from '../errors';
import { normalizeEmail, type SessionUser, toSessionUser } from '../users/user';

export const SIGN_IN_FAILED = 'The password and/or email entered is incorrect. Please try again';
export const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';

const COOKIE_PATH = '/api';

export interface Session {
  accessToken: string;
  user: SessionUser;
}

const refreshCookie = (token: string) =>
  serializeCookie(REFRESH_COOKIE, token, {
    maxAgeSeconds: config.refreshTokenValidityDays * 24 * 3600,
    secure: config.cookieSecure,
    path: COOKIE_PATH,
  });

export const clearedRefreshCookie = () =>
  serializeCookie(REFRESH_COOKIE, '', { maxAgeSeconds: 0, secure: config.cookieSecure, path: COOKIE_PATH });

/** Signs a user in; the refresh token goes only into an httpOnly cookie, never into the body. */
export async function signIn(email: string, password: string): Promise<{ session: Session; cookie: string }> {
  const signedIn = await identity.signIn(normalizeEmail(email), password);
  if (!signedIn) throw unauthenticated(SIGN_IN_FAILED);
  const user = await getUser(signedIn.subject);
  if (!user) {
    // Known to the identity store but not (or no longer) a platform user.
    await identity.revoke(signedIn.refreshToken);
    throw unauthenticated(SIGN_IN_FAILED);
  }
  return {
    session: { accessToken: signedIn.accessToken, user: toSessionUser(user) },
    cookie: refreshCookie(signedIn.refreshToken),
  };
}

/** Issues a new access token from the refresh cookie. */
export async function refreshSession(refreshToken: string | undefined): Promise<Session> {
  if (!refreshToken) throw unauthenticated(SESSION_EXPIRED);
  const refreshed = await identity.refresh(refreshToken);
  if (!refreshed) throw unauthenticated(SESSION_EXPIRED);
  const user = await getUser(refreshed.subject);
  if (!user) {
    await identity.revoke(refreshToken);
    throw unauthenticated(SESSION_EXPIRED);
  }
  return { accessToken: refreshed.accessToken, user: toSessionUser(user) };
}

/** Ends the session: the refresh token is revoked, so neither it nor its access tokens work again. */
export async function signOut(refreshToken: string | undefined): Promise<void> {
  if (refreshToken) await identity.revoke(refreshToken);
}

import { identity } from '../../adapters/identity';
import { config } from '../../config';
import { REFRESH_COOKIE, serializeCookie } from '../../http/cookies';
import { endSessionsBefore, getUser } from '../../stores/users';
import { SESSION_EXPIRED, unauthenticated } from '../errors';
import { normalizeEmail, sessionOpen, type SessionUser, toSessionUser } from '../users/user';
import { epochSeconds } from './tokens';

export const SIGN_IN_FAILED = 'The password and/or email entered is incorrect. Please try again';

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
  if (!user || !sessionOpen(user, refreshed.authTime)) {
    await identity.revoke(refreshToken);
    throw unauthenticated(SESSION_EXPIRED);
  }
  return { accessToken: refreshed.accessToken, user: toSessionUser(user) };
}

/**
 * Signs the user out everywhere: every session they began until now is over (its access tokens are
 * refused from the next request on, and on AWS its refreshes too), and this refresh token is revoked.
 */
export async function signOut(refreshToken: string | undefined, now = new Date()): Promise<void> {
  if (!refreshToken) return;
  // The refresh token names its user only to the identity store; one refresh tells who it is.
  const session = await identity.refresh(refreshToken);
  if (session) await endAllSessions(session.subject, now);
  await identity.revoke(refreshToken);
}

/**
 * Ends every session the user began until `now`: the API refuses their access tokens from the next
 * request on, and Cognito revokes their refresh tokens.
 */
export async function endAllSessions(userId: string, now = new Date()): Promise<void> {
  const user = await endSessionsBefore(userId, epochSeconds(now), now.toISOString());
  if (user) await identity.signOutEverywhere(user.email);
}

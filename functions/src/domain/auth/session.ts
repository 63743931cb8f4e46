import { memberOrgIds } from '@argentum/contracts';
import { SESSION_EXPIRED_TEXT } from '@argentum/contracts';
import { unauthenticated } from '../errors';
import { updateUser, nextVersionOf } from '../users/update';
import { normalizeEmail, sessionOpen, type SessionUser, toSessionUser, type UserRecord } from '../users/user';
import type { AccountPorts, ThrottlePorts } from './ports';
import { throttledPasswordCheck } from './throttle';
import { epochSeconds } from './tokens';

export const SIGN_IN_FAILED = 'The password and/or email entered is incorrect. Please try again';

export interface Session {
  accessToken: string;
  user: SessionUser;
}

/** A new session: what the client gets, and the refresh token for its httpOnly cookie. */
export interface StartedSession {
  session: Session;
  refreshToken: string;
}

type SessionPorts = Pick<AccountPorts, 'users' | 'identity' | 'clock' | 'realtime'>;

/**
 * Sessions are told apart from ended ones by the second they began in (the token's `auth_time`): a
 * sign-out ends every session begun in or before its second. So a session must never begin in the
 * second of its user's last sign-out: this waits until that second (and a margin for the identity
 * store's clock) has passed. It waits at most about a second, and only right after a sign-out.
 */
export async function waitPastSessionEnd(deps: Pick<AccountPorts, 'clock'>, user: UserRecord | undefined) {
  if (user?.sessionsValidAfter === undefined) return;
  const resume = (user.sessionsValidAfter + 1) * 1000 + SESSION_CLOCK_MARGIN_MS;
  const wait = resume - deps.clock.now().getTime();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

/** Allowance for the identity store's clock running behind ours. */
const SESSION_CLOCK_MARGIN_MS = 250;

/**
 * Signs a user in from a client address; the refresh token is for an httpOnly cookie only, never for
 * the body. Throttled (throttle.ts): refused with 429 while the account or the address is locked, and
 * a wrong password counts against both.
 */
export async function signIn(
  deps: SessionPorts & ThrottlePorts,
  credentials: { email: string; password: string; address: string },
): Promise<StartedSession> {
  const { email, password, address } = credentials;
  return throttledPasswordCheck(deps, { email, address }, () => startSession(deps, email, password));
}

/** Starts a session with credentials; not throttled: for callers that have checked the password already. */
export async function startSession(
  deps: SessionPorts,
  email: string,
  password: string,
): Promise<StartedSession> {
  const normalized = normalizeEmail(email);
  const known = await deps.users.findByEmail(normalized);
  if (known) await waitPastSessionEnd(deps, await deps.users.get(known.userId));
  const signedIn = await deps.identity.signIn(normalized, password);
  if (!signedIn) throw unauthenticated(SIGN_IN_FAILED);
  const user = await deps.users.get(signedIn.subject);
  if (!user) {
    // Known to the identity store but not (or no longer) a platform user.
    await deps.identity.revoke(signedIn.refreshToken);
    throw unauthenticated(SIGN_IN_FAILED);
  }
  return {
    session: { accessToken: signedIn.accessToken, user: toSessionUser(user) },
    refreshToken: signedIn.refreshToken,
  };
}

/** Issues a new access token from the refresh token. */
export async function refreshSession(deps: SessionPorts, refreshToken: string | undefined): Promise<Session> {
  if (!refreshToken) throw unauthenticated(SESSION_EXPIRED_TEXT);
  const refreshed = await deps.identity.refresh(refreshToken);
  if (!refreshed) throw unauthenticated(SESSION_EXPIRED_TEXT);
  const user = await deps.users.get(refreshed.subject);
  if (!user || !sessionOpen(user, refreshed.authTime)) {
    await deps.identity.revoke(refreshToken);
    throw unauthenticated(SESSION_EXPIRED_TEXT);
  }
  return { accessToken: refreshed.accessToken, user: toSessionUser(user) };
}

/**
 * Signs the user out everywhere: every session they began until now is over (its access tokens are
 * refused from the next request on, its refresh tokens revoked, its real-time connections closed).
 * The user is named by the refresh token, or by a verified access token when there is no cookie.
 */
export async function signOut(
  deps: SessionPorts,
  credentials: { refreshToken?: string | undefined; userId?: string | undefined },
): Promise<void> {
  let userId = credentials.userId;
  if (credentials.refreshToken) {
    // The refresh token names its user only to the identity store; one refresh tells who it is.
    const session = await deps.identity.refresh(credentials.refreshToken);
    userId ??= session?.subject;
  }
  if (userId) await endAllSessions(deps, userId);
  if (credentials.refreshToken) await deps.identity.revoke(credentials.refreshToken);
}

/**
 * Ends every session the user began until now: the API refuses their access tokens from the next
 * request on, the identity store revokes their refresh tokens and their real-time connections stop
 * receiving. Answers the updated record (undefined when there is no such user).
 */
export async function endAllSessions(deps: SessionPorts, userId: string): Promise<UserRecord | undefined> {
  const now = deps.clock.now();
  const user = await updateUser(deps.users, userId, (current) =>
    nextVersionOf(current, { sessionsValidAfter: epochSeconds(now) }, now),
  );
  if (!user) return undefined;
  await deps.identity.signOutEverywhere(user.email);
  await deps.realtime.revoke(user.userId, memberOrgIds(user.orgRoles));
  return user;
}

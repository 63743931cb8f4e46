import { useSyncExternalStore } from 'react';
import {
  DEFAULT_THEME,
  hasRole,
  isThemePreference,
  Role,
  type RoleNumber,
  type SessionUser,
  toRole,
} from '@argentum/contracts';

export type { SessionUser };

/** Whether the user has at least `minRole` in the organization (a role belongs to the membership). */
export const canIn = (user: SessionUser, orgId: string | undefined, minRole: RoleNumber): boolean =>
  orgId !== undefined && hasRole(user.orgRoles, orgId, minRole);

/** Whether the user administers the organization. */
export const administers = (user: SessionUser, orgId: string | undefined) => canIn(user, orgId, Role.admin);

/** What both POST /api/login and POST /api/refreshToken answer. */
export interface AuthResponse {
  accessToken: string;
  user: SessionUser;
}

export type SessionState =
  | { status: 'pending' } // the refresh at app load has not answered yet
  | { status: 'signedOut' }
  | { status: 'signedIn'; user: SessionUser };

// The access token lives only in this module's memory; never in Web Storage, never in React state.
let accessToken: string | null = null;
let state: SessionState = { status: 'pending' };
const listeners = new Set<() => void>();

function emit(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

export function getAccessToken(): string | null {
  return accessToken;
}

export function getSession(): SessionState {
  return state;
}

export function establishSession(response: AuthResponse): void {
  accessToken = response.accessToken;
  emit({ status: 'signedIn', user: response.user });
}

export function clearSession(): void {
  accessToken = null;
  emit({ status: 'signedOut' });
}

/** Calls in flight whose answer renews this page's session (see renewingSession). */
const renewals = new Set<Promise<unknown>>();

/**
 * Runs `renew`, a call that ends the user's sessions and answers this page a new one (a password
 * change). Until it settles, a refusal of this page's old tokens may be its doing rather than the end of
 * the session: see renewalsSettled.
 */
export function renewingSession<T>(renew: () => Promise<T>): Promise<T> {
  const running = renew();
  renewals.add(running);
  running.then(
    () => renewals.delete(running),
    () => renewals.delete(running),
  );
  return running;
}

/** Resolves once no call that renews this page's session is in flight. */
export async function renewalsSettled(): Promise<void> {
  while (renewals.size > 0) await Promise.allSettled([...renewals]);
}

/** Whether the user signs out in this page (see signingOut). */
let leaving = false;

/**
 * The user signs out in this page, which then leaves for the sign-in page: from now on a refusal of
 * this page's tokens is that sign-out's doing (it ends every session of the user and closes the
 * real-time connection), not a session that ended by itself with something to explain. Not undone:
 * the page is replaced.
 */
export function signingOut(): void {
  leaving = true;
}

/** Whether the user signs out in this page (signingOut). */
export const isSigningOut = (): boolean => leaving;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Calls `listener` on every change of the session (outside React, e.g. to apply the user's theme). */
export const subscribeSession = subscribe;

export function useSession(): SessionState {
  return useSyncExternalStore(subscribe, getSession, getSession);
}

/** The signed-in user; only for components rendered behind the session guard. */
export function useSessionUser(): SessionUser {
  const session = useSession();
  if (session.status !== 'signedIn') throw new Error('useSessionUser() used outside a signed-in route');
  return session.user;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Checks the answer of login/refresh at the boundary so a malformed body never becomes a session. */
export function parseAuthResponse(body: unknown): AuthResponse | null {
  if (!isRecord(body) || typeof body.accessToken !== 'string' || body.accessToken === '') return null;
  const user = body.user;
  if (!isRecord(user) || typeof user.id !== 'string') return null;
  const ids = (value: unknown) =>
    Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  const orgRoles = isRecord(user.orgRoles)
    ? Object.fromEntries(Object.entries(user.orgRoles).map(([orgId, role]) => [orgId, toRole(role)]))
    : {};
  return {
    accessToken: body.accessToken,
    user: {
      id: user.id,
      userName: typeof user.userName === 'string' ? user.userName : '',
      email: typeof user.email === 'string' ? user.email : '',
      roles: toRole(user.roles),
      org: ids(user.org),
      orgID: ids(user.orgID),
      orgRoles,
      theme: isThemePreference(user.theme) ? user.theme : DEFAULT_THEME,
    },
  };
}

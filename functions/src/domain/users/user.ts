import type { RoleNumber } from '@argentum/events/contracts';

/** A platform user as stored: identity lives in Cognito, role and organization access here. */
export interface UserRecord {
  /** The Cognito `sub`. */
  userId: string;
  email: string;
  userName: string;
  role: RoleNumber;
  /** Organizations the user may see and act in. */
  orgIds: string[];
  createdAt: string;
  updatedAt: string;
  /**
   * Sessions begun before this moment (epoch seconds) are over: set when the user signs out (a sign-out
   * ends every session of theirs) and when their password is reset.
   */
  sessionsValidAfter?: number;
}

/** The signed-in user every protected handler receives, read from the store on each request. */
export type AuthUser = Pick<UserRecord, 'userId' | 'email' | 'userName' | 'role' | 'orgIds'>;

/** The user as the front end sees it (specification: User (session)). */
export interface SessionUser {
  id: string;
  userName: string;
  email: string;
  roles: RoleNumber;
  org: string[];
}

export const toSessionUser = (user: AuthUser): SessionUser => ({
  id: user.userId,
  userName: user.userName,
  email: user.email,
  roles: user.role,
  org: user.orgIds,
});

/**
 * Whether a session begun at `authTime` (the token's `auth_time`, epoch seconds; API Gateway hands
 * claims over as strings) is still open for this user. Cognito keeps `auth_time` across refreshes, so
 * this ends the refreshed tokens of every session begun before the user's last sign-out too.
 */
export function sessionOpen(user: Pick<UserRecord, 'sessionsValidAfter'>, authTime: unknown): boolean {
  if (user.sessionsValidAfter === undefined) return true;
  const begun = typeof authTime === 'string' ? Number(authTime) : authTime;
  return typeof begun === 'number' && Number.isFinite(begun) && begun >= user.sessionsValidAfter;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

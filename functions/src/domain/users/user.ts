import {
  administeredOrgIds,
  DEFAULT_THEME,
  highestRole,
  memberOrgIds,
  type OrgRoles,
  type SessionUser,
  type ThemePreference,
} from '@argentum/contracts';

export type { SessionUser };

/** A platform user as stored: identity lives in the identity store, roles and memberships here. */
export interface UserRecord {
  /** The identity store's subject (Cognito `sub`). */
  userId: string;
  email: string;
  userName: string;
  /** The user's role in each of their organizations (a role belongs to the membership). */
  orgRoles: OrgRoles;
  createdAt: string;
  updatedAt: string;
  /**
   * Raised by every write of the record. A read-modify-write names the version it read and is refused
   * when the record moved on meanwhile (optimistic concurrency): no update is ever lost.
   */
  version: number;
  /**
   * Sessions begun in or before this second (epoch seconds) are over: set when the user signs out (a
   * sign-out ends every session of theirs), changes or resets their password, or is deleted.
   */
  sessionsValidAfter?: number;
  /** The colour theme the user chose; absent until they choose (DEFAULT_THEME). */
  theme?: ThemePreference;
}

/** The signed-in user every protected handler receives, read from the store on each request. */
export type AuthUser = Pick<UserRecord, 'userId' | 'email' | 'userName' | 'orgRoles' | 'version' | 'theme'>;

export const toSessionUser = (user: AuthUser): SessionUser => ({
  id: user.userId,
  userName: user.userName,
  email: user.email,
  roles: highestRole(user.orgRoles),
  org: memberOrgIds(user.orgRoles),
  orgID: administeredOrgIds(user.orgRoles),
  orgRoles: user.orgRoles,
  theme: user.theme ?? DEFAULT_THEME,
});

/** The organizations the user belongs to. */
export const orgIdsOf = (user: Pick<UserRecord, 'orgRoles'>): string[] => memberOrgIds(user.orgRoles);

/**
 * Whether a session begun at `authTime` (the token's `auth_time`, epoch seconds; API Gateway hands
 * claims over as strings) is still open for this user. A session begun in the very second its user
 * signed out is over too: the sign-in path waits for the next second after a sign-out (see
 * `session.ts`), so no session that began after the sign-out shares its second.
 */
export function sessionOpen(user: Pick<UserRecord, 'sessionsValidAfter'>, authTime: unknown): boolean {
  if (user.sessionsValidAfter === undefined) return true;
  const begun = typeof authTime === 'string' ? Number(authTime) : authTime;
  return typeof begun === 'number' && Number.isFinite(begun) && begun > user.sessionsValidAfter;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

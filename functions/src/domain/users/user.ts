import type { RoleNumber } from '../roles';

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

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

import { USER_DELETED_TEXT, USER_ROLE_UPDATED_TEXT } from '@argentum/events/contracts';
import { identity } from '../../adapters/identity';
import { mapLimited } from '../../stores/concurrency';
import {
  deleteUserRecord,
  getMemberIds,
  getUser,
  getUsers,
  nextTimestamp,
  saveUser,
} from '../../stores/users';
import { conflict, forbidden, notFound } from '../errors';
import { Role, type RoleNumber } from '@argentum/events/contracts';
import type { AuthUser, UserRecord } from './user';

export const USER_ROLE_UPDATED = USER_ROLE_UPDATED_TEXT;
export const USER_DELETED = USER_DELETED_TEXT;
export const USER_NOT_FOUND = 'User not found.';
export const BEYOND_YOUR_ORGANIZATIONS =
  'This user also belongs to organizations you do not administer. Remove their access instead.';
export const CHANGED_MEANWHILE = 'The user was changed meanwhile. Please reload and try again.';

/**
 * A user as an administrator sees them in Manage Users. `org` holds only the organizations the
 * user shares with the administrator (the ones the administrator may assign or remove);
 * `otherOrgCount` says how many more the user belongs to, without naming them.
 */
export interface ManagedUser {
  id: string;
  userName: string;
  email: string;
  roles: RoleNumber;
  org: string[];
  otherOrgCount: number;
  /** False for the administrator themselves and for users with a higher role. */
  editable: boolean;
  /** Editable, and in no organization beyond the administrator's (deleting removes the account). */
  deletable: boolean;
}

/** Roles an administrator may grant: never above their own, and role 3 only by role 3. */
export function assignableRoles(admin: Pick<AuthUser, 'role'>): RoleNumber[] {
  return ([Role.readOnly, Role.readWrite, Role.admin, Role.owner] as const).filter(
    (role) => role <= admin.role && (role < Role.owner || admin.role === Role.owner),
  );
}

const sharesAnOrganization = (admin: AuthUser, user: UserRecord) =>
  user.orgIds.some((orgId) => admin.orgIds.includes(orgId));

function toManagedUser(admin: AuthUser, user: UserRecord): ManagedUser {
  const shared = [...new Set(user.orgIds)].filter((orgId) => admin.orgIds.includes(orgId));
  const otherOrgCount = new Set(user.orgIds).size - shared.length;
  const editable = user.userId !== admin.userId && user.role <= admin.role;
  return {
    id: user.userId,
    userName: user.userName,
    email: user.email,
    roles: user.role,
    org: shared,
    otherOrgCount,
    editable,
    deletable: editable && otherOrgCount === 0,
  };
}

/**
 * Users who share at least one organization with the administrator, sorted by e-mail. Read through
 * the per-organization membership lookup; each user's record decides whether they are listed.
 */
export async function listManagedUsers(admin: AuthUser, role?: RoleNumber): Promise<ManagedUser[]> {
  const memberIds = (await mapLimited([...new Set(admin.orgIds)], 8, getMemberIds)).flat();
  const users = await getUsers(memberIds);
  return users
    .filter((user) => sharesAnOrganization(admin, user))
    .filter((user) => role === undefined || user.role === role)
    .map((user) => toManagedUser(admin, user))
    .sort((a, b) => a.email.localeCompare(b.email));
}

/** A user the administrator may act on: not themselves, in one of their organizations, not above them. */
function assertManageable(admin: AuthUser, user: UserRecord): void {
  if (user.userId === admin.userId) throw forbidden('You cannot change or delete your own account here.');
  if (!sharesAnOrganization(admin, user)) throw forbidden();
  if (user.role > admin.role) throw forbidden();
}

export interface AccessChange {
  userId: string;
  role: RoleNumber;
  /** The user's organizations among the administrator's; the others stay as they are. */
  orgIds: string[];
}

export async function setUserAccess(admin: AuthUser, change: AccessChange): Promise<ManagedUser> {
  if (!assignableRoles(admin).includes(change.role)) {
    throw forbidden('You cannot grant a role above your own.');
  }
  if (change.orgIds.some((orgId) => !admin.orgIds.includes(orgId))) {
    throw forbidden('You can only assign organizations you administer.');
  }
  const user = await getUser(change.userId);
  if (!user) throw notFound(USER_NOT_FOUND);
  assertManageable(admin, user);

  const kept = user.orgIds.filter((orgId) => !admin.orgIds.includes(orgId));
  const next: UserRecord = {
    ...user,
    role: change.role,
    orgIds: [...new Set([...kept, ...change.orgIds])],
    updatedAt: nextTimestamp(user.updatedAt),
  };
  if ((await saveUser(next, user)) === 'changed-meanwhile') throw conflict(CHANGED_MEANWHILE);
  return toManagedUser(admin, next);
}

/** Deletes users, all or none: every id is checked before anything is deleted. */
export async function deleteUsers(admin: AuthUser, userIds: readonly string[]): Promise<void> {
  const ids = [...new Set(userIds)];
  if (ids.includes(admin.userId)) throw forbidden('You cannot change or delete your own account here.');
  const users = await getUsers(ids);
  if (users.length !== ids.length) throw notFound(USER_NOT_FOUND);
  for (const user of users) {
    assertManageable(admin, user);
    // The account is shared with organizations this administrator does not run: only their admins
    // (or a platform owner in all of them) may end it; this one can remove the user's access instead.
    if (user.orgIds.some((orgId) => !admin.orgIds.includes(orgId)))
      throw forbidden(BEYOND_YOUR_ORGANIZATIONS);
  }

  for (const user of users) {
    // Identity first: if the record delete then fails, a retry finds the record and finishes.
    await identity.deleteUser(user.email);
    if ((await deleteUserRecord(user)) === 'changed-meanwhile') throw conflict(CHANGED_MEANWHILE);
  }
}

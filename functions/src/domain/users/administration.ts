import {
  administeredOrgIds,
  assignableRoles,
  highestRole,
  type ManagedUser,
  roleIn,
  type RoleNumber,
  USER_DELETED_TEXT,
  USER_ROLE_UPDATED_TEXT,
} from '@argentum/contracts';
import type { Clock } from '../ports';
import { conflict, forbidden, notFound } from '../errors';
import type { UserStore } from './ports';
import { nextVersionOf, USER_CHANGED_MEANWHILE } from './update';
import type { AuthUser, UserRecord } from './user';

export type { ManagedUser };

export const USER_ROLE_UPDATED = USER_ROLE_UPDATED_TEXT;
export const USER_DELETED = USER_DELETED_TEXT;
export const USER_NOT_FOUND = 'User not found.';
export const BEYOND_YOUR_ORGANIZATIONS =
  'This user also belongs to organizations you do not administer. Remove their access instead.';
export const CANNOT_CHANGE_YOURSELF = 'You cannot change or delete your own account here.';
export const ROLE_ABOVE_YOURS = 'You cannot grant a role above your own.';
export const ONLY_YOUR_ORGANIZATIONS = 'You can only assign organizations you administer.';

/** What user administration needs. */
export interface AdministrationPorts {
  users: UserStore;
  identity: { deleteUser(email: string): Promise<void> };
  clock: Clock;
  /** Stops delivery of organizations' real-time messages to a user's open connections. */
  realtime: { revoke(userId: string, orgIds: readonly string[]): Promise<void> };
}

const sharedOrgIds = (admin: AuthUser, user: UserRecord) => {
  const administered = new Set(administeredOrgIds(admin.orgRoles));
  return Object.keys(user.orgRoles).filter((orgId) => administered.has(orgId));
};

/** Whether the administrator outranks or equals the user in every organization they share. */
const atOrAboveIn = (admin: AuthUser, user: UserRecord, orgIds: readonly string[]) =>
  orgIds.every((orgId) => (roleIn(user.orgRoles, orgId) ?? 0) <= (roleIn(admin.orgRoles, orgId) ?? -1));

function toManagedUser(admin: AuthUser, user: UserRecord): ManagedUser {
  const shared = sharedOrgIds(admin, user);
  const orgRoles = Object.fromEntries(shared.map((orgId) => [orgId, user.orgRoles[orgId] ?? 0]));
  const otherOrgCount = Object.keys(user.orgRoles).length - shared.length;
  const editable = user.userId !== admin.userId && atOrAboveIn(admin, user, shared);
  return {
    id: user.userId,
    userName: user.userName,
    email: user.email,
    roles: highestRole(orgRoles),
    org: shared,
    orgRoles,
    otherOrgCount,
    editable,
    deletable: editable && otherOrgCount === 0,
  };
}

/**
 * Users who share at least one organization the administrator administers, sorted by e-mail. Read
 * through the per-organization membership lookup; each user's record decides whether they are listed.
 * `role`, when given, keeps users with that role in at least one shared organization.
 */
export async function listManagedUsers(
  deps: Pick<AdministrationPorts, 'users'>,
  admin: AuthUser,
  role?: RoleNumber,
): Promise<ManagedUser[]> {
  const administered = administeredOrgIds(admin.orgRoles);
  const memberIds = (await Promise.all(administered.map((orgId) => deps.users.memberIds(orgId)))).flat();
  const users = await deps.users.getMany(memberIds);
  return users
    .map((user) => toManagedUser(admin, user))
    .filter((managed) => managed.org.length > 0)
    .filter((managed) => role === undefined || Object.values(managed.orgRoles).includes(role))
    .sort((a, b) => a.email.localeCompare(b.email));
}

/**
 * A user the administrator may act on: not themselves, sharing one of the organizations the
 * administrator administers (else answered like an unknown user), and not above them in any of those.
 */
function assertManageable(admin: AuthUser, user: UserRecord | undefined): asserts user is UserRecord {
  if (!user || sharedOrgIds(admin, user).length === 0) throw notFound(USER_NOT_FOUND);
  if (user.userId === admin.userId) throw forbidden(CANNOT_CHANGE_YOURSELF);
  if (!atOrAboveIn(admin, user, sharedOrgIds(admin, user))) throw forbidden();
}

export interface AccessChange {
  userId: string;
  role: RoleNumber;
  /**
   * The organizations, among those the administrator administers, the user is to be in with `role`;
   * the user leaves the administrator's other ones. Organizations the administrator does not
   * administer stay exactly as they are.
   */
  orgIds: string[];
}

/**
 * Changes a user's access in the organizations the administrator administers, and nowhere else.
 * Decided on the record the administrator's request was checked against and saved only if it is
 * still that record: a concurrent change answers 409 and the administrator decides again, so a
 * demotion that answered 200 is never undone by a write that read the record before it.
 */
export async function setUserAccess(
  deps: Pick<AdministrationPorts, 'users' | 'clock' | 'realtime'>,
  admin: AuthUser,
  change: AccessChange,
): Promise<ManagedUser> {
  const administered = administeredOrgIds(admin.orgRoles);
  const requested = [...new Set(change.orgIds)];
  if (requested.some((orgId) => !administered.includes(orgId))) throw forbidden(ONLY_YOUR_ORGANIZATIONS);
  for (const orgId of requested) {
    if (!assignableRoles(roleIn(admin.orgRoles, orgId) ?? 0).includes(change.role))
      throw forbidden(ROLE_ABOVE_YOURS);
  }
  const user = await deps.users.get(change.userId);
  assertManageable(admin, user);

  const orgRoles: Record<string, RoleNumber> = Object.fromEntries(
    Object.entries(user.orgRoles).filter(([orgId]) => !administered.includes(orgId)),
  );
  for (const orgId of requested) orgRoles[orgId] = change.role;
  const next = nextVersionOf(user, { orgRoles }, deps.clock.now());
  if ((await deps.users.saveIfUnchanged(next, user)) === 'changed-meanwhile')
    throw conflict(USER_CHANGED_MEANWHILE);

  // Organizations the user left, or in which they lost a role: their open real-time connections
  // stop receiving those organizations' messages (re-authorized with what they keep).
  const reduced = Object.keys(user.orgRoles).filter(
    (orgId) => !Object.hasOwn(orgRoles, orgId) || (orgRoles[orgId] ?? 0) < (user.orgRoles[orgId] ?? 0),
  );
  if (reduced.length > 0) await deps.realtime.revoke(user.userId, reduced);
  return toManagedUser(admin, next);
}

/** Deletes users, all or none: every id is checked before anything is deleted. */
export async function deleteUsers(
  deps: Pick<AdministrationPorts, 'users' | 'identity' | 'realtime'>,
  admin: AuthUser,
  userIds: readonly string[],
): Promise<void> {
  const ids = [...new Set(userIds)];
  if (ids.includes(admin.userId)) throw forbidden(CANNOT_CHANGE_YOURSELF);
  const found = new Map((await deps.users.getMany(ids)).map((user) => [user.userId, user]));
  const users = ids.map((id) => found.get(id));
  for (const user of users) {
    assertManageable(admin, user);
    // The account is shared with organizations this administrator does not run: only their admins
    // may end it; this one can remove the user's access instead.
    if (Object.keys(user.orgRoles).length > sharedOrgIds(admin, user).length)
      throw forbidden(BEYOND_YOUR_ORGANIZATIONS);
  }

  for (const user of users as UserRecord[]) {
    // Identity first: if the record delete then fails, a retry finds the record and finishes.
    await deps.identity.deleteUser(user.email);
    if ((await deps.users.deleteIfUnchanged(user)) === 'changed-meanwhile')
      throw conflict(USER_CHANGED_MEANWHILE);
    await deps.realtime.revoke(user.userId, Object.keys(user.orgRoles));
  }
}

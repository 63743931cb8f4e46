import type { Clock } from '../ports';
import type { UserStore } from './ports';
import { nextVersionOf, updateUser } from './update';

/**
 * Takes an organization (one being deleted) out of a user's memberships, retried when the record
 * changes meanwhile. Idempotent: a user already without it is left alone, and a stale membership
 * lookup (its user gone or no longer in the organization) is removed.
 */
export async function leaveOrganization(
  deps: {
    users: UserStore;
    clock: Clock;
    realtime: { revoke(userId: string, orgIds: readonly string[]): Promise<void> };
  },
  userId: string,
  orgId: string,
): Promise<void> {
  const now = deps.clock.now();
  const left = await updateUser(deps.users, userId, (current) => {
    if (!Object.hasOwn(current.orgRoles, orgId)) return undefined;
    const orgRoles = Object.fromEntries(Object.entries(current.orgRoles).filter(([id]) => id !== orgId));
    return nextVersionOf(current, { orgRoles }, now);
  });
  if (left) await deps.realtime.revoke(userId, [orgId]);
  else await deps.users.forgetMembership(orgId, userId);
}

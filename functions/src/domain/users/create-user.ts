import type { OrgRoles } from '@argentum/contracts';
import type { Clock } from '../ports';
import type { UserStore } from './ports';
import { nextVersionOf, updateUser } from './update';
import { normalizeEmail, type UserRecord } from './user';

export interface NewPlatformUser {
  email: string;
  password: string;
  userName: string;
  /** The user's role in each of their organizations. */
  orgRoles: OrgRoles;
}

/** The identity operations creating a platform user needs. */
export interface UserIdentity {
  /** Creates the identity; undefined when it exists already. */
  createUser(email: string, password: string): Promise<string | undefined>;
  setPassword(email: string, password: string): Promise<void>;
  subjectOfEmail(email: string): Promise<string | undefined>;
}

/**
 * Makes sure a platform user exists with this password, name and memberships: the identity (created,
 * or given this password when it exists) and the user record. For the first owner, the demo data and
 * tests; invited users register through the invitation instead.
 */
export async function createPlatformUser(
  deps: { users: UserStore; identity: UserIdentity; clock: Clock },
  input: NewPlatformUser,
): Promise<UserRecord> {
  const email = normalizeEmail(input.email);
  let userId = await deps.identity.createUser(email, input.password);
  if (!userId) {
    await deps.identity.setPassword(email, input.password);
    userId = await deps.identity.subjectOfEmail(email);
  }
  if (!userId) throw new Error(`The identity store has no subject for ${email}`);
  const now = deps.clock.now();
  const fields = { email, userName: input.userName, orgRoles: input.orgRoles };
  const update = () => updateUser(deps.users, userId, (current) => nextVersionOf(current, fields, now));
  const updated = await update();
  if (updated) return updated;
  const stamp = now.toISOString();
  const created: UserRecord = { userId, ...fields, createdAt: stamp, updatedAt: stamp, version: 1 };
  if ((await deps.users.saveIfUnchanged(created, undefined)) === 'saved') return created;
  // Created by someone else between the read and the write: apply the change to theirs.
  const retried = await update();
  if (!retried) throw new Error(`User ${userId} vanished while it was being created`);
  return retried;
}

import { identity } from '../../adapters/identity';
import { putUser } from '../../stores/users';
import type { RoleNumber } from '@argentum/events/contracts';
import { normalizeEmail, type UserRecord } from './user';

export interface NewPlatformUser {
  email: string;
  password: string;
  userName: string;
  role: RoleNumber;
  orgIds: string[];
}

/**
 * Makes sure a platform user exists with this password, role and organizations: the identity (created,
 * or given this password when it exists) and the user record. For the first owner, the demo data and
 * tests; invited users register through the invitation instead.
 */
export async function createPlatformUser(input: NewPlatformUser): Promise<UserRecord> {
  const email = normalizeEmail(input.email);
  let userId = await identity.createUser(email, input.password);
  if (!userId) {
    await identity.setPassword(email, input.password);
    userId = await identity.subjectOfEmail(email);
  }
  if (!userId) throw new Error(`The identity store has no subject for ${email}`);
  const now = new Date().toISOString();
  const user: UserRecord = {
    userId,
    email,
    userName: input.userName,
    role: input.role,
    orgIds: input.orgIds,
    createdAt: now,
    updatedAt: now,
  };
  await putUser(user);
  return user;
}

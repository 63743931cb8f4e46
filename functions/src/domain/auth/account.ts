import { checkName, type ThemePreference } from '@argentum/contracts';
import { unauthenticated, validationError } from '../errors';
import type { UserStore } from '../users/ports';
import { nextVersionOf, updateUser } from '../users/update';
import type { AuthUser, UserRecord } from '../users/user';
import { USERNAME_EMPTY } from './texts';

/** The signed-in user renames themself; roles and memberships stay as stored (retried on a conflict). */
export async function changeUserName(
  deps: { users: UserStore; clock: { now(): Date } },
  user: AuthUser,
  userName: string,
): Promise<UserRecord> {
  const checked = checkName(userName);
  if (!checked.ok) throw validationError(checked.reason === 'empty' ? USERNAME_EMPTY : checked.reason);
  const now = deps.clock.now();
  const renamed = await updateUser(deps.users, user.userId, (current) =>
    nextVersionOf(current, { userName: checked.name }, now),
  );
  if (!renamed) throw unauthenticated();
  return renamed;
}

/** The signed-in user chooses their colour theme: their own setting, whatever their roles. */
export async function setTheme(
  deps: { users: UserStore; clock: { now(): Date } },
  user: AuthUser,
  theme: ThemePreference,
): Promise<UserRecord> {
  const now = deps.clock.now();
  const saved = await updateUser(deps.users, user.userId, (current) =>
    nextVersionOf(current, { theme }, now),
  );
  if (!saved) throw unauthenticated();
  return saved;
}

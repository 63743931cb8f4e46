import { getUser, putUser } from '../../stores/users';
import { unauthenticated } from '../errors';
import type { AuthUser, UserRecord } from '../users/user';

/** The signed-in user renames themself; role and organizations stay as stored. */
export async function changeUserName(
  user: AuthUser,
  userName: string,
  now = new Date(),
): Promise<UserRecord> {
  const current = await getUser(user.userId);
  if (!current) throw unauthenticated();
  const next: UserRecord = { ...current, userName: userName.trim(), updatedAt: now.toISOString() };
  await putUser(next);
  return next;
}

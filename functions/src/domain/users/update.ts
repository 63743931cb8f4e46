import { conflictBackOff, pauseBefore } from '../../lib/backoff';
import { conflict } from '../errors';
import type { SaveOutcome, UserStore } from './ports';
import type { UserRecord } from './user';

export const USER_CHANGED_MEANWHILE = 'The user was changed meanwhile. Please reload and try again.';

/** The record after a change: the next version, stamped `now`. */
export const nextVersionOf = (
  read: UserRecord,
  changes: Partial<Omit<UserRecord, 'userId' | 'version'>>,
  now: Date,
): UserRecord => ({ ...read, ...changes, version: read.version + 1, updatedAt: now.toISOString() });

/**
 * Applies a change to the user's latest record, retried on a concurrent write (read, change, write
 * conditioned on the version read). For changes that stay right whatever else changed meanwhile
 * (a rename, a sign-out, leaving a deleted organization); an administrator's decision, taken on what
 * they saw, is saved once instead and answers 409 on a conflict (see administration.ts).
 * Answers the saved record; undefined when there is no such user or the change is `undefined`.
 */
export async function updateUser(
  users: UserStore,
  userId: string,
  change: (current: UserRecord) => UserRecord | undefined,
): Promise<UserRecord | undefined> {
  for (let attempt = 1; attempt <= conflictBackOff.attempts; attempt++) {
    if (attempt > 1) await pauseBefore(attempt - 1);
    const current = await users.get(userId);
    if (!current) return undefined;
    const next = change(current);
    if (!next) return undefined;
    const outcome: SaveOutcome = await users.saveIfUnchanged(next, current);
    if (outcome === 'saved') return next;
  }
  throw conflict(USER_CHANGED_MEANWHILE);
}

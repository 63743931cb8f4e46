import { DomainError, tooManyRequests } from '../errors';
import { normalizeEmail } from '../users/user';
import type { AttemptKey, AttemptWindow, Limit, ThrottlePolicy, ThrottlePorts } from './ports';

/**
 * Guessing is slow: sign-in failures and reset-mail requests are counted per account (the normalized
 * e-mail) and per client address, and a key that has had too many is refused for a while (429 with
 * Retry-After), the wait doubling with every further counted attempt up to a ceiling.
 *
 * How a count works (one `Limit`): the first counted attempt opens a window of `windowSeconds`; at
 * `maxAttempts` the key locks for `lockSeconds`, and every attempt counted after that lock (the key
 * is unlocked again) locks it for twice as long as the previous lock, at most `maxLockSeconds`. While
 * a key is locked the window is kept open (`windowSeconds` past the lock), so the back-off keeps
 * growing for as long as the attempts go on; a quiet window forgets everything.
 *
 * Trade-off, deliberately accepted: a lock is per account, so whoever knows an e-mail address can
 * lock its owner out of signing in. That cannot be avoided without letting the guessing go on, so it
 * is bounded instead: attempts refused during a lock are not counted (hammering a locked account does
 * not lengthen its lock), a lock never exceeds `maxLockSeconds` (15 minutes by default), and the lock
 * ends by itself; to keep somebody out, an attacker must keep failing at least once per lock, which
 * the per-address limit and the WAF rate rule in front of the API make slow and visible. A successful
 * sign-in clears the account's count; the per-address count is never cleared by a success (a
 * guesser with one valid account of their own would otherwise reset it).
 */

const minutes = (n: number) => n * 60;

/**
 * The limits in production. Addresses get more room than accounts: an office, a school or a mobile
 * carrier puts many people behind one address.
 */
export const defaultThrottlePolicy: ThrottlePolicy = {
  signIn: {
    account: { maxAttempts: 5, windowSeconds: minutes(15), lockSeconds: 30, maxLockSeconds: minutes(15) },
    address: { maxAttempts: 50, windowSeconds: minutes(15), lockSeconds: 30, maxLockSeconds: minutes(15) },
  },
  resetMail: {
    account: { maxAttempts: 3, windowSeconds: minutes(15), lockSeconds: 60, maxLockSeconds: minutes(15) },
    address: { maxAttempts: 20, windowSeconds: minutes(15), lockSeconds: 60, maxLockSeconds: minutes(15) },
  },
};

/** When the lock of a window ends, or undefined when the window does not lock. */
export function lockEnd(window: AttemptWindow | undefined, limit: Limit): Date | undefined {
  if (!window || window.count < limit.maxAttempts) return undefined;
  const doublings = window.count - limit.maxAttempts;
  const seconds = Math.min(limit.lockSeconds * 2 ** doublings, limit.maxLockSeconds);
  return new Date(window.lastAt.getTime() + seconds * 1000);
}

/** Seconds until the window unlocks at `now` (0 when it is not locked). */
export function lockedFor(window: AttemptWindow | undefined, limit: Limit, now: Date): number {
  const end = lockEnd(window, limit);
  return end ? Math.max(0, (end.getTime() - now.getTime()) / 1000) : 0;
}

/**
 * The key of a client address. IPv4-mapped IPv6 addresses count as their IPv4 address, and an IPv6
 * address counts by its /64 prefix: one subscriber usually gets a whole /64 and can pick any address
 * in it.
 */
export function addressKey(address: string): string {
  const trimmed = address.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(trimmed);
  if (mapped?.[1]) return mapped[1];
  if (!trimmed.includes(':')) return trimmed;
  const [head = '', tail] = trimmed.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? headGroups
      : [
          ...headGroups,
          ...Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0'),
          ...tailGroups,
        ];
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return trimmed;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

interface Counted {
  key: AttemptKey;
  limit: Limit;
}

function keysFor(
  deps: ThrottlePorts,
  kind: 'signIn' | 'resetMail',
  who: { email: string; address: string },
): Counted[] {
  const prefix = kind === 'signIn' ? 'sign-in' : 'reset-mail';
  const limits = deps.throttlePolicy[kind];
  return [
    { key: { kind: `${prefix}:account`, subject: normalizeEmail(who.email) }, limit: limits.account },
    { key: { kind: `${prefix}:address`, subject: addressKey(who.address) }, limit: limits.address },
  ];
}

/** Refuses (429) when any of the keys is locked at `now`, with the longest wait. */
async function refuseWhileLocked(deps: ThrottlePorts, counted: Counted[], now: Date): Promise<void> {
  const windows = await Promise.all(counted.map(({ key }) => deps.attempts.read(key, now)));
  const wait = Math.max(0, ...counted.map(({ limit }, i) => lockedFor(windows[i], limit, now)));
  if (wait > 0) throw tooManyRequests(wait);
}

/** Counts one attempt on every key; a key that locks keeps its window open past the lock. */
async function count(deps: ThrottlePorts, counted: Counted[], now: Date) {
  return Promise.all(
    counted.map(async ({ key, limit }) => {
      const result = await deps.attempts.add(key, now, new Date(now.getTime() + limit.windowSeconds * 1000));
      const end = lockEnd(result.after, limit);
      if (end) await deps.attempts.keepOpenUntil(key, new Date(end.getTime() + limit.windowSeconds * 1000));
      return result;
    }),
  );
}

/** Whether an error means "these credentials are wrong" (and so counts as a failed attempt). */
export type IsFailedCredential = (error: unknown) => boolean;

export const isSignInRefusal: IsFailedCredential = (error) =>
  error instanceof DomainError && error.kind === 'unauthenticated';

/**
 * Runs a password check for an account from an address, throttled: refused (429) while the account
 * or the address is locked, before the password is looked at, so a locked account answers the same
 * whether or not the password is right. A failure (an error `isFailure` recognizes) counts against
 * both; a success clears the account's count.
 */
export async function throttledPasswordCheck<T>(
  deps: ThrottlePorts,
  who: { email: string; address: string },
  check: () => Promise<T>,
  isFailure: IsFailedCredential = isSignInRefusal,
): Promise<T> {
  const counted = keysFor(deps, 'signIn', who);
  await refuseWhileLocked(deps, counted, deps.clock.now());
  let result: T;
  try {
    result = await check();
  } catch (error) {
    if (isFailure(error)) await count(deps, counted, deps.clock.now());
    throw error;
  }
  const [account] = counted;
  if (account) await deps.attempts.clear(account.key);
  return result;
}

/** A password verification that answers false for a wrong password. */
class WrongPassword extends Error {}

/**
 * `throttledPasswordCheck` for a verification that answers whether the password is right (the old
 * password of a change, an existing account's password when it accepts an invitation).
 */
export async function throttledPasswordVerify(
  deps: ThrottlePorts,
  who: { email: string; address: string },
  verify: () => Promise<boolean>,
): Promise<boolean> {
  try {
    return await throttledPasswordCheck(
      deps,
      who,
      async () => {
        if (!(await verify())) throw new WrongPassword();
        return true;
      },
      (error) => error instanceof WrongPassword,
    );
  } catch (error) {
    if (error instanceof WrongPassword) return false;
    throw error;
  }
}

/**
 * Counts a reset-mail request for an account from an address, refusing it (429) while either is
 * locked. Every request counts, whether or not the e-mail belongs to anybody (it costs a mail, and the
 * answer must not depend on it). Concurrent requests are decided on the count each one's own atomic
 * increment saw, so a burst cannot slip past the limit.
 */
export async function countResetMailRequest(
  deps: ThrottlePorts,
  who: { email: string; address: string },
): Promise<void> {
  const counted = keysFor(deps, 'resetMail', who);
  const now = deps.clock.now();
  await refuseWhileLocked(deps, counted, now);
  const results = await count(deps, counted, now);
  const wait = Math.max(0, ...counted.map(({ limit }, i) => lockedFor(results[i]?.before, limit, now)));
  if (wait > 0) throw tooManyRequests(wait);
}

/** How a retried operation waits between its attempts. */
export interface BackOff {
  /** Attempts made at most, the first included. */
  attempts: number;
  /** The ceiling of the first retry's delay; it doubles with each retry, up to `capMs`. */
  baseMs: number;
  capMs: number;
  /** How to wait and draw (tests pass their own: no test waits on a clock). */
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Tries of a compare-and-set write that concurrent writes of the same item got in the way of: each
 * round at least one writer lands, and the others wait a random time before they try again, so a
 * dozen writers of one item at once all land (a device's readings or alarm state from several ingest
 * instances, two admins editing one tree, recomputations of one hour).
 */
export const conflictBackOff: BackOff = { attempts: 12, baseMs: 10, capMs: 250, sleep, random: Math.random };

/**
 * Waits before retry `retry` (1: the first retry) a random time up to base x 2^(retry-1), capped
 * ("full jitter", as AWS advises for contended and throttled requests).
 */
export function pauseBefore(retry: number, backOff: BackOff = conflictBackOff): Promise<void> {
  const ceiling = Math.min(backOff.capMs, backOff.baseMs * 2 ** (retry - 1));
  return backOff.sleep(Math.floor(backOff.random() * ceiling));
}

/** What a coalescer needs of time (tests pass their own). */
export interface CoalescerClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: CoalescerClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

interface Waiting<T> {
  item: T;
  resolve(): void;
  reject(error: unknown): void;
}

interface KeyState<T> {
  waiting: Waiting<T>[];
  draining: boolean;
  /** When the last send of this key started (ms); -Infinity before the first. */
  lastSentAt: number;
}

/**
 * Sends items by key (a topic) so that each key sees at most one send every `spacingMs`, never two
 * at once: an item that comes while its key's send is under way, or sooner than `spacingMs` after
 * the last one started, waits and leaves with every other item that came meanwhile, in one send, in
 * the order they came. An item alone after a quiet spell leaves at once (on the next turn of the
 * event loop, with what else came in the same turn). `add` resolves once the send that carried its
 * item is done, and rejects with that send's error.
 */
export function coalescer<T>(
  send: (key: string, items: T[]) => Promise<void>,
  spacingMs: number,
  clock: CoalescerClock = realClock,
): (key: string, item: T) => Promise<void> {
  const keys = new Map<string, KeyState<T>>();

  const drain = async (key: string, state: KeyState<T>) => {
    state.draining = true;
    while (state.waiting.length > 0) {
      const wait = state.lastSentAt + spacingMs - clock.now();
      if (wait > 0) await clock.sleep(wait);
      else await new Promise((resolve) => setImmediate(resolve));
      const batch = state.waiting.splice(0);
      state.lastSentAt = clock.now();
      try {
        await send(
          key,
          batch.map((w) => w.item),
        );
        for (const w of batch) w.resolve();
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    state.draining = false;
    // A quiet key is forgotten once its spacing is over (its next item may leave at once anyway).
    setTimeout(() => {
      if (!state.draining && state.waiting.length === 0 && keys.get(key) === state) keys.delete(key);
    }, spacingMs).unref();
  };

  return (key, item) =>
    new Promise<void>((resolve, reject) => {
      let state = keys.get(key);
      if (!state) keys.set(key, (state = { waiting: [], draining: false, lastSentAt: -Infinity }));
      state.waiting.push({ item, resolve, reject });
      if (!state.draining) void drain(key, state);
    });
}

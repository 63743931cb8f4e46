/** The interval timer mqtt.js runs its keep-alive on (its `timerVariant` option accepts one). */
export interface KeepaliveTimer {
  set(callback: () => void, ms: number): number;
  clear(id: number): void;
}

/**
 * Keep-alive intervals ticking in a same-origin worker (keepaliveWorker.ts), so a hidden tab still
 * pings in time; where no worker can be made (not a browser, or the worker fails to load) the page's
 * own timers. mqtt.js's default in a browser makes its worker from a blob: URL, which the app's CSP
 * refuses: no ping was sent at all and the broker closed the connection every 1.5 keep-alives.
 */
export function createKeepaliveTimer(
  makeWorker: () => Worker = () =>
    new Worker(new URL('./keepaliveWorker.ts', import.meta.url), { type: 'module', name: 'keepalive' }),
): KeepaliveTimer {
  const page: KeepaliveTimer = {
    set: (callback, ms) => setInterval(callback, ms) as unknown as number,
    clear: (id) => clearInterval(id),
  };
  let worker: Worker;
  try {
    worker = makeWorker();
  } catch {
    return page;
  }
  const intervals = new Map<number, { callback: () => void; ms: number; onPage?: number }>();
  let failed = false;
  let next = 0;
  worker.onmessage = (event: MessageEvent<number>) => intervals.get(event.data)?.callback();
  // The worker failed to load or run: its intervals, and later ones, run on the page.
  worker.onerror = () => {
    failed = true;
    for (const interval of intervals.values()) interval.onPage ??= page.set(interval.callback, interval.ms);
  };
  return {
    set(callback, ms) {
      const id = ++next;
      intervals.set(id, { callback, ms, ...(failed ? { onPage: page.set(callback, ms) } : {}) });
      if (!failed) worker.postMessage({ set: id, ms });
      return id;
    },
    clear(id) {
      const interval = intervals.get(id);
      intervals.delete(id);
      if (interval?.onPage !== undefined) page.clear(interval.onPage);
      if (!failed) worker.postMessage({ clear: id });
    },
  };
}

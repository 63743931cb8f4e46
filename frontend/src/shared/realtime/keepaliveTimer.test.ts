import { afterEach, describe, expect, it, vi } from 'vitest';
import { createKeepaliveTimer } from './keepaliveTimer';

/** A stand-in for the dedicated worker: records what it is asked, ticks when told. */
function fakeWorker() {
  const posted: unknown[] = [];
  const worker = {
    onmessage: null as ((event: MessageEvent<number>) => void) | null,
    onerror: null as ((event: Event) => void) | null,
    postMessage: (message: unknown) => posted.push(message),
    tick: (id: number) => worker.onmessage?.({ data: id } as MessageEvent<number>),
  };
  return { worker, posted, make: () => worker as unknown as Worker };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the keep-alive timer', () => {
  it('runs intervals in the worker: its ticks call back, a cleared one is stopped there', () => {
    const { worker, posted, make } = fakeWorker();
    const timer = createKeepaliveTimer(make);
    const ticks: string[] = [];
    const a = timer.set(() => ticks.push('a'), 30_000);
    const b = timer.set(() => ticks.push('b'), 5_000);
    expect(posted).toEqual([
      { set: a, ms: 30_000 },
      { set: b, ms: 5_000 },
    ]);
    worker.tick(b);
    worker.tick(a);
    timer.clear(a);
    worker.tick(a);
    expect(ticks).toEqual(['b', 'a']);
    expect(posted.at(-1)).toEqual({ clear: a });
  });

  it("falls back to the page's timers when the worker cannot be made or fails", () => {
    vi.useFakeTimers();
    const page = createKeepaliveTimer(() => {
      throw new Error('no workers here');
    });
    let pageTicks = 0;
    const id = page.set(() => pageTicks++, 1_000);
    vi.advanceTimersByTime(3_000);
    expect(pageTicks).toBe(3);
    page.clear(id);

    const { worker, make } = fakeWorker();
    const timer = createKeepaliveTimer(make);
    let ticks = 0;
    const running = timer.set(() => ticks++, 1_000);
    worker.onerror?.(new Event('error'));
    vi.advanceTimersByTime(2_000);
    expect(ticks).toBe(2);
    timer.clear(running);
    vi.advanceTimersByTime(2_000);
    expect(ticks).toBe(2);
  });
});

import { describe, expect, it } from 'vitest';
import { RECONNECT_MAX_MS, reconnectDelay } from './backoff';

describe('reconnect back-off', () => {
  it('doubles from 500 ms and never waits more than the specified 8000 ms', () => {
    expect(Array.from({ length: 8 }, (_, attempt) => reconnectDelay(attempt))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000, 8000,
    ]);
    expect(RECONNECT_MAX_MS).toBe(8000);
    expect(reconnectDelay(1000)).toBe(8000);
  });

  it('takes at most a fifth off with jitter, and stays within the cap', () => {
    expect(reconnectDelay(0, 1)).toBe(400);
    expect(reconnectDelay(10, 0.5)).toBe(7200);
    expect(reconnectDelay(10, 7)).toBe(6400);
    for (let attempt = 0; attempt < 20; attempt++)
      expect(reconnectDelay(attempt, Math.random())).toBeLessThanOrEqual(8000);
  });
});

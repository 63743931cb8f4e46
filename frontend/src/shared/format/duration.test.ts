import { describe, expect, it } from 'vitest';
import { clockOffsetText, formatRelativeTime } from './duration';

const now = Date.UTC(2026, 10, 22, 12, 0, 0);
const ago = (ms: number) => now - ms;
const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

describe('formatRelativeTime', () => {
  it('writes minutes, hours, days, months and years as 1m 1h 1d 1mth 1y', () => {
    expect(formatRelativeTime(ago(30_000), now)).toBe('0m');
    expect(formatRelativeTime(ago(minute), now)).toBe('1m');
    expect(formatRelativeTime(ago(59 * minute + 59_000), now)).toBe('59m');
    expect(formatRelativeTime(ago(hour), now)).toBe('1h');
    expect(formatRelativeTime(ago(23 * hour), now)).toBe('23h');
    expect(formatRelativeTime(ago(day), now)).toBe('1d');
    expect(formatRelativeTime(ago(29 * day), now)).toBe('29d');
    expect(formatRelativeTime(ago(30 * day), now)).toBe('1mth');
    expect(formatRelativeTime(ago(364 * day), now)).toBe('12mth');
    expect(formatRelativeTime(ago(365 * day), now)).toBe('1y');
    expect(formatRelativeTime(ago(3 * 365 * day + day), now)).toBe('3y');
  });

  it('treats a time in the future (a skewed clock) as now', () => {
    expect(formatRelativeTime(now + 5 * minute, now)).toBe('0m');
  });
});

describe('clockOffsetText', () => {
  it('tells a clock a minute or more off, ahead or behind, in the same short units', () => {
    expect(clockOffsetText(-40 * minute)).toBe('40m behind');
    expect(clockOffsetText(-minute)).toBe('1m behind');
    expect(clockOffsetText(2 * minute + 30_000)).toBe('2m ahead');
    expect(clockOffsetText(3 * hour)).toBe('3h ahead');
    expect(clockOffsetText(-2 * day)).toBe('2d behind');
  });

  it('says nothing of an offset under a minute (the transit of the reading is in it) or one not known', () => {
    expect(clockOffsetText(59_999)).toBeUndefined();
    expect(clockOffsetText(-59_999)).toBeUndefined();
    expect(clockOffsetText(0)).toBeUndefined();
    expect(clockOffsetText(undefined)).toBeUndefined();
  });
});

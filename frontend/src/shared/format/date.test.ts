import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from './date';

describe('dates as the specification shows them', () => {
  it('is dd-mm-yyyy with leading zeros', () => {
    expect(formatDate(new Date(2026, 0, 5, 23, 59))).toBe('05-01-2026');
    expect(formatDate(new Date(2026, 11, 31))).toBe('31-12-2026');
  });
  it('adds hours and minutes for moments', () => {
    expect(formatDateTime(new Date(2026, 10, 22, 7, 3))).toBe('22-11-2026 07:03');
  });
});

import { describe, expect, it } from 'vitest';
import { formatReading, formatRelativeTime, formatVoltage, occupancyText, truncateName } from './format';

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

describe('readings', () => {
  it('shows voltage with 2 decimals and readings with 1', () => {
    expect(formatVoltage(3.3)).toBe('3.30 V');
    expect(formatVoltage(3.14159)).toBe('3.14 V');
    expect(formatReading('temp', 22.46)).toBe('22.5 °C');
    expect(formatReading('hum', 45)).toBe('45.0 %');
    expect(formatReading('unknownPoint', 7.25)).toBe('7.3');
  });

  it('divides pressure by 1000 (a value already in kPa is left as it is)', () => {
    expect(formatReading('pressure', 101325)).toBe('101.3 kPA');
    expect(formatReading('pressure', 101.3)).toBe('101.3 kPA');
  });

  it("words a lock's state and a switch's", () => {
    expect(formatReading('lock', 1)).toBe('Locked');
    expect(formatReading('lock', 0)).toBe('Unlocked');
    expect(formatReading('state', 1)).toBe('On');
    expect(formatReading('state', 0)).toBe('Off');
    expect(formatReading('state', 3)).toBe('3.0');
  });

  it('names motion states', () => {
    expect(occupancyText(1)).toBe('Occupied');
    expect(occupancyText(0)).toBe('Unoccupied');
    expect(occupancyText(undefined)).toBe('Unoccupied');
  });

  it('truncates names at 20 characters', () => {
    expect(truncateName('ShortName')).toBe('ShortName');
    expect(truncateName('A'.repeat(20))).toBe('A'.repeat(20));
    expect(truncateName('MeetingRoomSensorNorthWing')).toBe('MeetingRoomSensorNor…');
  });
});

import { describe, expect, it } from 'vitest';
import {
  type DateRange,
  daysRange,
  displayValue,
  isExportFormat,
  lastDays,
  linkedRange,
  parseDate,
  rangeAt,
  reachesNow,
  timeAxis,
  timeTicks,
  todayRange,
  unitOf,
  valueAxis,
  withGaps,
} from './format';

describe('sensor page formats', () => {
  it('follows the present with days that reach today, and keeps past days as chosen', () => {
    const opened = new Date(2026, 10, 24, 9, 0).getTime();
    const later = opened + 5 * 60_000;
    const today = todayRange(opened);
    expect(reachesNow(today, later)).toBe(true);
    expect(rangeAt(today, later)).toEqual({ startDate: today.startDate, endDate: later });
    const week = lastDays(7, opened);
    expect(rangeAt(week, later)).toEqual({ startDate: week.startDate, endDate: later });
    const past = daysRange(new Date(2026, 10, 20), new Date(2026, 10, 22), opened);
    expect(reachesNow(past, later)).toBe(false);
    expect(rangeAt(past, later)).toEqual(past);
    // Left open past midnight, today's range ends with its day.
    const nextDay = new Date(2026, 10, 25, 0, 5).getTime();
    expect(reachesNow(today, nextDay)).toBe(false);
    expect(rangeAt(today, nextDay).endDate).toBe(new Date(2026, 10, 24, 23, 59, 59, 999).getTime());
  });

  it('reads a typed day as dd-mm-yyyy and refuses one that does not exist', () => {
    expect(parseDate('05-01-2026')?.getTime()).toBe(new Date(2026, 0, 5).getTime());
    expect(parseDate(' 5-1-2026 ')?.getTime()).toBe(new Date(2026, 0, 5).getTime());
    expect(parseDate('31-02-2026')).toBeNull();
    expect(parseDate('2026-01-05')).toBeNull();
    expect(parseDate('')).toBeNull();
  });

  it('gives BACnet and air-flow readings their units, from the one table of the contracts', () => {
    expect(unitOf('sat')).toBe('°C');
    expect(unitOf('setpoint')).toBe('°C');
    expect(unitOf('velocity')).toBe('m/s');
    expect(unitOf('pressure')).toBe('kPA');
    expect(unitOf('mState')).toBe('');
  });

  it('starts today at midnight and labels the axis Time under a day, else Date', () => {
    const now = new Date(2026, 10, 22, 15, 30).getTime();
    const today = todayRange(now);
    expect(today).toEqual({ startDate: new Date(2026, 10, 22).getTime(), endDate: now });
    const axisOf = (range: DateRange) => timeAxis(range, timeTicks(range, 8));
    expect(axisOf(today).label).toBe('Time');
    expect(axisOf(lastDays(7, now)).label).toBe('Date');
    expect(axisOf(daysRange(new Date(2026, 10, 1), new Date(2026, 10, 1), now)).label).toBe('Time');
    expect(axisOf(daysRange(new Date(2026, 10, 1), new Date(2026, 10, 2), now)).label).toBe('Date');
  });

  it('names each tick apart: the hour too where ticks are less than a day apart', () => {
    const now = new Date(2026, 10, 24, 12).getTime();
    const labelsOf = (range: DateRange, count: number) => {
      const ticks = timeTicks(range, count);
      const axis = timeAxis(range, ticks);
      return ticks.map(axis.format);
    };
    const twoDays = labelsOf(daysRange(new Date(2026, 10, 22), new Date(2026, 10, 23), now), 8);
    expect(twoDays.length).toBeGreaterThan(2);
    expect(new Set(twoDays).size).toBe(twoDays.length);
    expect(twoDays[1]).toBe('22-11-2026 06:00');
    const month = labelsOf(lastDays(30, now), 6);
    expect(new Set(month).size).toBe(month.length);
    expect(month[0]).toMatch(/^\d{2}-\d{2}-\d{4}$/);
  });

  it('reads the days a link names, and nothing from a link that names none or no real range', () => {
    const now = new Date(2026, 10, 24, 12).getTime();
    expect(linkedRange('18-11-2026', '24-11-2026', now)).toEqual(lastDays(7, now));
    expect(linkedRange('24-11-2026', '24-11-2026', now)).toEqual(todayRange(now));
    expect(linkedRange(null, '24-11-2026', now)).toBeUndefined();
    expect(linkedRange('25-11-2026', '24-11-2026', now)).toBeUndefined();
    expect(linkedRange('31-02-2026', '24-11-2026', now)).toBeUndefined();
    expect(linkedRange('30-11-2026', '30-11-2026', now)).toBeUndefined();
  });

  it('puts ticks inside the range', () => {
    const range = lastDays(30, new Date(2026, 10, 22, 15, 30).getTime());
    const ticks = timeTicks(range, 6);
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    expect(ticks.length).toBeLessThanOrEqual(7);
    for (const t of ticks) expect(t >= range.startDate && t <= range.endDate).toBe(true);
  });

  it('uses the specified axis ranges, widened for readings outside them', () => {
    expect(valueAxis('temp', [21, 24])).toEqual({ min: 11, max: 33 });
    expect(valueAxis('temp', [9, 40])).toEqual({ min: 9, max: 40 });
    expect(valueAxis('velocity', [2])).toEqual({ min: 'auto', max: 'auto' });
  });

  it('shows pressure in kPa', () => {
    expect(displayValue('pressure', 101300)).toBeCloseTo(101.3);
    expect(displayValue('pressure', 101.3)).toBeCloseTo(101.3);
    expect(displayValue('temp', 22)).toBe(22);
  });

  it('knows the export formats', () => {
    expect(['csv', 'json', 'xls', 'pdf'].map(isExportFormat)).toEqual([true, true, true, false]);
  });
});

describe('withGaps', () => {
  const minute = 60_000;
  const hour = 60 * minute;
  /** Readings every `every` ms from 0 to `until`, skipping those in [from, to). */
  const readings = (every: number, until: number, skip?: [number, number]) =>
    Array.from({ length: Math.floor(until / every) + 1 }, (_, i) => ({
      x: i * every,
      y: 20 + (i % 3),
    })).filter((p) => !skip || p.x < skip[0] || p.x >= skip[1]);
  const gaps = (points: { y: number | null }[]) => points.filter((p) => p.y === null).length;

  it('stops the line where a sensor sent nothing for far longer than it usually does', () => {
    const drawn = withGaps(readings(minute, 6 * hour, [2 * hour, 4 * hour]), 'temp', 'raw');
    expect(gaps(drawn)).toBe(1);
    const at = drawn.findIndex((p) => p.y === null);
    // Between the last reading before the silence and the first after it.
    expect(drawn[at - 1]?.x).toBe(2 * hour - minute);
    expect(drawn[at + 1]?.x).toBe(4 * hour);
    expect(drawn[at]?.x).toBe((2 * hour - minute + 4 * hour) / 2);
  });

  it('leaves a line whole across silences within its rule: 30 minutes and 10 spacings for raw readings', () => {
    expect(gaps(withGaps(readings(minute, 6 * hour, [hour, hour + 29 * minute]), 'co2', 'raw'))).toBe(0);
    expect(gaps(withGaps(readings(minute, 6 * hour, [hour, hour + 31 * minute]), 'co2', 'raw'))).toBe(1);
    // A sensor reporting every 10 minutes: 90 minutes of silence is within 10 of its spacings.
    expect(gaps(withGaps(readings(10 * minute, 12 * hour, [hour, 2.5 * hour]), 'hum', 'raw'))).toBe(0);
    expect(gaps(withGaps(readings(10 * minute, 12 * hour, [hour, 4 * hour]), 'hum', 'raw'))).toBe(1);
  });

  it('counts in hours for hourly roll-ups and in days for daily ones', () => {
    expect(gaps(withGaps(readings(hour, 48 * hour, [10 * hour, 12 * hour]), 'temp', 'hour'))).toBe(0);
    expect(gaps(withGaps(readings(hour, 48 * hour, [10 * hour, 14 * hour]), 'temp', 'hour'))).toBe(1);
    const day = 24 * hour;
    expect(gaps(withGaps(readings(day, 90 * day, [10 * day, 12 * day]), 'temp', 'day'))).toBe(0);
    expect(gaps(withGaps(readings(day, 90 * day, [10 * day, 14 * day]), 'temp', 'day'))).toBe(1);
  });

  it('never breaks a state reported when it changes (occupancy, a lock, a switch), nor an unknown point', () => {
    const sparse = [0, 5 * hour, 5 * hour + minute, 12 * hour].map((x, i) => ({ x, y: i % 2 }));
    for (const dp of ['mState', 'lock', 'state', 'custom'])
      expect(withGaps(sparse, dp, 'raw')).toEqual(sparse);
  });
});

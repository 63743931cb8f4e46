import { describe, expect, it } from 'vitest';
import {
  DATE_RANGE_ORDER_TEXT,
  dateRangeTooLongText,
  INVALID_DATE_TEXT,
  MAX_DATE_RANGE_DAYS,
} from '@argentum/contracts';
import { bucketSeries, downsampleMinMax, thin } from '../../src/domain/telemetry/downsample';
import { parseDateRange, resolutionFor } from '../../src/domain/telemetry/queries';

const MINUTE = 60_000;
const start = Date.UTC(2026, 0, 1);

describe('downsampling keeps spikes', () => {
  it('keeps a one-minute spike among 30 days of minutes, in at most 1,000 points in time order', () => {
    const points = Array.from({ length: 30 * 1440 }, (_, i) => ({
      x: start + i * MINUTE,
      y: 22 + Math.sin(i / 200),
    }));
    const spikeAt = 17_321;
    points[spikeAt] = { x: start + spikeAt * MINUTE, y: 41 };
    points[20_000] = { x: start + 20_000 * MINUTE, y: 3 };
    const out = downsampleMinMax(points, 1000);
    expect(out.length).toBeLessThanOrEqual(1000);
    expect(out.length).toBeGreaterThan(900);
    expect(out).toContainEqual({ x: start + spikeAt * MINUTE, y: 41 });
    expect(out).toContainEqual({ x: start + 20_000 * MINUTE, y: 3 });
    expect(out.map((p) => p.x)).toEqual([...out.map((p) => p.x)].sort((a, b) => a - b));
  });

  it('leaves short series alone', () => {
    const points = [
      { x: 1, y: 2 },
      { x: 2, y: 3 },
    ];
    expect(downsampleMinMax(points, 1000)).toEqual(points);
  });

  it('merges roll-up buckets to the limit with the min of mins and max of maxes', () => {
    const buckets = Array.from({ length: 1440 }, (_, i) => ({
      time: start + i * 3_600_000,
      stats: { temp: { min: 21, max: i === 700 ? 40 : 23, sum: 44, count: 2 } },
    }));
    const out = bucketSeries(buckets, 'temp', 1000);
    expect(out).toHaveLength(720);
    expect(out[350]).toEqual({ x: start + 700 * 3_600_000, y: 22, min: 21, max: 40 });
    expect(Math.max(...out.map((p) => p.max ?? 0))).toBe(40);
  });

  it('thins pairs evenly, keeping the first and the last', () => {
    const items = Array.from({ length: 5000 }, (_, i) => i);
    const out = thin(items, 1000);
    expect(out).toHaveLength(1000);
    expect(out[0]).toBe(0);
    expect(out[999]).toBe(4999);
  });
});

describe('date ranges', () => {
  it('takes ISO dates, epoch milliseconds and epoch seconds', () => {
    expect(parseDateRange({ startDate: '2026-01-01T00:00:00Z', endDate: 1767312000000 })).toEqual({
      from: Date.UTC(2026, 0, 1),
      to: Date.UTC(2026, 0, 2),
    });
    expect(parseDateRange({ startDate: 1767225600, endDate: '1767312000' })).toEqual({
      from: Date.UTC(2026, 0, 1),
      to: Date.UTC(2026, 0, 2),
    });
  });

  it('refuses what is not a date, an end before the start and a span over the limit, with their texts', () => {
    expect(() => parseDateRange({ startDate: 'yesterday', endDate: '2026-01-01' })).toThrow(
      INVALID_DATE_TEXT,
    );
    expect(() => parseDateRange({ startDate: '2026-01-02', endDate: '2026-01-01' })).toThrow(
      DATE_RANGE_ORDER_TEXT,
    );
    expect(() => parseDateRange({ startDate: '2025-01-01', endDate: '2026-01-03' })).toThrow(
      dateRangeTooLongText(MAX_DATE_RANGE_DAYS),
    );
  });

  it('reads raw readings up to 2 days, hours up to 60 days, days beyond', () => {
    const day = 86_400_000;
    expect(resolutionFor(0, 2 * day)).toBe('raw');
    expect(resolutionFor(0, 30 * day)).toBe('hour');
    expect(resolutionFor(0, 90 * day)).toBe('day');
  });
});

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  addValue,
  type Bucket,
  bucketStart,
  type RollupResolution,
  type TelemetryPoint,
  type TelemetryStore,
} from '../../src/domain/telemetry/telemetry';
import { daysAgo } from './recent';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Roll-up buckets computed from raw readings, as a store must keep them. */
function bucketsOf(points: readonly TelemetryPoint[], resolution: RollupResolution): Bucket[] {
  const buckets = new Map<number, Bucket>();
  for (const p of points) {
    const time = bucketStart(p.time, resolution);
    let bucket = buckets.get(time);
    if (!bucket) buckets.set(time, (bucket = { time, stats: {} }));
    for (const [dp, value] of Object.entries(p.values)) addValue(bucket.stats, dp, value);
  }
  return [...buckets.values()].sort((a, b) => a.time - b.time);
}

/**
 * What every TelemetryStore adapter must do, run by each adapter's test file (DynamoDB on DynamoDB
 * Local, Timestream against its service's answers). `rewrites`: what a second reading of the same
 * device and time with other values does to the raw series; Timestream keeps the first (a record's
 * measure cannot change at the same version), the others replace it.
 */
export function telemetryStoreContract(
  name: string,
  store: () => TelemetryStore,
  { rewrites = 'replace' }: { rewrites?: 'replace' | 'keep the first' } = {},
) {
  describe(`TelemetryStore contract: ${name}`, () => {
    const devId = () => `contract-${randomUUID().slice(0, 8)}`;
    const day = daysAgo(2);
    /** Readings every 10 minutes for 3 hours of one day, temp rising, hum constant. */
    const readings = (id: string): TelemetryPoint[] =>
      Array.from({ length: 18 }, (_, i) => ({
        devId: id,
        time: day + 9 * HOUR + i * 600_000,
        values: { temp: 20 + i, hum: 45 },
      }));

    it('reads back raw readings in time order, within the range, up to the limit', async () => {
      const id = devId();
      const points = readings(id);
      expect((await store().write([...points].reverse())).failedDevices.size).toBe(0);
      const all = await store().readRaw(id, day, day + DAY - 1, 100);
      expect(all.more).toBe(false);
      expect(all.items).toEqual(points);
      const some = await store().readRaw(id, day + 9 * HOUR + 20 * 60_000, day + 9 * HOUR + 50 * 60_000, 100);
      expect(some.items.map((p) => p.values.temp)).toEqual([22, 23, 24, 25]);
      const limited = await store().readRaw(id, day, day + DAY - 1, 5);
      expect(limited.items).toHaveLength(5);
      expect(limited.more).toBe(true);
    });

    it('keeps hourly and daily roll-ups: min, max, sum and count per data point', async () => {
      const id = devId();
      await store().write(readings(id));
      const hours = await store().readBuckets(id, 'hour', day, day + DAY - 1, 100);
      expect(hours.items.map((b) => b.time)).toEqual([day + 9 * HOUR, day + 10 * HOUR, day + 11 * HOUR]);
      expect(hours.items[0]?.stats.temp).toEqual({ min: 20, max: 25, sum: 135, count: 6 });
      expect(hours.items[2]?.stats.hum).toEqual({ min: 45, max: 45, sum: 270, count: 6 });
      const days = await store().readBuckets(id, 'day', day, day, 10);
      expect(days.items).toEqual([
        {
          time: day,
          stats: {
            temp: { min: 20, max: 37, sum: 513, count: 18 },
            hum: { min: 45, max: 45, sum: 810, count: 18 },
          },
        },
      ]);
    });

    it('changes nothing when the same readings come again, alone or with new ones', async () => {
      const id = devId();
      const points = readings(id);
      await store().write(points.slice(0, 10));
      await store().write(points.slice(0, 10));
      // A redelivered batch that also holds readings seen before, and a reading twice in one batch.
      await store().write([...points.slice(5), ...points.slice(12, 13)]);
      const raw = await store().readRaw(id, day, day + DAY - 1, 100);
      expect(raw.items).toEqual(points);
      const days = await store().readBuckets(id, 'day', day, day, 10);
      expect(days.items[0]?.stats.temp).toEqual({ min: 20, max: 37, sum: 513, count: 18 });
      const hours = await store().readBuckets(id, 'hour', day, day + DAY - 1, 100);
      expect(hours.items.map((b) => b.stats.temp?.count)).toEqual([6, 6, 6]);
    });

    it('keeps the roll-ups in step with the raw readings when a reading comes again with other values', async () => {
      const id = devId();
      const points = readings(id);
      await store().write(points);
      // The device re-sends two readings corrected (same device and time, other values): the hours
      // count the same readings as before, with other figures.
      const corrected = [points[1], points[8]].map((p) => ({
        ...(p as TelemetryPoint),
        values: { temp: 50, hum: 40 },
      }));
      await store().write(corrected);
      // And once more within a batch that also holds readings stored before, unchanged.
      await store().write([...points.slice(0, 3).filter((_, i) => i !== 1), ...corrected]);
      const raw = (await store().readRaw(id, day, day + DAY - 1, 100)).items;
      expect(raw.map((p) => p.values.temp)).toEqual(
        points.map((p, i) => (rewrites === 'replace' && (i === 1 || i === 8) ? 50 : p.values.temp)),
      );
      expect((await store().readBuckets(id, 'hour', day, day + DAY - 1, 100)).items).toEqual(
        bucketsOf(raw, 'hour'),
      );
      expect((await store().readBuckets(id, 'day', day, day, 10)).items).toEqual(bucketsOf(raw, 'day'));
    });

    it('converges when writers of the same buckets run at once', async () => {
      const id = devId();
      const points = readings(id);
      await Promise.all([
        store().write(points.filter((_, i) => i % 3 === 0)),
        store().write(points.filter((_, i) => i % 3 === 1)),
        store().write(points.filter((_, i) => i % 3 === 2)),
        store().write(points.filter((_, i) => i % 2 === 0)),
      ]);
      const days = await store().readBuckets(id, 'day', day, day, 10);
      expect(days.items[0]?.stats.temp).toEqual({ min: 20, max: 37, sum: 513, count: 18 });
    });

    it('converges on corrected readings when writers of the same buckets run at once', async () => {
      const id = devId();
      const points = readings(id);
      await store().write(points);
      // Every reading corrected, by three writers at once, each holding readings of every hour.
      const corrected = points.map((p) => ({ ...p, values: { temp: (p.values.temp ?? 0) + 100, hum: 40 } }));
      await Promise.all([0, 1, 2].map((k) => store().write(corrected.filter((_, i) => i % 3 === k))));
      const raw = (await store().readRaw(id, day, day + DAY - 1, 100)).items;
      expect(raw).toEqual(rewrites === 'replace' ? corrected : points);
      expect((await store().readBuckets(id, 'hour', day, day + DAY - 1, 100)).items).toEqual(
        bucketsOf(raw, 'hour'),
      );
    });

    it('answers nothing for a device without readings', async () => {
      expect(await store().readRaw(devId(), day, day + DAY, 10)).toEqual({ items: [], more: false });
      expect(await store().readBuckets(devId(), 'hour', day, day + DAY, 10)).toEqual({
        items: [],
        more: false,
      });
    });
  });
}

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TelemetryPoint, TelemetryStore } from '../../src/domain/telemetry/telemetry';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * What every TelemetryStore adapter must do, run by each adapter's test file (DynamoDB on DynamoDB
 * Local, Timestream against its service's answers).
 */
export function telemetryStoreContract(name: string, store: () => TelemetryStore) {
  describe(`TelemetryStore contract: ${name}`, () => {
    const devId = () => `contract-${randomUUID().slice(0, 8)}`;
    const day = Date.UTC(2026, 2, 10);
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

    it('answers nothing for a device without readings', async () => {
      expect(await store().readRaw(devId(), day, day + DAY, 10)).toEqual({ items: [], more: false });
      expect(await store().readBuckets(devId(), 'hour', day, day + DAY, 10)).toEqual({
        items: [],
        more: false,
      });
    });
  });
}

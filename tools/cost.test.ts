import { describe, expect, it } from 'vitest';
import { type CostInput, monthlyCost, total } from './cost';

/** The fleet of the cost goal: 1,000 devices at one message a minute. */
const goal: CostInput = {
  devices: 1000,
  rate: 1,
  payloadBytes: 200,
  windowSeconds: 10,
  batchSize: 500,
  rollupWindowSeconds: 300,
  basicIngest: true,
  devicesPerFloor: 50,
  users: 100,
  viewerHoursPerUser: 40,
  apiCallsPerUser: 3000,
  organizations: 5,
  archiveMonths: 12,
};
const usdOf = (input: CostInput, item: RegExp) =>
  monthlyCost(input)
    .filter((l) => item.test(l.item))
    .reduce((n, l) => n + l.usd, 0);

describe('monthly cost model', () => {
  it('charges device messages only when devices publish on the plain topic', () => {
    expect(usdOf(goal, /device messages/)).toBe(0);
    // 43.8 million messages of 200 bytes, one 5 KB metering unit each, at $1 a million.
    expect(usdOf({ ...goal, basicIngest: false }, /device messages/)).toBeCloseTo(43.8, 1);
  });

  it('writes latest values once per device and batch, copied into no index, so a longer window writes fewer', () => {
    // 43.8 million updates of the device item, 1 write unit each: its indexes project keys only.
    expect(usdOf(goal, /latest values/)).toBeCloseTo(27.38, 1);
    expect(usdOf({ ...goal, windowSeconds: 300, batchSize: 10_000 }, /latest values/)).toBeCloseTo(5.47, 1);
  });

  it('reads no device a reading (the write answers it); the owner only when the cache outlives the interval', () => {
    // At a reading a minute the owner stays cached from each write.
    expect(usdOf(goal, /owner lookups/)).toBe(0);
    // Every 5 minutes: one consistent lookup a reading, 8.76 million a month.
    expect(
      monthlyCost({ ...goal, rate: 0.2 }).find((l) => /owner lookups/.test(l.item))?.quantity,
    ).toBeCloseTo(8.76e6, -3);
  });

  it('prices the presence sweep: every online device read once a minute', () => {
    // 1,000 devices x 43,800 sweeps, one read unit each (plus the watch list's queries): about $5.50.
    expect(usdOf(goal, /presence sweep \(every minute: each/)).toBeCloseTo(5.5, 1);
    expect(usdOf({ ...goal, devices: 2000 }, /presence sweep \(every minute: each/)).toBeCloseTo(10.98, 1);
  });

  it('prices live floor messages by batches and floors touched: a 1 s window costs far more than 10 s', () => {
    const oneSecond = usdOf({ ...goal, windowSeconds: 1 }, /live floor/);
    const tenSeconds = usdOf(goal, /live floor/);
    expect(oneSecond).toBeGreaterThan(5 * tenSeconds);
    // No device readings, no live messages.
    expect(usdOf({ ...goal, rate: 0.000001 }, /live floor/)).toBeLessThan(0.01);
  });

  it('prices the long-term archive: no rule action, a Firehose record per batch, cents in all', () => {
    expect(monthlyCost(goal).some((l) => /archive actions/.test(l.item))).toBe(false);
    // 43.8 million readings of ~280 bytes in records of a batch each: ~12 GB metered at $0.029 a GB.
    expect(usdOf(goal, /^ingestion/)).toBeLessThan(0.5);
    const archive = usdOf(goal, /archive|^ingestion|dynamic partitioning/);
    expect(archive).toBeLessThan(1.5);
    // A year of gzipped readings in Infrequent Access costs cents, not dollars.
    expect(usdOf(goal, /archive storage/)).toBeLessThan(0.5);
  });

  it('grows about linearly with the fleet', () => {
    const small = total(monthlyCost(goal));
    const large = total(monthlyCost({ ...goal, devices: 10_000 }));
    expect(large / small).toBeGreaterThan(8);
    expect(large / small).toBeLessThan(11);
  });
});

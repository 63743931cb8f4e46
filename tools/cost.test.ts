import { describe, expect, it } from 'vitest';
import { telemetryCapacity } from '../infra/src/definitions';
import { type CostInput, monthlyCost, PRICES, telemetryProvisioned, total } from './cost';

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
  telemetryCapacity: 'provisioned',
};
const onDemand: CostInput = { ...goal, telemetryCapacity: 'on-demand' };
const usdOf = (input: CostInput, item: RegExp) =>
  monthlyCost(input)
    .filter((l) => item.test(l.item))
    .reduce((n, l) => n + l.usd, 0);

describe('monthly cost model', () => {
  it("counts a page's re-reads every 5 minutes (4 calls) for the hours a floor is open, besides the user's own calls", () => {
    const requests = (input: CostInput) =>
      monthlyCost(input).find((l) => l.item === 'HTTP API requests')?.quantity ?? Number.NaN;
    expect(requests(goal)).toBe(100 * (3000 + 40 * 48));
    expect(requests({ ...goal, viewerHoursPerUser: 0 })).toBe(100 * 3000);
  });

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

  it('prices the presence sweep: every online device read once a minute, eventually consistently', () => {
    // 1,000 devices x 43,800 sweeps, half a read unit each (plus the watch list's queries): about $2.76,
    // half of what consistent reads cost ($5.50).
    expect(usdOf(goal, /presence sweep \(every minute: each/)).toBeCloseTo(2.76, 1);
    expect(usdOf({ ...goal, devices: 2000 }, /presence sweep \(every minute: each/)).toBeCloseTo(5.5, 1);
  });

  it('prices the telemetry table on demand per request: raw writes, roll-up puts, consistent hour reads', () => {
    // 43.8 million raw writes and 8.76 million roll-up puts at $0.625 a million; 30.7 million read units
    // (3 for the hour's raw items and half a unit for the roll-up's revision, per put).
    expect(usdOf(onDemand, /^raw readings/)).toBeCloseTo(27.38, 1);
    expect(usdOf(onDemand, /^hourly roll-up puts/)).toBeCloseTo(5.47, 1);
    expect(usdOf(onDemand, /^roll-up recomputation/)).toBeCloseTo(3.83, 1);
    expect(usdOf(onDemand, /provisioned/)).toBe(0);
  });

  it('provisions the telemetry table at the consumed rate over the 70% target, above the floors', () => {
    // Writes: 16.7 raw a second + 3.3 roll-up puts (1,000 every 300 s) = 20 / 0.7 = 28.6 -> 29 units.
    // Reads: 3,500 read units every 300 s = 11.7 a second / 0.7 = 16.7, under the floor of 25.
    expect(telemetryProvisioned(goal)).toEqual({ wcu: 29, rcu: telemetryCapacity.minRead });
    expect(usdOf(goal, /telemetry table writes, provisioned/)).toBeCloseTo(29 * 730 * 0.00065, 2);
    expect(usdOf(goal, /telemetry table reads, provisioned/)).toBeCloseTo(25 * 730 * 0.00013, 2);
    expect(usdOf(goal, /^raw readings|^hourly roll-up puts|^roll-up recomputation/)).toBe(0);
    // A unit-hour used in full is ~3.5 times cheaper than the same writes on demand.
    expect(PRICES.dynamoWritePerMillion / ((PRICES.dynamoWcuHour / 3600) * 1e6)).toBeCloseTo(3.46, 1);
    // The lever: $20 a month at 1,000 devices against the same table on demand.
    expect(total(monthlyCost(onDemand)) - total(monthlyCost(goal))).toBeCloseTo(20.55, 1);
  });

  it("sizes for the roll-ups' bursts: each window's puts and reads fit in the 300 s DynamoDB banks", () => {
    for (const devices of [1_000, 10_000, 100_000]) {
      const input = { ...goal, devices };
      const { wcu, rcu } = telemetryProvisioned(input);
      const rawPerSecond = devices / 60;
      // One put and reads of 3.5 units (the hour, its revision) per device every 300 s.
      expect((wcu - rawPerSecond) * 300, `${devices} writes`).toBeGreaterThanOrEqual(devices);
      expect(rcu * 300, `${devices} reads`).toBeGreaterThanOrEqual(devices * 3.5);
    }
  });

  it('stays inside the auto scaling ceilings and the per-table quota to 100,000 devices; the ceiling binds near 350,000', () => {
    const at = (devices: number) => telemetryProvisioned({ ...goal, devices });
    expect(at(100_000).wcu).toBeLessThan(telemetryCapacity.maxWrite);
    expect(at(100_000).rcu).toBeLessThan(telemetryCapacity.maxRead);
    expect(at(340_000).wcu).toBeLessThan(telemetryCapacity.maxWrite);
    expect(at(360_000).wcu).toBeGreaterThan(telemetryCapacity.maxWrite);
    // DynamoDB's default per-table quota of provisioned units: 40,000 each (a ceiling raised to it).
    expect(at(1_400_000).wcu).toBeLessThanOrEqual(40_000);
    expect(at(1_500_000).wcu).toBeGreaterThan(40_000);
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

import { describe, expect, it } from 'vitest';
import { latestTimeOf, latestTimes, newerPoints } from '../src/devices';

describe("a device's latest values, point by point", () => {
  it("gives a point its own time, else (a value kept before times were) the device's, else none", () => {
    const device = { latest: { temp: 21, hum: 40 }, latestAt: { temp: 1_000 }, lastSeen: 3_000 };
    expect(latestTimeOf(device, 'temp')).toBe(1_000);
    expect(latestTimeOf(device, 'hum')).toBe(3_000);
    expect(latestTimeOf(device, 'co2')).toBeUndefined();
    expect(latestTimeOf({}, 'temp')).toBeUndefined();
    expect(latestTimes(device)).toEqual({ temp: 1_000, hum: 3_000 });
    expect(latestTimes({ latest: { temp: 21 } })).toEqual({});
  });

  it('takes the values that are the newest word on their points, with their times, and leaves the rest', () => {
    const held = { latest: { temp: 21, hum: 40 }, latestAt: { temp: 3_000, hum: 1_000 }, lastSeen: 3_000 };
    // An older reading (2,000) of both: hum only, which was last read at 1,000.
    expect(newerPoints(held, { latest: { temp: 19, hum: 45 }, lastSeen: 2_000 })).toEqual({
      latest: { hum: 45 },
      latestAt: { hum: 2_000 },
    });
    // The same time counts as newer (a redelivery changes nothing); a point never held is taken.
    expect(
      newerPoints(held, { latest: { temp: 21, co2: 600 }, latestAt: { temp: 3_000, co2: 500 } }),
    ).toEqual({
      latest: { temp: 21, co2: 600 },
      latestAt: { temp: 3_000, co2: 500 },
    });
    // A value whose time is not known is taken, without a time.
    expect(newerPoints(held, { latest: { temp: 18 } })).toEqual({ latest: { temp: 18 }, latestAt: {} });
    expect(newerPoints(held, {})).toEqual({ latest: {}, latestAt: {} });
  });
});

import {
  type DevicePresence,
  type DeviceView,
  type FloorDevicesAnswer,
  latestTimeOf,
} from '@argentum/contracts';
import { describe, expect, it } from 'vitest';
import { type DeviceUpdate, keepNewer, mergeDevices, mergeUpdates } from './deviceMerge';

const presence = (online: boolean, at: number): DevicePresence => ({
  online,
  reason: online ? 'reading' : 'silent',
  since: at,
  at,
});

const device = (fields: Partial<DeviceView> = {}): DeviceView => ({
  devID: 'd1',
  devName: 'Sensor',
  devType: 5,
  orgID: 'org',
  onFloor: true,
  dataPoints: [],
  properties: {},
  latest: { temp: 20 },
  lastSeen: 1_000,
  online: true,
  presence: presence(true, 1_000),
  updatedAt: '2026-01-01T00:00:00.000Z',
  version: 1,
  ...fields,
});

const apply = (devices: DeviceView[], update: DeviceUpdate) =>
  mergeDevices(devices, new Map([[update.devID, update]]));

describe('live updates never undo a newer word (messages arrive out of order)', () => {
  it('leaves out a presence decided before the one held', () => {
    // A presence sweep decided 'offline' at 4,000 and published at the end of its run, after a
    // reading at 5,000 had brought the device online.
    const held = [device({ lastSeen: 5_000, presence: presence(true, 5_000) })];
    const late: DeviceUpdate = {
      devID: 'd1',
      online: false,
      presence: presence(false, 4_000),
      lastSeen: 1_000,
    };
    expect(apply(held, late)).toBe(held);
  });

  it('leaves out a reading older than the newest held, and keeps the rest of the update', () => {
    const held = [device({ latest: { temp: 25 }, lastSeen: 3_000 })];
    const [next] = apply(held, {
      devID: 'd1',
      latest: { temp: 19 },
      lastSeen: 2_000,
      online: false,
      presence: presence(false, 3_500),
    });
    expect(next).toMatchObject({ latest: { temp: 25 }, lastSeen: 3_000, online: false });
    expect(next?.presence?.at).toBe(3_500);
  });

  it('applies newer words, and words whose time is not known', () => {
    const held = [device()];
    expect(apply(held, { devID: 'd1', latest: { temp: 21 }, lastSeen: 2_000 })[0]).toMatchObject({
      latest: { temp: 21 },
      lastSeen: 2_000,
    });
    expect(apply(held, { devID: 'd1', latest: { hum: 40 } })[0]?.latest).toEqual({ temp: 20, hum: 40 });
    expect(apply(held, { devID: 'd1', online: false, presence: presence(false, 1_000) })[0]?.online).toBe(
      false,
    );
  });

  it("leaves out a power node's port value reported before the one held, port by port", () => {
    // The floor's answer holds port one switched on at 5,000; a push of an older report (4,000, both
    // ports) arrives late: only port two, never reported before, is taken.
    const held = [device({ properties: { portOneValue: 1 }, portReportedAt: { portOneValue: 5_000 } })];
    const [next] = apply(held, {
      devID: 'd1',
      ports: { portOneValue: 0, portTwoValue: 0 },
      portReportedAt: { portOneValue: 4_000, portTwoValue: 4_000 },
    });
    expect(next?.properties).toEqual({ portOneValue: 1, portTwoValue: 0 });
    expect(next?.portReportedAt).toEqual({ portOneValue: 5_000, portTwoValue: 4_000 });
    // Entirely older: nothing changes.
    expect(
      apply(held, { devID: 'd1', ports: { portOneValue: 0 }, portReportedAt: { portOneValue: 4_500 } }),
    ).toBe(held);
    // Newer: taken.
    const [newer] = apply(held, {
      devID: 'd1',
      ports: { portOneValue: 0 },
      portReportedAt: { portOneValue: 6_000 },
    });
    expect(newer).toMatchObject({ properties: { portOneValue: 0 }, portReportedAt: { portOneValue: 6_000 } });
  });

  it('coalesces queued updates the same way: a late older one does not replace a newer one', () => {
    const newer: DeviceUpdate = {
      devID: 'd1',
      latest: { temp: 25 },
      lastSeen: 3_000,
      presence: presence(true, 3_000),
    };
    const older: DeviceUpdate = {
      devID: 'd1',
      latest: { temp: 19, hum: 30 },
      lastSeen: 2_000,
      online: false,
      presence: presence(false, 2_500),
    };
    // Of the older update, only the point the newer one has no word on (hum, read at 2,000).
    expect(mergeUpdates(newer, older)).toEqual({
      ...newer,
      latest: { temp: 25, hum: 30 },
      latestAt: { hum: 2_000 },
    });
    expect(mergeUpdates(older, newer)).toMatchObject({
      latest: { temp: 25, hum: 30 },
      lastSeen: 3_000,
      presence: { at: 3_000 },
    });
  });
});

describe("each latest value's own time", () => {
  it('moves with every reading of its point, the same value or not, and only with its point', () => {
    // The lock read 1 at 1,000; the page missed its unlock (0 at 2,000); locked by hand at 3,000.
    const held = [device({ latest: { lock: 1, batt: 90 }, latestAt: { lock: 1_000, batt: 1_000 } })];
    const [locked] = apply(held, {
      devID: 'd1',
      latest: { lock: 1 },
      latestAt: { lock: 3_000 },
      lastSeen: 3_000,
    });
    expect(locked).toMatchObject({ latest: { lock: 1, batt: 90 }, latestAt: { lock: 3_000, batt: 1_000 } });
    expect(latestTimeOf(locked ?? device(), 'lock')).toBe(3_000);
    // An older reading of another point (its own time 2,500) leaves the device's time and the lock's.
    const [later] = apply([locked ?? device()], {
      devID: 'd1',
      latest: { batt: 80 },
      latestAt: { batt: 2_500 },
      lastSeen: 3_000,
    });
    expect(later).toMatchObject({ latestAt: { lock: 3_000, batt: 2_500 }, lastSeen: 3_000 });
  });

  it('leaves them out with a reading older than the newest held, and coalesces them point by point', () => {
    const held = [device({ latest: { lock: 1 }, latestAt: { lock: 3_000 }, lastSeen: 3_000 })];
    expect(
      apply(held, { devID: 'd1', latest: { lock: 0 }, latestAt: { lock: 2_000 }, lastSeen: 2_000 }),
    ).toBe(held);
    expect(
      mergeUpdates(
        {
          devID: 'd1',
          latest: { lock: 0, batt: 90 },
          latestAt: { lock: 2_000, batt: 2_000 },
          lastSeen: 2_000,
        },
        { devID: 'd1', latest: { lock: 1 }, latestAt: { lock: 3_000 }, lastSeen: 3_000 },
      ),
    ).toMatchObject({ latest: { lock: 1, batt: 90 }, latestAt: { lock: 3_000, batt: 2_000 } });
  });

  it("takes an older message's values of the points it is the newest word on (batches published out of order)", () => {
    // Held after a batch of 3,000 (temp); a batch that read hum and temp at 2,000 is published later.
    const held = [
      device({ latest: { temp: 25, hum: 40 }, latestAt: { temp: 3_000, hum: 1_000 }, lastSeen: 3_000 }),
    ];
    const [next] = apply(held, {
      devID: 'd1',
      latest: { temp: 19, hum: 45 },
      latestAt: { temp: 2_000, hum: 2_000 },
      lastSeen: 2_000,
    });
    expect(next).toMatchObject({
      latest: { temp: 25, hum: 45 },
      latestAt: { temp: 3_000, hum: 2_000 },
      lastSeen: 3_000,
    });
  });

  it('keeps a value held without its own time as old as it was when the device reads anew', () => {
    // From an answer of before times were kept: fan 2 and temp 20 as of the device's time, 1,000.
    const held = [device({ latest: { fan: 2, temp: 20 }, lastSeen: 1_000 })];
    const [next] = apply(held, {
      devID: 'd1',
      latest: { temp: 21 },
      latestAt: { temp: 3_000 },
      lastSeen: 3_000,
    });
    expect(latestTimeOf(next ?? device(), 'fan')).toBe(1_000);
    expect(latestTimeOf(next ?? device(), 'temp')).toBe(3_000);
  });

  it("keeps, point by point, the live values newer than an API answer's", () => {
    const mine = device({
      latest: { temp: 25, hum: 40 },
      latestAt: { temp: 3_000, hum: 1_000 },
      lastSeen: 3_000,
    });
    const read = device({
      latest: { temp: 20, hum: 45 },
      latestAt: { temp: 1_500, hum: 2_500 },
      lastSeen: 2_500,
    });
    expect(
      keepNewer({ devices: [mine], sensorSizes: {} }, { devices: [read], sensorSizes: {} }).devices[0],
    ).toMatchObject({
      latest: { temp: 25, hum: 45 },
      latestAt: { temp: 3_000, hum: 2_500 },
      lastSeen: 3_000,
    });
    // The same reading on both sides: the answer's device as it is.
    expect(
      keepNewer({ devices: [read], sensorSizes: {} }, { devices: [read], sensorSizes: {} }).devices[0],
    ).toBe(read);
  });

  it("are kept with the live values newer than an API answer's", () => {
    const held = {
      devices: [device({ latest: { lock: 1 }, latestAt: { lock: 3_000 }, lastSeen: 3_000 })],
      sensorSizes: {},
    };
    const read = {
      devices: [device({ latest: { lock: 1, batt: 90 }, latestAt: { lock: 1_000, batt: 1_000 } })],
      sensorSizes: {},
    };
    expect(keepNewer(held, read).devices[0]).toMatchObject({
      latest: { lock: 1, batt: 90 },
      latestAt: { lock: 3_000, batt: 1_000 },
      lastSeen: 3_000,
    });
  });
});

describe("an answer of the API read before the page's live values", () => {
  const answer = (devices: DeviceView[]): FloorDevicesAnswer => ({ devices, sensorSizes: {} });

  it("keeps the live values and presence that are newer than the answer's", () => {
    const held = answer([
      device({ latest: { temp: 25 }, lastSeen: 3_000, online: false, presence: presence(false, 3_000) }),
    ]);
    // Read at 1,500 (online, 20 degrees), landed after the live words of 3,000; renamed meanwhile.
    const read = answer([device({ devName: 'Renamed', version: 2 })]);
    const [kept] = keepNewer(held, read).devices;
    expect(kept).toMatchObject({
      devName: 'Renamed',
      version: 2,
      latest: { temp: 25 },
      lastSeen: 3_000,
      online: false,
    });
  });

  it("keeps a power node's port values pushed after the answer was read, port by port", () => {
    const held = answer([
      device({
        properties: { portOneValue: 1, portTwoValue: 1, volt: 12 },
        portReportedAt: { portOneValue: 7_000, portTwoValue: 3_000 },
      }),
    ]);
    // Read before the push of 7,000 (port one off at 2,000) and after port two's report of 3,000
    // was followed by one of 4,000; an item's value from before ports were timed has no time.
    const read = answer([
      device({
        properties: { portOneValue: 0, portTwoValue: 0, volt: 24 },
        portReportedAt: { portOneValue: 2_000, portTwoValue: 4_000 },
      }),
    ]);
    const [kept] = keepNewer(held, read).devices;
    expect(kept?.properties).toEqual({ portOneValue: 1, portTwoValue: 0, volt: 24 });
    expect(kept?.portReportedAt).toEqual({ portOneValue: 7_000, portTwoValue: 4_000 });
    const untimed = answer([device({ properties: { portOneValue: 0, portTwoValue: 0 } })]);
    expect(keepNewer(held, untimed).devices[0]?.properties).toEqual({ portOneValue: 1, portTwoValue: 1 });
  });

  it('takes the answer where it is as new or newer, and its devices as they are', () => {
    const held = answer([device(), device({ devID: 'gone' })]);
    const read = answer([
      device({ latest: { temp: 22 }, lastSeen: 2_000, online: false, presence: presence(false, 2_000) }),
      device({ devID: 'new' }),
    ]);
    const merged = keepNewer(held, read);
    expect(merged.devices).toEqual(read.devices);
    expect(merged.devices[1]).toBe(read.devices[1]);
    expect(keepNewer(undefined, read)).toBe(read);
  });
});

describe("a device's clock offset", () => {
  it('comes with its newest reading, live or in an answer, and not with an older one', () => {
    const held = device({ lastSeen: 2_000, clockOffset: -50 });
    // A newer reading tells it anew (the device's clock was set two minutes ahead meanwhile).
    const [ahead] = apply([held], {
      devID: 'd1',
      latest: { temp: 21 },
      lastSeen: 125_000,
      clockOffset: 120_000,
    });
    expect(ahead).toMatchObject({ lastSeen: 125_000, clockOffset: 120_000 });
    // An older message arriving late says nothing of the clock as it is now.
    const [late] = apply([held], { devID: 'd1', latest: { hum: 40 }, lastSeen: 1_500, clockOffset: -900 });
    expect(late).toMatchObject({ lastSeen: 2_000, clockOffset: -50, latest: { hum: 40 } });
    // An answer read before the page's newest reading keeps the page's offset; a newer one brings its own.
    const answer = (d: DeviceView): FloorDevicesAnswer => ({ devices: [d], sensorSizes: {} });
    const page = answer(device({ lastSeen: 125_000, clockOffset: 120_000 }));
    expect(keepNewer(page, answer(device({ lastSeen: 2_000, clockOffset: -50 }))).devices[0]).toMatchObject({
      lastSeen: 125_000,
      clockOffset: 120_000,
    });
    expect(keepNewer(page, answer(device({ lastSeen: 130_000, clockOffset: 0 }))).devices[0]).toMatchObject({
      lastSeen: 130_000,
      clockOffset: 0,
    });
  });
});

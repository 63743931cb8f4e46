import { describe, expect, it } from 'vitest';
import {
  type AlarmDevice,
  type AlarmPorts,
  type AlarmStore,
  comfortObservations,
  observeDevice,
  observeReadings,
  raiseRepeatingEvent,
} from '../../../src/domain/notifications/alarms';
import { alarmScene, racingAlarmStore } from '../../support/alarm-scene';
import { memoryAlarmStore } from '../../support/fakes/memory-stores';

const MINUTE = 60_000;
const NINE = Date.UTC(2026, 10, 24, 9, 0);
let devices = 0;
const room = (): AlarmDevice => ({
  devId: `ieq-${++devices}`,
  orgId: 'org-a',
  devName: 'Meeting room',
  devType: 5,
  floorId: 'floor-1',
});
const reading = (device: AlarmDevice, time: number, temp: number) =>
  comfortObservations(device, time, { temp });

/**
 * A warning raised at 09:10 (out of its zone since 09:00), whose end at 09:11 is saved by an instance
 * that stops before marking it resolved.
 */
async function resolutionLeftUndelivered(deps: AlarmPorts, device: AlarmDevice) {
  for (const minute of [0, 5, 10]) {
    await observeDevice(deps, device, reading(device, NINE + minute * MINUTE, 35), NINE + minute * MINUTE);
  }
  const markCleared = deps.notifications.markCleared.bind(deps.notifications);
  deps.notifications.markCleared = async () => {
    throw new Error('instance stopped');
  };
  await expect(
    observeDevice(deps, device, reading(device, NINE + 11 * MINUTE, 22), NINE + 11 * MINUTE),
  ).rejects.toThrow('instance stopped');
  deps.notifications.markCleared = markCleared;
}

describe('comfort alarms over time', () => {
  it('resolves a warning whose state write lost to a newer reading back in its zone', async () => {
    const stored = memoryAlarmStore();
    // Another batch (the room back at 22 degrees at 09:11) is saved between this batch's raise and
    // its write, which then loses.
    const { store: racing, interleave } = racingAlarmStore(stored);
    const { deps, raised } = alarmScene(racing);
    const device = room();
    for (const minute of [0, 5]) {
      await observeDevice(deps, device, reading(device, NINE + minute * MINUTE, 35), NINE + minute * MINUTE);
    }
    interleave(() =>
      observeDevice(deps, device, reading(device, NINE + 11 * MINUTE, 22), NINE + 11 * MINUTE),
    );
    await observeDevice(deps, device, reading(device, NINE + 10 * MINUTE, 35), NINE + 10 * MINUTE);

    const [warning] = await raised();
    expect(warning?.notification.message).toContain('not in comfort zone');
    expect(warning?.notification.clearedAt).toBe(new Date(NINE + 11 * MINUTE).toISOString());
    expect((await stored.get(device.devId))?.conditions).toEqual({});
  });

  it('leaves a warning open when its in-zone reading lost its write to a newer out-of-zone one', async () => {
    const stored = memoryAlarmStore();
    // The room out of its zone at 09:12, saved between the 09:11 in-zone batch's decision and its write.
    const { store: racing, interleave } = racingAlarmStore(stored);
    const { deps, raised, metrics } = alarmScene(racing);
    const device = room();
    for (const minute of [0, 5, 10]) {
      await observeDevice(deps, device, reading(device, NINE + minute * MINUTE, 35), NINE + minute * MINUTE);
    }
    // At 09:12 the room is still too warm, and now too humid: a second condition opens (a write).
    const humid = NINE + 12 * MINUTE;
    interleave(() =>
      observeDevice(deps, device, comfortObservations(device, humid, { temp: 35, hum: 80 }), humid),
    );
    await observeDevice(deps, device, reading(device, NINE + 11 * MINUTE, 22), NINE + 11 * MINUTE);

    // The state went on from 09:12, which never saw 09:11: its warning is not shown resolved.
    const [warning] = await raised();
    expect(warning?.notification.clearedAt).toBeUndefined();
    expect((await stored.get(device.devId))?.conditions['comfort:temp']?.notificationId).toBe(
      warning?.notification.id,
    );
    expect(Object.fromEntries(metrics.counts)).toEqual({ Raised: 1 });
  });

  it('resolves a warning whose resolution was saved but not delivered at the next reading, with its own time, counted once', async () => {
    const { deps, raised, metrics } = alarmScene();
    const device = room();
    await resolutionLeftUndelivered(deps, device);
    expect((await raised())[0]?.notification.clearedAt).toBeUndefined();
    // Its batch comes again (older than what the state holds now), then a later reading in the zone.
    await observeDevice(deps, device, reading(device, NINE + 11 * MINUTE, 22), NINE + 11 * MINUTE);
    await observeDevice(deps, device, reading(device, NINE + 12 * MINUTE, 23), NINE + 12 * MINUTE);
    expect((await raised())[0]?.notification.clearedAt).toBe(new Date(NINE + 11 * MINUTE).toISOString());
    expect(Object.fromEntries(metrics.counts)).toEqual({ Raised: 1, Cleared: 1 });
  });

  it("keeps an undelivered resolution through a device event's write, for the next reading to deliver", async () => {
    const { deps, raised } = alarmScene();
    const device = room();
    await resolutionLeftUndelivered(deps, device);
    // A pairing failure of the device writes its state before the next reading comes.
    const failure = {
      kind: 'pairing',
      type: 2 as const,
      message: 'Pairing failed',
      time: NINE + 11 * MINUTE,
    };
    expect(await raiseRepeatingEvent(deps, device, failure)).toBe(true);
    await observeDevice(deps, device, reading(device, NINE + 12 * MINUTE, 23), NINE + 12 * MINUTE);
    const warning = (await raised()).find((n) => n.notification.message.includes('comfort zone'));
    expect(warning?.notification.clearedAt).toBe(new Date(NINE + 11 * MINUTE).toISOString());
  });

  it('starts an episode again after a silence longer than it takes to raise, instead of raising on one reading', async () => {
    const { deps, raised } = alarmScene();
    const device = room();
    const evening = Date.UTC(2026, 10, 24, 17, 50);
    for (const minute of [0, 5])
      await observeDevice(
        deps,
        device,
        reading(device, evening + minute * MINUTE, 30),
        evening + minute * MINUTE,
      );
    // The gateway was down from 17:55 until 08:00: the first reading of the morning raises nothing.
    const morning = Date.UTC(2026, 10, 25, 8, 0);
    await observeDevice(deps, device, reading(device, morning, 30), morning);
    expect(await raised()).toEqual([]);
    // Ten minutes out of its zone from then on (readings every minute): raised.
    for (let minute = 1; minute <= 10; minute++)
      await observeDevice(
        deps,
        device,
        reading(device, morning + minute * MINUTE, 30),
        morning + minute * MINUTE,
      );
    const [warning] = await raised();
    expect(warning?.notification.createdAt).toBe(new Date(morning + 10 * MINUTE).toISOString());
  });

  it('keeps an episode whose readings keep coming, writing its state at most every 5 minutes', async () => {
    const stored = memoryAlarmStore();
    let writes = 0;
    const counting: AlarmStore = {
      ...stored,
      saveIfUnchanged: (next, read) => (writes++, stored.saveIfUnchanged(next, read)),
    };
    const { deps, raised } = alarmScene(counting);
    const device = room();
    for (let minute = 0; minute <= 9; minute++)
      await observeDevice(deps, device, reading(device, NINE + minute * MINUTE, 35), NINE + minute * MINUTE);
    expect(await raised()).toEqual([]);
    // Opened at 09:00, kept fresh at 09:05.
    expect(writes).toBe(2);
    await observeDevice(deps, device, reading(device, NINE + 10 * MINUTE, 35), NINE + 10 * MINUTE);
    expect(await raised()).toHaveLength(1);
  });

  it("reads a batch's alarm states in one go, and one device's again only after its write lost", async () => {
    const stored = memoryAlarmStore();
    const manyReads: string[][] = [];
    const oneReads: string[] = [];
    const { store: counting, interleave } = racingAlarmStore({
      get: (devId) => (oneReads.push(devId), stored.get(devId)),
      getMany: (devIds) => (manyReads.push([...devIds]), stored.getMany(devIds)),
      saveIfUnchanged: (next, read) => stored.saveIfUnchanged(next, read),
    });
    const { deps } = alarmScene(counting);
    const rooms = [room(), room(), room()];
    const batch = (minute: number, temp: number) =>
      observeReadings(
        {
          ...deps,
          devices: {
            get: async (devId) => rooms.find((r) => r.devId === devId),
            noteAlarmOpened: async () => undefined,
          },
          occupancy: { inUse: async () => true },
        },
        rooms.map((r) => ({ devId: r.devId, time: NINE + minute * MINUTE, values: { temp } })),
        NINE + minute * MINUTE,
      );
    await batch(0, 35);
    expect(manyReads).toEqual([rooms.map((r) => r.devId)]);
    expect(oneReads).toEqual([]);
    expect([...(await stored.getMany(rooms.map((r) => r.devId))).keys()]).toHaveLength(3);

    // Another instance saves the first room's state between this batch's read and its write: that
    // write loses, the room's state is read again on its own and its episode is kept.
    const [first] = rooms as [AlarmDevice];
    interleave(() => observeDevice(deps, first, reading(first, NINE + 6 * MINUTE, 35), NINE + 6 * MINUTE));
    await batch(6, 35);
    expect(manyReads).toHaveLength(2);
    expect(oneReads.filter((id) => id === first.devId).length).toBeGreaterThan(0);
    expect(oneReads.every((id) => id === first.devId)).toBe(true);
    expect((await stored.get(first.devId))?.conditions['comfort:temp']?.since).toBe(NINE);
  });
});

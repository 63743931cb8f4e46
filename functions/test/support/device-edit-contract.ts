import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type Device, versionOf } from '../../src/domain/devices/device';
import type { DeviceChange, DeviceStore } from '../../src/domain/devices/ports';

/**
 * What a device edit (a commit: rename, settings, data points, group, placement) must leave of the
 * device item's attributes that other writers keep with writes of their own: the alarm episodes counted
 * (`alarmsOpened`, atomic ADD by ingest), the newest reading (`latest`, `lastSeen`) and a power node's
 * reported port values with their times (`properties.portOneValue|portTwoValue`, `portReportedAt`). An
 * edit reads the device, decides, and writes over the version it read; those writes can land in
 * between, and the edit must not put back what it read. Run against the DynamoDB adapter (DynamoDB
 * Local, platform project: functions/test/store-contracts.test.ts) and the in-memory fake (unit
 * project: functions/test/unit/fakes.test.ts).
 */
export type DeviceEditStore = Pick<DeviceStore, 'get' | 'register' | 'commit' | 'recordPortReport'> & {
  noteAlarmOpened(devId: string): Promise<void>;
  recordLatest(devId: string, time: number, values: Record<string, number>): Promise<Device | undefined>;
};

const id = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

export function deviceEditContract(name: string, store: () => DeviceEditStore) {
  describe(`DeviceStore edits beside atomic writes contract: ${name}`, () => {
    const registered = async (device: Partial<Device> = {}): Promise<Device> => {
      const made: Device = {
        devID: id('edited'),
        orgID: id('org'),
        devName: 'Power node',
        devType: 1,
        onFloor: false,
        dataPoints: [{ dp: 'temp' }],
        properties: { volt: 3.3 },
        updatedAt: '2026-11-24T09:00:00.000Z',
        ...device,
      };
      expect(await store().register(made)).toEqual({ outcome: 'written' });
      return made;
    };
    const read = async (devId: string): Promise<Device> => {
      const device = await store().get(devId);
      if (!device) throw new Error(`device ${devId} is not registered`);
      return device;
    };
    /** One device's change over the version `read` holds, as the device use cases commit it. */
    const edit = (read: Device, change: Omit<DeviceChange, 'devId' | 'orgId' | 'expectedVersion'>) =>
      store().commit({
        devices: [{ devId: read.devID, orgId: read.orgID, expectedVersion: versionOf(read), ...change }],
        floors: [],
        groups: [],
        live: [],
        now: '2026-11-24T10:00:00.000Z',
      });

    it('keeps the alarm episodes counted and the reading stored after the edit read the device', async () => {
      const device = await registered({ version: 0 });
      await store().noteAlarmOpened(device.devID);
      const before = await read(device.devID);
      // Between the edit's read and its write: ingest counts episodes and stores a reading.
      await store().noteAlarmOpened(device.devID);
      await store().noteAlarmOpened(device.devID);
      await store().recordLatest(device.devID, 5_000, { temp: 21.5 });
      expect(
        await edit(before, {
          set: {
            devName: 'Renamed',
            properties: { ...before.properties, label: 'East' },
            dataPoints: [{ dp: 'temp', dn: 'Temperature' }],
            groupNumber: 7,
          },
          placement: { floorId: id('floor'), buildId: id('bld'), floorOrigin: { x: 0.5, y: 0.5 } },
        }),
      ).toEqual({ outcome: 'written' });
      expect(await read(device.devID)).toMatchObject({
        devName: 'Renamed',
        properties: { volt: 3.3, label: 'East' },
        groupNumber: 7,
        onFloor: true,
        alarmsOpened: 3,
        latest: { temp: 21.5 },
        lastSeen: 5_000,
        version: 1,
      });

      // Taken off its floor and out of its group, the same.
      const placed = await read(device.devID);
      await store().noteAlarmOpened(device.devID);
      await store().recordLatest(device.devID, 6_000, { temp: 22 });
      expect(await edit(placed, { placement: 'off', removeGroup: true })).toEqual({ outcome: 'written' });
      const off = await read(device.devID);
      expect(off).toMatchObject({ onFloor: false, alarmsOpened: 4, latest: { temp: 22 }, lastSeen: 6_000 });
      expect(off.groupNumber).toBeUndefined();
      expect(off.floorID).toBeUndefined();
    });

    it("refuses an edit of the properties read before a port report, so the report's value stays", async () => {
      // An item from before versions were kept: the report gives it one.
      const node = await registered();
      const before = await read(node.devID);
      expect(
        await store().recordPortReport({
          devId: node.devID,
          orgId: node.orgID,
          at: 2_000,
          ports: { portOneValue: 1 },
          now: '2026-11-24T09:30:00.000Z',
        }),
      ).toEqual({ portOneValue: 1 });
      await store().noteAlarmOpened(node.devID);
      // The edit's write, from its read: would put the properties back without port one's value.
      expect(await edit(before, { set: { properties: { ...before.properties, label: 'East' } } })).toEqual({
        outcome: 'refused',
        reason: 'device-changed',
      });
      expect(await read(node.devID)).toMatchObject({
        properties: { volt: 3.3, portOneValue: 1 },
        portReportedAt: { portOneValue: 2_000 },
        alarmsOpened: 1,
      });
      expect((await read(node.devID)).properties).not.toHaveProperty('label');

      // Read again (as the use cases retry), the edit keeps both.
      const again = await read(node.devID);
      expect(await edit(again, { set: { properties: { ...again.properties, label: 'East' } } })).toEqual({
        outcome: 'written',
      });
      expect(await read(node.devID)).toMatchObject({
        properties: { volt: 3.3, portOneValue: 1, label: 'East' },
        portReportedAt: { portOneValue: 2_000 },
        alarmsOpened: 1,
      });
      // And an older report, late, still loses to the one stored.
      expect(
        await store().recordPortReport({
          devId: node.devID,
          orgId: node.orgID,
          at: 1_000,
          ports: { portOneValue: 0 },
          now: '2026-11-24T09:40:00.000Z',
        }),
      ).toEqual({});
    });

    it("refuses an edit over a version that moved, and another organization's edit", async () => {
      const device = await registered({ version: 3 });
      const before = await read(device.devID);
      expect(await edit({ ...before, version: 2 }, { set: { devName: 'Stale' } })).toEqual({
        outcome: 'refused',
        reason: 'device-changed',
      });
      expect(await edit({ ...before, orgID: id('org') }, { set: { devName: 'Elsewhere' } })).toEqual({
        outcome: 'refused',
        reason: 'device-changed',
      });
      expect(await read(device.devID)).toMatchObject({ devName: 'Power node', version: 3 });
    });
  });
}

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Device, PortValues } from '../../src/domain/devices/device';
import type { DeviceStore } from '../../src/domain/devices/ports';

/**
 * What the device store must do with a power node's port reports (recordPortReport), run against the
 * DynamoDB adapter (DynamoDB Local, platform project: functions/test/store-contracts.test.ts) and the
 * in-memory fake (unit project: functions/test/unit/fakes.test.ts).
 */
export type PortReportStore = Pick<DeviceStore, 'get' | 'register' | 'recordPortReport'>;

const id = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

export function portReportContract(name: string, store: () => PortReportStore) {
  describe(`DeviceStore port reports contract: ${name}`, () => {
    /** A registered power node; its properties as an item from before report times were kept. */
    const powerNode = async (properties: Record<string, unknown> = { volt: 3.3 }): Promise<Device> => {
      const device: Device = {
        devID: id('node'),
        orgID: id('org'),
        devName: 'Power node',
        devType: 1,
        connDev: 'powernode',
        onFloor: false,
        dataPoints: [],
        properties,
        updatedAt: '2026-11-24T09:00:00.000Z',
      };
      expect(await store().register(device)).toEqual({ outcome: 'written' });
      return device;
    };
    const report = (device: Device, at: number, ports: PortValues) =>
      store().recordPortReport({
        devId: device.devID,
        orgId: device.orgID,
        at,
        ports,
        now: new Date(at).toISOString(),
      });
    const stored = async (device: Device) => {
      const read = await store().get(device.devID);
      return { properties: read?.properties, portReportedAt: read?.portReportedAt };
    };

    it("keeps a port's value from the newest report: an older one, retried or late, changes nothing", async () => {
      const node = await powerNode();
      expect(await report(node, 2000, { portOneValue: 1 })).toEqual({ portOneValue: 1 });
      expect(await report(node, 1000, { portOneValue: 0 })).toEqual({});
      expect(await stored(node)).toEqual({
        properties: { volt: 3.3, portOneValue: 1 },
        portReportedAt: { portOneValue: 2000 },
      });
      expect(await report(node, 3000, { portOneValue: 0 })).toEqual({ portOneValue: 0 });
      expect(await report(node, 2000, { portOneValue: 1 })).toEqual({});
      expect(await stored(node)).toEqual({
        properties: { volt: 3.3, portOneValue: 0 },
        portReportedAt: { portOneValue: 3000 },
      });
    });

    it('decides per port: a report of both changes only the ports it is newer for', async () => {
      const node = await powerNode();
      await report(node, 3000, { portOneValue: 1 });
      await report(node, 1000, { portTwoValue: 1 });
      expect(await report(node, 2000, { portOneValue: 0, portTwoValue: 0 })).toEqual({ portTwoValue: 0 });
      expect(await stored(node)).toEqual({
        properties: { volt: 3.3, portOneValue: 1, portTwoValue: 0 },
        portReportedAt: { portOneValue: 3000, portTwoValue: 2000 },
      });
    });

    it('stores the same report again to the same result (a redelivery)', async () => {
      const node = await powerNode();
      expect(await report(node, 2000, { portOneValue: 1, portTwoValue: 1 })).toEqual({
        portOneValue: 1,
        portTwoValue: 1,
      });
      const first = await stored(node);
      expect(await report(node, 2000, { portOneValue: 1, portTwoValue: 1 })).toEqual({
        portOneValue: 1,
        portTwoValue: 1,
      });
      expect(await stored(node)).toEqual(first);
      expect(first).toEqual({
        properties: { volt: 3.3, portOneValue: 1, portTwoValue: 1 },
        portReportedAt: { portOneValue: 2000, portTwoValue: 2000 },
      });
    });

    it('ends with the newest report whatever order concurrent reports are stored in', async () => {
      const node = await powerNode();
      const times = [1005, 1001, 1009, 1003, 1000, 1008, 1002, 1007, 1004, 1006];
      await Promise.all(
        times.map((at) => report(node, at, { portOneValue: at % 2 === 0 ? 0 : 1, portTwoValue: 1 })),
      );
      expect(await stored(node)).toEqual({
        properties: { volt: 3.3, portOneValue: 1, portTwoValue: 1 },
        portReportedAt: { portOneValue: 1009, portTwoValue: 1009 },
      });
    });

    it('lets any report replace a value stored without its time, and raises the version', async () => {
      const node = await powerNode({ portOneValue: 1, portTwoValue: 1 });
      expect(await report(node, 500, { portTwoValue: 0 })).toEqual({ portTwoValue: 0 });
      expect(await report(node, 400, { portOneValue: 0 })).toEqual({ portOneValue: 0 });
      expect(await report(node, 300, { portTwoValue: 1 })).toEqual({});
      expect(await stored(node)).toEqual({
        properties: { portOneValue: 0, portTwoValue: 0 },
        portReportedAt: { portOneValue: 400, portTwoValue: 500 },
      });
      expect((await store().get(node.devID))?.version).toBe(2);
    });

    it("changes no device of another organization, and makes none of an unknown one's report", async () => {
      const node = await powerNode();
      expect(
        await store().recordPortReport({
          devId: node.devID,
          orgId: id('org'),
          at: 1000,
          ports: { portOneValue: 1 },
          now: '2026-11-24T09:00:00.000Z',
        }),
      ).toBeUndefined();
      expect(await stored(node)).toEqual({ properties: { volt: 3.3 }, portReportedAt: undefined });
      const unknown = id('node');
      expect(
        await store().recordPortReport({
          devId: unknown,
          orgId: node.orgID,
          at: 1000,
          ports: { portOneValue: 1 },
          now: '2026-11-24T09:00:00.000Z',
        }),
      ).toBeUndefined();
      expect(await store().get(unknown)).toBeUndefined();
    });
  });
}

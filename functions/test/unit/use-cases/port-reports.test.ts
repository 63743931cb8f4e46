import { DEFAULT_ALARM_SETTINGS } from '@argentum/contracts';
import type { LiveFloorMessage } from '@argentum/contracts/messaging';
import { describe, expect, it } from 'vitest';
import { type DeviceWordPorts, receiveDeviceWord } from '../../../src/domain/control/device-word';
import type { Device } from '../../../src/domain/devices/device';
import type { CommitOutcome, DeviceCommit } from '../../../src/domain/devices/ports';
import {
  memoryAlarmStore,
  memoryCommandStore,
  memoryDevices,
  memoryNotificationStore,
  memoryPresenceStore,
  recordingLogger,
  recordingMetrics,
  testClock,
} from '../../support/fakes/memory-stores';

const node: Device = {
  devID: 'PN:01',
  orgID: 'org-a',
  devName: 'Lights',
  devType: 1,
  connDev: 'light',
  onFloor: true,
  floorID: 'floor-1',
  buildID: 'b-1',
  dataPoints: [],
  properties: { volt: 3.3 },
  updatedAt: '2026-11-01T00:00:00.000Z',
};

/** A power node's words on `controldata/success` (no command id) on in-memory fakes. */
function scene() {
  const clock = testClock();
  const registered = memoryDevices([node]);
  const pushed: LiveFloorMessage['updates'] = [];
  const logger = recordingLogger();
  /** A commit's device changes over the version read (the pairing-mode path of a device's word). */
  const commit = async (write: DeviceCommit): Promise<CommitOutcome> => {
    for (const change of write.devices) {
      const device = registered.byId.get(change.devId);
      if (!device || device.orgID !== change.orgId || (device.version ?? 0) !== change.expectedVersion)
        return { outcome: 'refused', reason: 'device-changed' };
    }
    for (const change of write.devices) {
      const device = registered.byId.get(change.devId);
      if (device)
        registered.byId.set(change.devId, {
          ...device,
          ...change.set,
          version: change.expectedVersion + 1,
          updatedAt: write.now,
        });
    }
    return { outcome: 'written' };
  };
  const ports: DeviceWordPorts = {
    commands: memoryCommandStore(),
    publisher: { publish: async () => undefined },
    clock,
    logger,
    metrics: recordingMetrics(),
    reports: { devices: { ...registered, commit }, clock },
    alarms: {
      notifications: memoryNotificationStore(),
      publisher: { publish: async () => undefined },
      users: { memberIds: async () => [], getMany: async () => [] },
      alarms: memoryAlarmStore(),
      alarmMail: { send: async () => undefined },
      logger,
      metrics: recordingMetrics(),
    },
    presence: {
      presence: memoryPresenceStore(registered.byId),
      alarmSettings: async () => DEFAULT_ALARM_SETTINGS,
      push: async () => undefined,
      episodes: { raiseOffline: async () => 'n', close: async () => undefined },
      logger,
    },
    live: { publish: async (_orgId, _floorId, message) => void pushed.push(...message.updates) },
    readings: { send: async () => undefined },
  };
  const start = clock.now().getTime();
  /** The node's report on `cmnd` (201 port one, 203 both) as the broker received it `ms` after start. */
  const report = (cmnd: 201 | 202 | 203, val: 0 | 1, ms: number) =>
    receiveDeviceWord(ports, {
      orgId: node.orgID,
      outcome: 'success',
      clientId: node.devID,
      receivedAt: start + ms,
      action: 'success',
      devID: node.devID,
      cmnd,
      val,
    });
  const stored = () => {
    const device = registered.byId.get(node.devID);
    return { properties: device?.properties, portReportedAt: device?.portReportedAt };
  };
  /** The port values pushed to the floor, in order. */
  const pushedPorts = () => pushed.filter((u) => u.portReport).map((u) => u.ports);
  return { clock, start, report, stored, pushedPorts, registered };
}

describe("a power node's port reports (use case on fakes)", () => {
  it('a newer report then an older one (retried or late): the port keeps the newer value, and the older is not pushed', async () => {
    const { start, report, stored, pushedPorts } = scene();
    await report(201, 1, 2000);
    await report(201, 0, 1000);
    expect(stored()).toEqual({
      properties: { volt: 3.3, portOneValue: 1 },
      portReportedAt: { portOneValue: start + 2000 },
    });
    expect(pushedPorts()).toEqual([{ portOneValue: 1 }]);
  });

  it('an older report then a newer one: the newer value, which the older one retried again does not undo', async () => {
    const { start, report, stored, pushedPorts } = scene();
    await report(201, 0, 1000);
    await report(201, 1, 2000);
    expect(stored()).toEqual({
      properties: { volt: 3.3, portOneValue: 1 },
      portReportedAt: { portOneValue: start + 2000 },
    });
    await report(201, 0, 1000);
    expect(stored().properties).toEqual({ volt: 3.3, portOneValue: 1 });
    expect(pushedPorts()).toEqual([{ portOneValue: 0 }, { portOneValue: 1 }]);
  });

  it('the same report twice (a redelivery): the same stored state, and the same values pushed', async () => {
    const { start, report, stored, pushedPorts, registered } = scene();
    await report(203, 1, 1000);
    const first = registered.byId.get(node.devID);
    await report(203, 1, 1000);
    expect(registered.byId.get(node.devID)).toEqual(first);
    expect(stored()).toEqual({
      properties: { volt: 3.3, portOneValue: 1, portTwoValue: 1 },
      portReportedAt: { portOneValue: start + 1000, portTwoValue: start + 1000 },
    });
    expect(pushedPorts()).toEqual([
      { portOneValue: 1, portTwoValue: 1 },
      { portOneValue: 1, portTwoValue: 1 },
    ]);
  });

  it("a report of both ports older than one port's value: only the other port changes, and only it is pushed", async () => {
    const { start, report, stored, pushedPorts } = scene();
    await report(201, 1, 3000);
    await report(203, 0, 2000);
    expect(stored()).toEqual({
      properties: { volt: 3.3, portOneValue: 1, portTwoValue: 0 },
      portReportedAt: { portOneValue: start + 3000, portTwoValue: start + 2000 },
    });
    expect(pushedPorts()).toEqual([{ portOneValue: 1 }, { portTwoValue: 0 }]);
  });
});

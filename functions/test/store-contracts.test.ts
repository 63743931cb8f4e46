import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { platformTable } from '../../infra/src/definitions';
import { ENV } from '../src/environment';
import { dynamo } from '../src/aws/dynamo';
import { config } from '../src/config';
import { dynamoAlarmStore } from '../src/stores/alarms';
import { dynamoCommandStore } from '../src/stores/commands';
import { deviceItem, dynamoDevices } from '../src/stores/devices';
import { keys } from '../src/stores/keys';
import { dynamoNotificationStore } from '../src/stores/notifications';
import { dynamoPresenceStore } from '../src/stores/presence';
import { dynamoTreeStore } from '../src/stores/tree';
import { dynamoUserStore } from '../src/stores/users';
import { commandStoreContract } from './support/command-store-contract';
import { deviceEditContract } from './support/device-edit-contract';
import { portReportContract } from './support/port-report-contract';
import {
  alarmStoreContract,
  deviceListingContract,
  notificationStoreContract,
  presenceStoreContract,
  treeStoreContract,
  userStoreContract,
} from './support/store-contracts';
import { onUnwatchedTable } from './support/unwatched-table';

// The DynamoDB adapters on DynamoDB Local; the in-memory fakes run the same contracts (unit/fakes.test.ts).
commandStoreContract('DynamoDB', () => dynamoCommandStore);
alarmStoreContract('DynamoDB', () => dynamoAlarmStore);
notificationStoreContract('DynamoDB', () => dynamoNotificationStore);
presenceStoreContract(
  'DynamoDB',
  () => dynamoPresenceStore,
  async (device) => {
    await dynamo().send(new PutCommand({ TableName: config.platformTable, Item: deviceItem(device) }));
  },
);
deviceListingContract('DynamoDB', () => dynamoDevices, {
  // As the device calls place a device (one transaction over the version read), retried when a
  // concurrent transaction got in the way.
  async move(device, floorId) {
    for (;;) {
      const read = await dynamoDevices.get(device.devID);
      const written = await dynamoDevices.commit({
        devices: [
          {
            devId: device.devID,
            orgId: device.orgID,
            expectedVersion: read?.version ?? 0,
            placement:
              floorId === undefined
                ? 'off'
                : { floorId, buildId: 'bld-listed', floorOrigin: { x: 0.25, y: 0.25 } },
          },
        ],
        floors: [],
        groups: [],
        live: [],
        now: new Date().toISOString(),
      });
      if (written.outcome === 'written') return;
    }
  },
  async remove(devId) {
    await dynamo().send(new DeleteCommand({ TableName: config.platformTable, Key: keys.device(devId) }));
  },
});
portReportContract('DynamoDB', () => dynamoDevices);
deviceEditContract('DynamoDB', () => dynamoDevices);
describe("DeviceStore: a floor's delete taking its devices off it", () => {
  it('keeps what other writers keep on the item: alarm episodes, readings, port values and their times', async () => {
    const [devID, orgID, floorId] = [
      `node-${randomUUID().slice(0, 8)}`,
      'org-moved',
      `floor-${randomUUID()}`,
    ];
    await dynamo().send(
      new PutCommand({
        TableName: config.platformTable,
        Item: deviceItem({
          devID,
          orgID,
          devName: 'Moved node',
          devType: 1,
          onFloor: true,
          floorID: floorId,
          buildID: 'bld-moved',
          floorOrigin: { x: 0.5, y: 0.5 },
          dataPoints: [],
          properties: { volt: 3.3 },
          updatedAt: '2026-11-24T09:00:00.000Z',
          version: 4,
        }),
      }),
    );
    await dynamoDevices.noteAlarmOpened(devID);
    await dynamoDevices.recordLatest(devID, 5_000, { temp: 21 });
    await dynamoDevices.recordPortReport({
      devId: devID,
      orgId: orgID,
      at: 2_000,
      ports: { portTwoValue: 1 },
      now: '2026-11-24T09:30:00.000Z',
    });
    expect(await dynamoDevices.moveDevicesOffFloor(floorId, '2026-11-24T10:00:00.000Z')).toBe(1);
    const moved = await dynamoDevices.get(devID);
    expect(moved).toMatchObject({
      onFloor: false,
      alarmsOpened: 1,
      latest: { temp: 21 },
      lastSeen: 5_000,
      properties: { volt: 3.3, portTwoValue: 1 },
      portReportedAt: { portTwoValue: 2_000 },
      version: 6,
    });
    expect(moved?.floorID).toBeUndefined();
  });
});
describe('DeviceStore latest values on an item written before their times were kept', () => {
  it("counts its values as old as the device's time, and gives it their times at its next reading", async () => {
    const devID = `dev-${randomUUID().slice(0, 8)}`;
    await dynamo().send(
      new PutCommand({
        TableName: config.platformTable,
        Item: {
          ...deviceItem({
            devID,
            orgID: 'org-old',
            devName: 'Old unit',
            devType: 2,
            onFloor: false,
            dataPoints: [],
            properties: {},
            updatedAt: '2026-11-24T09:00:00.000Z',
          }),
          latest: { fan: 2, valve: 1 },
          lastSeen: 2_000,
        },
      }),
    );
    // Older than the device's time on each point it holds: nothing; a point it never had: taken.
    expect(await dynamoDevices.recordLatest(devID, 1_500, { fan: 5 })).toBeUndefined();
    expect(await dynamoDevices.recordLatest(devID, 1_500, { fan: 5, zone: 21 })).toMatchObject({
      latest: { fan: 2, valve: 1, zone: 21 },
      latestAt: { fan: 2_000, valve: 2_000, zone: 1_500 },
      lastSeen: 2_000,
    });
    expect(await dynamoDevices.recordLatest(devID, 3_000, { valve: 4 })).toMatchObject({
      latest: { fan: 2, valve: 4, zone: 21 },
      latestAt: { fan: 2_000, valve: 3_000, zone: 1_500 },
      lastSeen: 3_000,
    });
  });

  it('gives a first reading both maps, and keeps every point of readings that race to make them', async () => {
    const devID = `dev-${randomUUID().slice(0, 8)}`;
    await dynamoDevices.register({
      devID,
      orgID: 'org-new',
      devName: 'New unit',
      devType: 2,
      onFloor: false,
      dataPoints: [],
      properties: {},
      updatedAt: '2026-11-24T09:00:00.000Z',
    });
    await Promise.all([
      dynamoDevices.recordLatest(devID, 1_000, { fan: 1 }),
      dynamoDevices.recordLatest(devID, 1_001, { valve: 2 }),
      dynamoDevices.recordLatest(devID, 999, { zone: 3 }),
    ]);
    expect(await dynamoDevices.get(devID)).toMatchObject({
      latest: { fan: 1, valve: 2, zone: 3 },
      latestAt: { fan: 1_000, valve: 1_001, zone: 999 },
      lastSeen: 1_001,
    });
  });
});
describe('DeviceStore port reports on an item written by an older client', () => {
  it('gives an item without properties or report times both, and keeps ordering from then on', async () => {
    const devID = `node-${randomUUID().slice(0, 8)}`;
    await dynamo().send(
      new PutCommand({
        TableName: config.platformTable,
        Item: { ...keys.device(devID), entity: 'device', devID, orgID: 'org-old', name: 'Old node', type: 1 },
      }),
    );
    const report = (at: number, portTwoValue: 0 | 1) =>
      dynamoDevices.recordPortReport({
        devId: devID,
        orgId: 'org-old',
        at,
        ports: { portTwoValue },
        now: '2026-11-24T09:00:00.000Z',
      });
    expect(await report(1000, 1)).toEqual({ portTwoValue: 1 });
    expect(await report(900, 0)).toEqual({});
    expect(await dynamoDevices.get(devID)).toMatchObject({
      devName: 'Old node',
      properties: { portTwoValue: 1 },
      portReportedAt: { portTwoValue: 1000 },
    });
  });
});
userStoreContract('DynamoDB', () => dynamoUserStore);
// On a table of its own, as the platform table's is defined but with no stream: on the platform table
// the stack's sweeper (fed by the stream) removes what lies under a deleted node moments after, and
// raced the contract's reads of a tombstone and of what it keeps listed.
describe('on a table no sweeper watches', () => {
  onUnwatchedTable(platformTable, ENV.platformTable);
  treeStoreContract(
    'DynamoDB',
    () => dynamoTreeStore,
    () => dynamoUserStore,
  );
});

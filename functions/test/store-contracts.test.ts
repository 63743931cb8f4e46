import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
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
import {
  alarmStoreContract,
  deviceListingContract,
  notificationStoreContract,
  presenceStoreContract,
  treeStoreContract,
  userStoreContract,
} from './support/store-contracts';

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
userStoreContract('DynamoDB', () => dynamoUserStore);
treeStoreContract(
  'DynamoDB',
  () => dynamoTreeStore,
  () => dynamoUserStore,
);

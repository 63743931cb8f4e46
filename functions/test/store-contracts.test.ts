import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../src/aws/dynamo';
import { config } from '../src/config';
import { dynamoAlarmStore } from '../src/stores/alarms';
import { dynamoCommandStore } from '../src/stores/commands';
import { deviceItem } from '../src/stores/devices';
import { dynamoNotificationStore } from '../src/stores/notifications';
import { dynamoPresenceStore } from '../src/stores/presence';
import { dynamoTreeStore } from '../src/stores/tree';
import { dynamoUserStore } from '../src/stores/users';
import { commandStoreContract } from './support/command-store-contract';
import {
  alarmStoreContract,
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
userStoreContract('DynamoDB', () => dynamoUserStore);
treeStoreContract(
  'DynamoDB',
  () => dynamoTreeStore,
  () => dynamoUserStore,
);

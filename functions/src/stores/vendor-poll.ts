import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { PolledDeviceList } from '../domain/integrations/polling';
import { queryAll } from './dynamo-kit';
import { keys, VENDOR_POLL_PARTITION } from './keys';

/** A device's entry in the poller's list. */
export const vendorPollItem = (devId: string, listedAt: string) => ({
  ...keys.vendorPoll(devId),
  entity: 'vendor-poll',
  listedAt,
});

/** The DynamoDB adapter of the vendor poller's list: one item a listed device, in one partition. */
export const dynamoPolledDevices: PolledDeviceList = {
  async list() {
    const items = await queryAll({
      TableName: config.platformTable,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': VENDOR_POLL_PARTITION },
      ConsistentRead: true,
    });
    return items.map((item) => ({ devId: String(item.sk), listedAt: String(item.listedAt) }));
  },
  async add(devId, listedAt) {
    await dynamo().send(
      new PutCommand({
        TableName: config.platformTable,
        Item: vendorPollItem(devId, listedAt),
      }),
    );
  },
  async remove(entry) {
    try {
      await dynamo().send(
        new DeleteCommand({
          TableName: config.platformTable,
          Key: keys.vendorPoll(entry.devId),
          ConditionExpression: 'listedAt = :listedAt',
          ExpressionAttributeValues: { ':listedAt': entry.listedAt },
        }),
      );
    } catch (error) {
      // Listed again meanwhile (a new link): it stays.
      if (!(error instanceof Error && error.name === 'ConditionalCheckFailedException')) throw error;
    }
  },
};

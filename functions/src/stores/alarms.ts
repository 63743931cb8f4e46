import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { AlarmMailLedger } from '../domain/notifications/alarm-mail';
import type { AlarmStore, DeviceAlarms } from '../domain/notifications/alarms';
import { keys } from './keys';

/** The DynamoDB adapter of alarm state: one item per device, written conditioned on its version. */
export const dynamoAlarmStore: AlarmStore = {
  async get(devId) {
    const { Item } = await dynamo().send(
      new GetCommand({ TableName: config.platformTable, Key: keys.alarms(devId), ConsistentRead: true }),
    );
    if (!Item) return undefined;
    return {
      devId,
      conditions: (Item.conditions ?? {}) as DeviceAlarms['conditions'],
      observedAt: Number(Item.observedAt ?? 0),
      version: Number(Item.version ?? 0),
    };
  },

  async saveIfUnchanged(next, read) {
    try {
      await dynamo().send(
        new PutCommand({
          TableName: config.platformTable,
          Item: { ...keys.alarms(next.devId), entity: 'alarms', ...next },
          ...(read
            ? { ConditionExpression: 'version = :read', ExpressionAttributeValues: { ':read': read.version } }
            : { ConditionExpression: 'attribute_not_exists(pk)' }),
        }),
      );
      return 'saved';
    } catch (error) {
      if (error instanceof Error && error.name === 'ConditionalCheckFailedException')
        return 'changed-meanwhile';
      throw error;
    }
  },
};

/** The DynamoDB adapter of the alarm-mail ledger: one item per mailed notification (TTL 30 days). */
export const dynamoAlarmMailLedger: AlarmMailLedger = {
  async claim(notificationId) {
    try {
      await dynamo().send(
        new PutCommand({
          TableName: config.platformTable,
          Item: {
            ...keys.alarmMail(notificationId),
            entity: 'alarm-mail',
            expiresAt: Math.floor(Date.now() / 1000) + 30 * 24 * 3600,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  },
  async release(notificationId) {
    await dynamo().send(
      new DeleteCommand({ TableName: config.platformTable, Key: keys.alarmMail(notificationId) }),
    );
  },
};

import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { AlarmMailLedger, AlarmMailRate } from '../domain/notifications/alarm-mail';
import type { AlarmStore, DeviceAlarms } from '../domain/notifications/alarms';
import { queryAll } from './dynamo-kit';
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

const DAY_SECONDS = 24 * 3600;

/**
 * The DynamoDB adapter of per-recipient alarm mail: a counter per recipient and window (atomic ADD,
 * TTL a day), and the digests waiting for their window's end in one partition sorted by due time.
 */
export const dynamoAlarmMailRate: AlarmMailRate = {
  async count(recipientKey, windowStart) {
    const { Attributes } = await dynamo().send(
      new UpdateCommand({
        TableName: config.platformTable,
        Key: keys.alarmMailRate(recipientKey, windowStart),
        UpdateExpression: 'ADD mails :one SET entity = :entity, expiresAt = :expires',
        ExpressionAttributeValues: {
          ':one': 1,
          ':entity': 'alarm-mail-rate',
          ':expires': Math.floor(windowStart / 1000) + DAY_SECONDS,
        },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(Attributes?.mails ?? 1);
  },

  async addToDigest(digestKey, recipient, notificationId, dueAt) {
    await dynamo().send(
      new UpdateCommand({
        TableName: config.platformTable,
        Key: keys.alarmDigest(digestKey),
        UpdateExpression:
          'SET entity = :entity, recipient = :recipient, dueAt = :dueAt, expiresAt = :expires, ' +
          'notificationIds = list_append(if_not_exists(notificationIds, :empty), :id)',
        ExpressionAttributeValues: {
          ':entity': 'alarm-digest',
          ':recipient': recipient,
          ':dueAt': dueAt,
          ':expires': Math.floor(dueAt / 1000) + 7 * DAY_SECONDS,
          ':empty': [],
          ':id': [notificationId],
        },
      }),
    );
  },

  async due(now) {
    const items = await queryAll({
      TableName: config.platformTable,
      KeyConditionExpression: 'pk = :pk AND sk <= :now',
      ExpressionAttributeValues: {
        ':pk': keys.alarmDigestPartition,
        ':now': `${String(now).padStart(13, '0')}#~`,
      },
      ProjectionExpression: 'sk',
      ConsistentRead: true,
    });
    const found = items.map((item) => String(item.sk));
    return found;
  },

  async take(digestKey) {
    const { Attributes } = await dynamo().send(
      new DeleteCommand({
        TableName: config.platformTable,
        Key: keys.alarmDigest(digestKey),
        ReturnValues: 'ALL_OLD',
      }),
    );
    if (!Attributes) return undefined;
    return {
      recipient: String(Attributes.recipient),
      notificationIds: Array.isArray(Attributes.notificationIds)
        ? Attributes.notificationIds.map(String)
        : [],
    };
  },

  async restore(digestKey, digest, dueAt) {
    for (const id of digest.notificationIds)
      await dynamoAlarmMailRate.addToDigest(digestKey, digest.recipient, id, dueAt);
  },
};

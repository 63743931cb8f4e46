import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { AlarmMailLedger, AlarmMailRate } from '../domain/notifications/alarm-mail';
import type { AlarmStore, DeviceAlarms } from '../domain/notifications/alarms';
import { batchGet, queryAll } from './dynamo-kit';
import { keys } from './keys';

const alarmsOf = (devId: string, item: Record<string, unknown>): DeviceAlarms => ({
  devId,
  conditions: (item.conditions ?? {}) as DeviceAlarms['conditions'],
  observedAt: Number(item.observedAt ?? 0),
  ...(item.events ? { events: item.events as NonNullable<DeviceAlarms['events']> } : {}),
  ...(item.clearing ? { clearing: item.clearing as NonNullable<DeviceAlarms['clearing']> } : {}),
  version: Number(item.version ?? 0),
});

/** The DynamoDB adapter of alarm state: one item per device, written conditioned on its version. */
export const dynamoAlarmStore: AlarmStore = {
  async get(devId) {
    const { Item } = await dynamo().send(
      new GetCommand({ TableName: config.platformTable, Key: keys.alarms(devId), ConsistentRead: true }),
    );
    return Item && alarmsOf(devId, Item);
  },

  async getMany(devIds) {
    const unique = [...new Set(devIds)];
    const items = await batchGet(
      config.platformTable,
      unique.map((devId) => keys.alarms(devId)),
      { consistent: true },
    );
    // Every state is written with its device's id (saveIfUnchanged).
    return new Map(items.map((item) => [String(item.devId), alarmsOf(String(item.devId), item)]));
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

/**
 * The DynamoDB adapter of the alarm-mail ledger: one item per mailed notification and recipient
 * (`ALARMMAIL#{id}`, `SENT#{recipientKey}`; TTL 30 days). Claims of one notification made before it
 * was per recipient (sk `SENT`) are not consulted: a job redelivered across that deploy may mail again.
 */
export const dynamoAlarmMailLedger: AlarmMailLedger = {
  async claim(notificationId, recipientKey) {
    try {
      await dynamo().send(
        new PutCommand({
          TableName: config.platformTable,
          Item: {
            ...keys.alarmMail(notificationId, recipientKey),
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
  async release(notificationId, recipientKey) {
    await dynamo().send(
      new DeleteCommand({
        TableName: config.platformTable,
        Key: keys.alarmMail(notificationId, recipientKey),
      }),
    );
  },
};

const DAY_SECONDS = 24 * 3600;

/**
 * The DynamoDB adapter of per-recipient alarm mail: a counter per recipient and window (atomic ADD,
 * TTL a day), and the digests waiting for their window's end in one partition sorted by due time.
 */
export const dynamoAlarmMailRate: AlarmMailRate = {
  async count(recipientKey, windowStart, notificationId) {
    // The counter, and the place it gave each notification (an attribute per notification, written
    // with it): counting a notification again (a retried job) answers its place, not a new one.
    const names = { '#place': `N#${notificationId}` };
    try {
      const { Attributes } = await dynamo().send(
        new UpdateCommand({
          TableName: config.platformTable,
          Key: keys.alarmMailRate(recipientKey, windowStart),
          UpdateExpression:
            'SET mails = if_not_exists(mails, :zero) + :one, #place = if_not_exists(mails, :zero) + :one, ' +
            'entity = :entity, expiresAt = :expires',
          ConditionExpression: 'attribute_not_exists(#place)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: {
            ':zero': 0,
            ':one': 1,
            ':entity': 'alarm-mail-rate',
            ':expires': Math.floor(windowStart / 1000) + DAY_SECONDS,
          },
          ReturnValues: 'UPDATED_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return Number(Attributes?.mails ?? 1);
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException && error.Item)
        return Number(unmarshall(error.Item)[names['#place']]);
      throw error;
    }
  },

  async addToDigest(digestKey, recipient, notificationId, dueAt) {
    // The ids are a string set (ADD): a notification added twice is there once. Digests written before
    // hold a list (`notificationIds`); it is left as it is, and `take` reads both.
    await dynamo().send(
      new UpdateCommand({
        TableName: config.platformTable,
        Key: keys.alarmDigest(digestKey),
        UpdateExpression:
          'SET entity = :entity, recipient = :recipient, dueAt = :dueAt, expiresAt = :expires ' +
          'ADD notificationIdSet :id',
        ExpressionAttributeValues: {
          ':entity': 'alarm-digest',
          ':recipient': recipient,
          ':dueAt': dueAt,
          ':expires': Math.floor(dueAt / 1000) + 7 * DAY_SECONDS,
          ':id': new Set([notificationId]),
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
    const ids = new Set<string>();
    // A digest written before the ids were a set holds a list (notificationIds), possibly both.
    if (Array.isArray(Attributes.notificationIds))
      for (const id of Attributes.notificationIds as unknown[]) ids.add(String(id));
    if (Attributes.notificationIdSet instanceof Set)
      for (const id of Attributes.notificationIdSet as Set<unknown>) ids.add(String(id));
    return { recipient: String(Attributes.recipient), notificationIds: [...ids] };
  },

  async restore(digestKey, digest, dueAt) {
    for (const id of digest.notificationIds)
      await dynamoAlarmMailRate.addToDigest(digestKey, digest.recipient, id, dueAt);
  },
};

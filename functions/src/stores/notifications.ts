import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { InboxEntry, NotificationStore, StoredNotification } from '../domain/notifications/ports';
import { mapLimited } from '../lib/concurrency';
import { batchGet, queryPages } from './dynamo-kit';
import { keys } from './keys';

/** Notifications and inbox entries are kept this long. */
const RETENTION_SECONDS = 180 * 24 * 3600;

const isConditionFailure = (error: unknown) =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

function fromItem(item: Record<string, unknown>): StoredNotification {
  return {
    id: String(item.id),
    orgId: String(item.orgId),
    type: Number(item.type) as StoredNotification['type'],
    message: String(item.message),
    createdAt: String(item.createdAt),
    properties: (item.properties ?? {}) as StoredNotification['properties'],
    ...(typeof item.clearedAt === 'string' ? { clearedAt: item.clearedAt } : {}),
  };
}

const expiresAt = (createdAt: string) => Math.floor(Date.parse(createdAt) / 1000) + RETENTION_SECONDS;

async function putIfAbsent(item: Record<string, unknown>): Promise<boolean> {
  try {
    await dynamo().send(
      new PutCommand({
        TableName: config.platformTable,
        Item: item,
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

async function getMany(ids: readonly string[]): Promise<Map<string, StoredNotification>> {
  const items = await batchGet(
    config.platformTable,
    [...new Set(ids)].map((id) => keys.notification(id)),
  );
  return new Map(items.map((item) => [String(item.id), fromItem(item)]));
}

interface InboxItem {
  notificationId: string;
  orgId: string;
  read: boolean;
}

/**
 * The user's live inbox entries of `orgIds`, newest first, until `wanted` are found (strongly
 * consistent: a mark or delete just made is seen).
 */
async function inboxEntries(
  userId: string,
  orgIds: readonly string[],
  wanted: number,
  unreadOnly: boolean,
): Promise<{ items: InboxItem[]; more: boolean }> {
  const orgs = new Set(orgIds);
  const items: InboxItem[] = [];
  if (orgs.size === 0) return { items, more: false };
  for await (const page of queryPages({
    TableName: config.platformTable,
    KeyConditionExpression: 'pk = :pk',
    FilterExpression: unreadOnly ? 'deleted = :false AND #r = :false' : 'deleted = :false',
    ExpressionAttributeNames: { '#r': 'read' },
    ExpressionAttributeValues: { ':pk': keys.inboxPartition(userId), ':false': false },
    ProjectionExpression: 'notificationId, orgId, #r',
    ScanIndexForward: false,
    ConsistentRead: true,
  })) {
    for (const item of page.Items ?? []) {
      if (!orgs.has(String(item.orgId))) continue;
      items.push({
        notificationId: String(item.notificationId),
        orgId: String(item.orgId),
        read: item.read === true,
      });
      if (items.length > wanted) return { items: items.slice(0, wanted), more: true };
    }
  }
  return { items, more: false };
}

/** The DynamoDB adapter of notifications and inboxes. */
export const dynamoNotificationStore: NotificationStore = {
  async deliver(notification, userIds) {
    const isNew = await putIfAbsent({
      ...keys.notification(notification.id),
      entity: 'notification',
      ...notification,
      expiresAt: expiresAt(notification.createdAt),
    });
    // Inbox entries are written even for a known notification: a delivery cut short is completed.
    await mapLimited([...new Set(userIds)], 8, (userId) =>
      putIfAbsent({
        ...keys.inboxEntry(userId, notification.id),
        entity: 'inbox',
        notificationId: notification.id,
        orgId: notification.orgId,
        read: false,
        deleted: false,
        expiresAt: expiresAt(notification.createdAt),
      }),
    );
    return isNew ? 'new' : 'known';
  },

  async claimEpisode(episodeKey, candidate) {
    try {
      await dynamo().send(
        new PutCommand({
          TableName: config.platformTable,
          Item: {
            ...keys.episode(episodeKey),
            entity: 'episode',
            id: candidate.id,
            createdAt: candidate.createdAt,
            expiresAt: expiresAt(candidate.createdAt),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return candidate;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException && error.Item)) throw error;
      const held = unmarshall(error.Item);
      return { ...candidate, id: String(held.id), createdAt: String(held.createdAt) };
    }
  },

  async page(userId, { orgIds, skip, limit, unreadOnly }) {
    const { items, more } = await inboxEntries(userId, orgIds, skip + limit, unreadOnly);
    const slice = items.slice(skip);
    const found = await getMany(slice.map((i) => i.notificationId));
    const entries: InboxEntry[] = slice.flatMap((i) => {
      const notification = found.get(i.notificationId);
      return notification ? [{ notification, read: i.read }] : [];
    });
    return { entries, hasMore: more };
  },

  async unreadCount(userId, orgIds) {
    return (await inboxEntries(userId, orgIds, Number.MAX_SAFE_INTEGER, true)).items.length;
  },

  async markRead(userId, ids) {
    await mapLimited(ids, 8, async (id) => {
      try {
        await dynamo().send(
          new UpdateCommand({
            TableName: config.platformTable,
            Key: keys.inboxEntry(userId, id),
            UpdateExpression: 'SET #read = :true',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#read': 'read' },
            ExpressionAttributeValues: { ':true': true },
          }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    });
  },

  async remove(userId, id) {
    try {
      await dynamo().send(
        new UpdateCommand({
          TableName: config.platformTable,
          Key: keys.inboxEntry(userId, id),
          UpdateExpression: 'SET deleted = :true',
          ConditionExpression: 'attribute_exists(pk) AND deleted = :false',
          ExpressionAttributeValues: { ':true': true, ':false': false },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
    return this.get(id);
  },

  async get(id) {
    const { Item } = await dynamo().send(
      new GetCommand({ TableName: config.platformTable, Key: keys.notification(id), ConsistentRead: true }),
    );
    return Item ? fromItem(Item) : undefined;
  },

  async markCleared(id, clearedAt) {
    try {
      const { Attributes } = await dynamo().send(
        new UpdateCommand({
          TableName: config.platformTable,
          Key: keys.notification(id),
          UpdateExpression: 'SET clearedAt = :at',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(clearedAt)',
          ExpressionAttributeValues: { ':at': clearedAt },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? { notification: fromItem(Attributes), recorded: true } : undefined;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    // Cleared before (a repeat: the first clearing stands), or no such notification.
    const stored = await this.get(id);
    return stored && { notification: stored, recorded: false };
  },
};

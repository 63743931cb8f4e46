import { createHash } from 'node:crypto';
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { AttemptCounter, AttemptKey, AttemptWindow } from '../domain/auth/ports';
import { keys } from './keys';

/**
 * Attempt counters in the platform table: one item per key, counted with an atomic `ADD`, closed by
 * its `expiresAt` (epoch seconds, also the table's TTL attribute). DynamoDB deletes expired items
 * lazily, so an expired item is treated as absent and restarted in place.
 */

const isConditionFailure = (error: unknown) =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

// E-mails and addresses are not stored, only their hash: the counters need no personal data.
const itemKey = (key: AttemptKey) =>
  keys.attempts(key.kind, createHash('sha256').update(key.subject, 'utf8').digest('hex'));

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);
const closingSeconds = (date: Date) => Math.ceil(date.getTime() / 1000);

function windowOf(item: Record<string, unknown>): AttemptWindow {
  return {
    count: Number(item.count ?? 0),
    lastAt: new Date(Number(item.lastAt ?? 0)),
    closesAt: new Date(Number(item.expiresAt ?? 0) * 1000),
  };
}

const isOpen = (item: Record<string, unknown>, now: Date) => Number(item.expiresAt) > epochSeconds(now);

/** How many times an `add` restarts when concurrent writers keep replacing an expired item. */
const MAX_RESTARTS = 5;

export const dynamoAttemptCounter: AttemptCounter = {
  async read(key, now) {
    const { Item } = await dynamo().send(
      new GetCommand({ TableName: config.platformTable, Key: itemKey(key), ConsistentRead: true }),
    );
    return Item && isOpen(Item, now) ? windowOf(Item) : undefined;
  },

  async add(key, now, closesAt) {
    const Key = itemKey(key);
    for (let restart = 0; restart < MAX_RESTARTS; restart++) {
      try {
        // Counts on an open window (or opens one): ALL_OLD tells this caller the count it added to.
        const { Attributes } = await dynamo().send(
          new UpdateCommand({
            TableName: config.platformTable,
            Key,
            UpdateExpression:
              'SET entity = :entity, lastAt = :now, expiresAt = if_not_exists(expiresAt, :closes) ADD #count :one',
            ConditionExpression: 'attribute_not_exists(pk) OR expiresAt > :nowSeconds',
            ExpressionAttributeNames: { '#count': 'count' },
            ExpressionAttributeValues: {
              ':entity': 'attempts',
              ':now': now.getTime(),
              ':closes': closingSeconds(closesAt),
              ':one': 1,
              ':nowSeconds': epochSeconds(now),
            },
            ReturnValues: 'ALL_OLD',
          }),
        );
        const before = Attributes ? windowOf(Attributes) : undefined;
        return {
          before,
          after: {
            count: (before?.count ?? 0) + 1,
            lastAt: now,
            closesAt: before?.closesAt ?? new Date(closingSeconds(closesAt) * 1000),
          },
        };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
      try {
        // The stored window has closed but not been deleted yet: start a new one in its place.
        await dynamo().send(
          new UpdateCommand({
            TableName: config.platformTable,
            Key,
            UpdateExpression: 'SET entity = :entity, #count = :one, lastAt = :now, expiresAt = :closes',
            ConditionExpression: 'expiresAt <= :nowSeconds',
            ExpressionAttributeNames: { '#count': 'count' },
            ExpressionAttributeValues: {
              ':entity': 'attempts',
              ':now': now.getTime(),
              ':closes': closingSeconds(closesAt),
              ':one': 1,
              ':nowSeconds': epochSeconds(now),
            },
          }),
        );
        return {
          before: undefined,
          after: { count: 1, lastAt: now, closesAt: new Date(closingSeconds(closesAt) * 1000) },
        };
      } catch (error) {
        // Somebody else started the new window first: count on it.
        if (!isConditionFailure(error)) throw error;
      }
    }
    throw new Error(`The attempt counter ${key.kind} kept changing; gave up after ${MAX_RESTARTS} tries`);
  },

  async keepOpenUntil(key, until) {
    try {
      await dynamo().send(
        new UpdateCommand({
          TableName: config.platformTable,
          Key: itemKey(key),
          UpdateExpression: 'SET expiresAt = :until',
          ConditionExpression: 'attribute_exists(pk) AND expiresAt < :until',
          ExpressionAttributeValues: { ':until': closingSeconds(until) },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  },

  async clear(key) {
    await dynamo().send(new DeleteCommand({ TableName: config.platformTable, Key: itemKey(key) }));
  },
};

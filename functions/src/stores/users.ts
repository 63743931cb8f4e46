import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DeleteCommand,
  type BatchGetCommandOutput,
  GetCommand,
  QueryCommand,
  type QueryCommandOutput,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { toRole } from '@argentum/events/contracts';
import type { UserRecord } from '../domain/users/user';
import { keys } from './keys';

type StoredUser = UserRecord & Record<string, unknown>;

function fromItem(item: Record<string, unknown>): UserRecord {
  return {
    userId: String(item.userId),
    email: String(item.email),
    userName: String(item.userName ?? ''),
    role: toRole(item.role),
    orgIds: Array.isArray(item.orgIds) ? item.orgIds.map(String) : [],
    createdAt: String(item.createdAt ?? ''),
    updatedAt: String(item.updatedAt ?? ''),
    ...(typeof item.sessionsValidAfter === 'number' ? { sessionsValidAfter: item.sessionsValidAfter } : {}),
  };
}

export async function getUser(userId: string): Promise<UserRecord | undefined> {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config.platformTable, Key: keys.user(userId), ConsistentRead: true }),
  );
  return Item ? fromItem(Item) : undefined;
}

export async function findUserByEmail(email: string): Promise<UserRecord | undefined> {
  const { Items } = await dynamo().send(
    new QueryCommand({
      TableName: config.platformTable,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
      ExpressionAttributeValues: { ':pk': keys.userEmail(email).gsi1pk, ':sk': 'USER' },
    }),
  );
  const item = Items?.[0];
  return item ? fromItem(item) : undefined;
}

/** Creates or replaces a user record, with its organization memberships in step. */
export async function putUser(user: UserRecord): Promise<void> {
  const previous = await getUser(user.userId);
  if ((await saveUser(user, previous)) === 'changed-meanwhile') {
    throw new Error(`User ${user.userId} changed while it was being written`);
  }
}

type WriteAction = NonNullable<
  ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']
>[number];

/** DynamoDB's limit of actions in one transaction. */
const TRANSACTION_LIMIT = 100;

const userItem = (user: UserRecord): StoredUser => ({
  ...keys.user(user.userId),
  ...keys.userEmail(user.email),
  ...keys.userListing(user.email),
  entity: 'user',
  ...user,
});

const memberPut = (orgId: string, userId: string): WriteAction => ({
  Put: {
    TableName: config.platformTable,
    Item: { ...keys.member(orgId, userId), entity: 'member', orgId, userId },
  },
});

const memberDelete = (orgId: string, userId: string): WriteAction => ({
  Delete: { TableName: config.platformTable, Key: keys.member(orgId, userId) },
});

/** The record must still be what was read: absent, or with the same updatedAt. */
function unchangedSince(previous: UserRecord | undefined) {
  return previous
    ? {
        ConditionExpression: 'updatedAt = :previousUpdatedAt',
        ExpressionAttributeValues: { ':previousUpdatedAt': previous.updatedAt },
      }
    : { ConditionExpression: 'attribute_not_exists(pk)' };
}

/** A new updatedAt that always differs from the previous one (it is the concurrency token). */
export function nextTimestamp(previous: string): string {
  const now = new Date().toISOString();
  return now === previous ? new Date(Date.parse(now) + 1).toISOString() : now;
}

/**
 * Writes the user record and its memberships in one transaction, provided the record is still
 * `previous` (optimistic concurrency). Memberships are a lookup, the record decides: readers check
 * each listed user's record, so the rare user with more than 99 organization changes has the rest
 * applied in further transactions right after.
 */
export async function saveUser(
  next: UserRecord,
  previous: UserRecord | undefined,
): Promise<'saved' | 'changed-meanwhile'> {
  const nextOrgs = new Set(next.orgIds);
  const memberships = [
    ...[...nextOrgs].map((orgId) => memberPut(orgId, next.userId)),
    ...[...new Set(previous?.orgIds ?? [])]
      .filter((orgId) => !nextOrgs.has(orgId))
      .map((orgId) => memberDelete(orgId, next.userId)),
  ];
  const record: WriteAction = {
    Put: { TableName: config.platformTable, Item: userItem(next), ...unchangedSince(previous) },
  };
  const first = memberships.slice(0, TRANSACTION_LIMIT - 1);
  try {
    await dynamo().send(new TransactWriteCommand({ TransactItems: [record, ...first] }));
  } catch (error) {
    if (isConditionFailure(error)) return 'changed-meanwhile';
    throw error;
  }
  await writeInChunks(memberships.slice(first.length));
  return 'saved';
}

/** Deletes the user record and its memberships, provided the record is still `user`. */
export async function deleteUserRecord(user: UserRecord): Promise<'deleted' | 'changed-meanwhile'> {
  const memberships = [...new Set(user.orgIds)].map((orgId) => memberDelete(orgId, user.userId));
  const record: WriteAction = {
    Delete: { TableName: config.platformTable, Key: keys.user(user.userId), ...unchangedSince(user) },
  };
  const first = memberships.slice(0, TRANSACTION_LIMIT - 1);
  try {
    await dynamo().send(new TransactWriteCommand({ TransactItems: [record, ...first] }));
  } catch (error) {
    if (isConditionFailure(error)) return 'changed-meanwhile';
    throw error;
  }
  await writeInChunks(memberships.slice(first.length));
  return 'deleted';
}

async function writeInChunks(actions: readonly WriteAction[]): Promise<void> {
  for (let start = 0; start < actions.length; start += TRANSACTION_LIMIT) {
    await dynamo().send(
      new TransactWriteCommand({ TransactItems: actions.slice(start, start + TRANSACTION_LIMIT) }),
    );
  }
}

function isConditionFailure(error: unknown): boolean {
  return (
    error instanceof TransactionCanceledException &&
    (error.CancellationReasons ?? []).some((reason) => reason.Code === 'ConditionalCheckFailed')
  );
}

/**
 * Ends every session of the user begun before `validAfter` (epoch seconds) and answers the updated
 * user (undefined when there is no such user). updatedAt moves too, so a concurrent saveUser of an
 * older read is refused rather than bringing the sessions back.
 */
export async function endSessionsBefore(
  userId: string,
  validAfter: number,
  now: string,
): Promise<UserRecord | undefined> {
  try {
    const { Attributes } = await dynamo().send(
      new UpdateCommand({
        TableName: config.platformTable,
        Key: keys.user(userId),
        UpdateExpression: 'SET sessionsValidAfter = :validAfter, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':validAfter': validAfter, ':now': now },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes ? fromItem(Attributes) : undefined;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/**
 * Takes an organization (one being deleted) out of a user's organizations, membership included;
 * retried when the record changes meanwhile. Idempotent: a user already without it is left alone.
 */
export async function removeOrganizationFromUser(userId: string, orgId: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const user = await getUser(userId);
    if (!user?.orgIds.includes(orgId)) {
      // A stale membership (its user is gone or no longer lists the organization): only the lookup goes.
      await dynamo().send(
        new DeleteCommand({ TableName: config.platformTable, Key: keys.member(orgId, userId) }),
      );
      return;
    }
    const next: UserRecord = {
      ...user,
      orgIds: user.orgIds.filter((id) => id !== orgId),
      updatedAt: nextTimestamp(user.updatedAt),
    };
    if ((await saveUser(next, user)) === 'saved') return;
  }
  throw new Error(`User ${userId} kept changing while organization ${orgId} was taken out of it`);
}

/** Ids of the users listed as members of an organization (a lookup: check each user's record). */
export async function getMemberIds(orgId: string): Promise<string[]> {
  const ids: string[] = [];
  let startKey: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page = await dynamo().send(
      new QueryCommand({
        TableName: config.platformTable,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.membersPartition(orgId) },
        ProjectionExpression: 'userId',
        ExclusiveStartKey: startKey,
      }),
    );
    ids.push(...(page.Items ?? []).map((item) => String(item.userId)));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return ids;
}

/** The records of these users (consistent reads, 100 per request); unknown ids are left out. */
export async function getUsers(userIds: readonly string[]): Promise<UserRecord[]> {
  const unique = [...new Set(userIds)];
  const users: UserRecord[] = [];
  for (let start = 0; start < unique.length; start += 100) {
    let request: BatchGetCommandOutput['UnprocessedKeys'] = {
      [config.platformTable]: {
        Keys: unique.slice(start, start + 100).map((userId) => keys.user(userId)),
        ConsistentRead: true,
      },
    };
    for (let attempt = 0; request && Object.keys(request).length > 0; attempt++) {
      if (attempt === 8) throw new Error('User records could not be read: too many unprocessed keys');
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * 2 ** attempt)));
      const page: BatchGetCommandOutput = await dynamo().send(new BatchGetCommand({ RequestItems: request }));
      users.push(...(page.Responses?.[config.platformTable] ?? []).map(fromItem));
      request = page.UnprocessedKeys;
    }
  }
  return users;
}

/**
 * Transaction items that add an organization to a user's organizations (e.g. the one they just
 * created), with the membership in step. updatedAt is set, so a concurrent saveUser notices it.
 */
export const appendOrgIdToUser = (userId: string, orgId: string, now: string): WriteAction[] => [
  {
    Update: {
      TableName: config.platformTable,
      Key: keys.user(userId),
      UpdateExpression: 'SET orgIds = list_append(if_not_exists(orgIds, :none), :added), updatedAt = :now',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':none': [], ':added': [orgId], ':now': now },
    },
  },
  memberPut(orgId, userId),
];

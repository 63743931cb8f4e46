import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/clients';
import { config } from '../config';
import { toRole } from '../domain/roles';
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

/** Creates or replaces a user record. */
export async function putUser(user: UserRecord): Promise<void> {
  const item: StoredUser = {
    ...keys.user(user.userId),
    ...keys.userEmail(user.email),
    ...keys.userListing(user.email),
    entity: 'user',
    ...user,
  };
  await dynamo().send(new PutCommand({ TableName: config.platformTable, Item: item }));
}

/**
 * A transaction item that adds an organization to a user's organizations (e.g. the one they just
 * created). It also sets updatedAt, so a concurrent read-modify-write of the record notices it.
 */
export const appendOrgIdToUser = (userId: string, orgId: string, now: string) => ({
  Update: {
    TableName: config.platformTable,
    Key: keys.user(userId),
    UpdateExpression: 'SET orgIds = list_append(if_not_exists(orgIds, :none), :added), updatedAt = :now',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':none': [], ':added': [orgId], ':now': now },
  },
});

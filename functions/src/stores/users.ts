import { DeleteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { isThemePreference, toRole, type OrgRoles, type RoleNumber } from '@argentum/contracts';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { SaveOutcome, UserStore } from '../domain/users/ports';
import type { UserRecord } from '../domain/users/user';
import {
  batchGet,
  type Item,
  queryAll,
  scanItems,
  TRANSACTION_LIMIT,
  type TransactItem,
  transactWrite,
} from './dynamo-kit';
import { keys } from './keys';

/**
 * The role map of a stored user. Records written before roles belonged to memberships have one
 * `role` and a list `orgIds`: each of those organizations gets that role (migrateUserRecords rewrites
 * them in place; reading them this way keeps a record that was not migrated yet working).
 */
function orgRolesOf(item: Item): Record<string, RoleNumber> {
  if (item.orgRoles && typeof item.orgRoles === 'object') {
    return Object.fromEntries(
      Object.entries(item.orgRoles as Record<string, unknown>).map(([orgId, role]) => [orgId, toRole(role)]),
    );
  }
  const legacyRole = toRole(item.role);
  const orgIds = Array.isArray(item.orgIds) ? item.orgIds.map(String) : [];
  return Object.fromEntries(orgIds.map((orgId) => [orgId, legacyRole]));
}

function fromItem(item: Item): UserRecord {
  return {
    userId: String(item.userId),
    email: String(item.email),
    userName: String(item.userName ?? ''),
    orgRoles: orgRolesOf(item),
    createdAt: String(item.createdAt ?? ''),
    updatedAt: String(item.updatedAt ?? ''),
    version: typeof item.version === 'number' ? item.version : 0,
    ...(typeof item.sessionsValidAfter === 'number' ? { sessionsValidAfter: item.sessionsValidAfter } : {}),
    ...(isThemePreference(item.theme) ? { theme: item.theme } : {}),
  };
}

const userItem = (user: UserRecord): Item => ({
  ...keys.user(user.userId),
  ...keys.userEmail(user.email),
  ...keys.userListing(user.email),
  entity: 'user',
  userId: user.userId,
  email: user.email,
  userName: user.userName,
  orgRoles: user.orgRoles,
  createdAt: user.createdAt,
  updatedAt: user.updatedAt,
  version: user.version,
  ...(user.sessionsValidAfter !== undefined ? { sessionsValidAfter: user.sessionsValidAfter } : {}),
  ...(user.theme !== undefined ? { theme: user.theme } : {}),
});

type WriteAction = TransactItem;

const memberPut = (orgId: string, userId: string, role: RoleNumber): WriteAction => ({
  Put: {
    TableName: config.platformTable,
    Item: { ...keys.member(orgId, userId), entity: 'member', orgId, userId, role },
  },
});

const memberDelete = (orgId: string, userId: string): WriteAction => ({
  Delete: { TableName: config.platformTable, Key: keys.member(orgId, userId) },
});

/** The stored record must still be the one read: absent, or at the same version. */
function unchangedSince(read: UserRecord | undefined) {
  if (!read) return { ConditionExpression: 'attribute_not_exists(pk)' };
  // Records from before versions were kept have none: version 0 is "no version attribute".
  return read.version === 0
    ? {
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(version) OR version = :read)',
        ExpressionAttributeValues: { ':read': 0 },
      }
    : { ConditionExpression: 'version = :read', ExpressionAttributeValues: { ':read': read.version } };
}

function membershipWrites(next: UserRecord | undefined, read: UserRecord | undefined): WriteAction[] {
  const nextRoles: OrgRoles = next?.orgRoles ?? {};
  const readRoles: OrgRoles = read?.orgRoles ?? {};
  const userId = (next ?? read)?.userId ?? '';
  return [
    ...Object.entries(nextRoles)
      .filter(([orgId, role]) => readRoles[orgId] !== role)
      .map(([orgId, role]) => memberPut(orgId, userId, role)),
    ...Object.keys(readRoles)
      .filter((orgId) => !Object.hasOwn(nextRoles, orgId))
      .map((orgId) => memberDelete(orgId, userId)),
  ];
}

/**
 * The record and the first memberships go in one transaction, conditioned on the version read.
 * Memberships are a lookup and the record decides (readers check each listed user's record), so the
 * rare change of more than 99 memberships has the rest applied in further transactions right after.
 */
async function writeConditioned(record: WriteAction, memberships: WriteAction[]): Promise<SaveOutcome> {
  const first = memberships.slice(0, TRANSACTION_LIMIT - 1);
  const written = await transactWrite([record, ...first]);
  if (written.outcome === 'refused') {
    if (written.failed.length > 0) return 'changed-meanwhile';
    throw written.error;
  }
  const rest = memberships.slice(first.length);
  for (let start = 0; start < rest.length; start += TRANSACTION_LIMIT) {
    const more = await transactWrite(rest.slice(start, start + TRANSACTION_LIMIT));
    if (more.outcome === 'refused') throw more.error;
  }
  return 'saved';
}

async function get(userId: string): Promise<UserRecord | undefined> {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config.platformTable, Key: keys.user(userId), ConsistentRead: true }),
  );
  return Item ? fromItem(Item) : undefined;
}

async function findByEmail(email: string): Promise<UserRecord | undefined> {
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

async function memberIds(orgId: string): Promise<string[]> {
  const items = await queryAll({
    TableName: config.platformTable,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.membersPartition(orgId) },
    ProjectionExpression: 'userId',
  });
  return items.map((item) => String(item.userId));
}

async function getMany(userIds: readonly string[]): Promise<UserRecord[]> {
  const unique = [...new Set(userIds)];
  const items = await batchGet(
    config.platformTable,
    unique.map((userId) => keys.user(userId)),
    { consistent: true },
  );
  return items.map(fromItem);
}

/** The DynamoDB adapter of the user store. */
export const dynamoUserStore: UserStore = {
  get,
  findByEmail,
  getMany,
  memberIds,
  saveIfUnchanged: (next, read) =>
    writeConditioned(
      { Put: { TableName: config.platformTable, Item: userItem(next), ...unchangedSince(read) } },
      membershipWrites(next, read),
    ),
  forgetMembership: async (orgId, userId) => {
    await dynamo().send(
      new DeleteCommand({ TableName: config.platformTable, Key: keys.member(orgId, userId) }),
    );
  },
  deleteIfUnchanged: async (read) =>
    (await writeConditioned(
      { Delete: { TableName: config.platformTable, Key: keys.user(read.userId), ...unchangedSince(read) } },
      membershipWrites(undefined, read),
    )) === 'saved'
      ? 'deleted'
      : 'changed-meanwhile',
};

/**
 * Transaction items that make a user a member of an organization they just created, with the given
 * role; the version moves, so a concurrent read-modify-write of the record is refused.
 */
export const addMembershipItems = (
  userId: string,
  orgId: string,
  role: RoleNumber,
  now: string,
): WriteAction[] => [
  {
    Update: {
      TableName: config.platformTable,
      Key: keys.user(userId),
      UpdateExpression:
        'SET orgRoles.#org = :role, updatedAt = :now, version = if_not_exists(version, :zero) + :one',
      ConditionExpression: 'attribute_exists(pk) AND attribute_exists(orgRoles)',
      ExpressionAttributeNames: { '#org': orgId },
      ExpressionAttributeValues: { ':role': role, ':now': now, ':zero': 0, ':one': 1 },
    },
  },
  memberPut(orgId, userId, role),
];

/**
 * Rewrites user records from before roles belonged to memberships (one `role`, a list `orgIds`) in
 * place: each organization gets the record's role, memberships carry it, versions start. Idempotent
 * and safe beside live traffic (each write is conditioned on the record read). Answers how many
 * records it rewrote.
 */
export async function migrateUserRecords(): Promise<number> {
  let migrated = 0;
  const pages = scanItems({
    TableName: config.platformTable,
    FilterExpression: 'entity = :user AND attribute_not_exists(orgRoles)',
    ExpressionAttributeValues: { ':user': 'user' },
  });
  for await (const items of pages) {
    for (const item of items) {
      const read = fromItem(item);
      const next: UserRecord = { ...read, version: read.version + 1 };
      // Every membership is written again, now with its role.
      const outcome = await writeConditioned(
        { Put: { TableName: config.platformTable, Item: userItem(next), ...unchangedSince(read) } },
        membershipWrites(next, undefined),
      );
      if (outcome === 'saved') migrated++;
    }
  }
  return migrated;
}

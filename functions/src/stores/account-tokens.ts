import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { AccountTokenKind, AccountTokenRecord, AccountTokenStore } from '../domain/auth/ports';
import { conflictBackOff, pauseBefore } from '../lib/backoff';
import { transactWrite } from './dynamo-kit';
import { keys } from './keys';

const isConditionFailure = (error: unknown) =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

function fromItem(item: Record<string, unknown>): AccountTokenRecord {
  return {
    tokenHash: String(item.tokenHash),
    kind: item.kind === 'reset' ? 'reset' : 'invite',
    email: String(item.email),
    orgIds: Array.isArray(item.orgIds) ? item.orgIds.map(String) : [],
    orgNames: Array.isArray(item.orgNames) ? item.orgNames.map(String) : [],
    ...(typeof item.createdBy === 'string' ? { createdBy: item.createdBy } : {}),
    createdAt: String(item.createdAt ?? ''),
    expiresAt: Number(item.expiresAt),
    ...(typeof item.usedAt === 'string' ? { usedAt: item.usedAt } : {}),
  };
}

/**
 * Stores a token. A reset token supersedes every earlier reset token of the same e-mail: a pointer item
 * names the latest, and the one it named before is marked used in the same transaction (conditioned on
 * the pointer read, so two resets at once cannot both stay usable).
 */
export async function putAccountToken(record: AccountTokenRecord): Promise<void> {
  const tokenPut = {
    Put: {
      TableName: config.platformTable,
      Item: { ...keys.accountToken(record.tokenHash), entity: 'token', ...record },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
  if (record.kind !== 'reset') {
    const written = await transactWrite([tokenPut]);
    if (written.outcome === 'refused') throw written.error;
    return;
  }
  for (let attempt = 1; attempt <= conflictBackOff.attempts; attempt++) {
    if (attempt > 1) await pauseBefore(attempt - 1);
    const { Item: pointer } = await dynamo().send(
      new GetCommand({
        TableName: config.platformTable,
        Key: keys.latestReset(record.email),
        ConsistentRead: true,
      }),
    );
    const previous = typeof pointer?.tokenHash === 'string' ? pointer.tokenHash : undefined;
    const written = await transactWrite([
      tokenPut,
      {
        Put: {
          TableName: config.platformTable,
          Item: {
            ...keys.latestReset(record.email),
            entity: 'latest-reset',
            tokenHash: record.tokenHash,
            expiresAt: record.expiresAt,
          },
          ...(previous
            ? {
                ConditionExpression: 'tokenHash = :previous',
                ExpressionAttributeValues: { ':previous': previous },
              }
            : { ConditionExpression: 'attribute_not_exists(pk)' }),
        },
      },
      ...(previous
        ? [
            {
              Update: {
                TableName: config.platformTable,
                Key: keys.accountToken(previous),
                UpdateExpression: 'SET usedAt = if_not_exists(usedAt, :superseded)',
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeValues: { ':superseded': `superseded ${record.createdAt}` },
              },
            },
          ]
        : []),
    ]);
    if (written.outcome === 'written') return;
    // The pointer moved (another reset at the same moment) or the previous token expired away.
    if (written.failed.includes(2)) {
      await dynamo().send(
        new DeleteCommand({ TableName: config.platformTable, Key: keys.latestReset(record.email) }),
      );
    }
  }
  throw new Error('The password reset could not be recorded: it kept changing');
}

export async function getAccountToken(tokenHash: string): Promise<AccountTokenRecord | undefined> {
  const { Item } = await dynamo().send(
    new GetCommand({
      TableName: config.platformTable,
      Key: keys.accountToken(tokenHash),
      ConsistentRead: true,
    }),
  );
  return Item ? fromItem(Item) : undefined;
}

/**
 * Marks the token used, atomically: only one caller can claim a given token, and only while it is of
 * this kind, unused and unexpired (TTL deletion is lazy, so expiry is checked here too). Answers the
 * claimed record, or undefined when the token cannot be claimed.
 */
export async function claimAccountToken(
  tokenHash: string,
  kind: AccountTokenKind,
  claimId: string,
  now: Date,
): Promise<AccountTokenRecord | undefined> {
  try {
    const { Attributes } = await dynamo().send(
      new UpdateCommand({
        TableName: config.platformTable,
        Key: keys.accountToken(tokenHash),
        UpdateExpression: 'SET usedAt = :usedAt, claimId = :claimId',
        ConditionExpression:
          'attribute_exists(pk) AND kind = :kind AND attribute_not_exists(usedAt) AND expiresAt > :nowSeconds',
        ExpressionAttributeValues: {
          ':usedAt': now.toISOString(),
          ':claimId': claimId,
          ':kind': kind,
          ':nowSeconds': Math.floor(now.getTime() / 1000),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes ? fromItem(Attributes) : undefined;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/** Gives a claimed token back (the work it was claimed for failed), if this caller still holds it. */
export async function releaseAccountToken(tokenHash: string, claimId: string): Promise<void> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: config.platformTable,
        Key: keys.accountToken(tokenHash),
        UpdateExpression: 'REMOVE usedAt, claimId',
        ConditionExpression: 'claimId = :claimId',
        ExpressionAttributeValues: { ':claimId': claimId },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** The DynamoDB adapter of the account-token store. */
export const dynamoAccountTokenStore: AccountTokenStore = {
  put: putAccountToken,
  get: getAccountToken,
  claim: claimAccountToken,
  release: releaseAccountToken,
};

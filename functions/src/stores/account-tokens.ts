import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { keys } from './keys';

const isConditionFailure = (error: unknown) =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

export type AccountTokenKind = 'invite' | 'reset';

/** An invite or password-reset token as stored: keyed by the token's SHA-256 hash, never the token. */
export interface AccountTokenRecord {
  tokenHash: string;
  kind: AccountTokenKind;
  email: string;
  /** Invite: the organizations the invitee joins. Reset: empty. */
  orgIds: string[];
  orgNames: string[];
  /** Who asked for it (the inviting admin); absent for resets. */
  createdBy?: string;
  createdAt: string;
  /** Epoch seconds; also the table's TTL attribute, so DynamoDB removes it some time after. */
  expiresAt: number;
  /** Set when the token has been used. */
  usedAt?: string;
}

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

export async function putAccountToken(record: AccountTokenRecord): Promise<void> {
  await dynamo().send(
    new PutCommand({
      TableName: config.platformTable,
      Item: { ...keys.accountToken(record.tokenHash), entity: 'token', ...record },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
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

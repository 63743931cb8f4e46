import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CommandReply } from '@argentum/contracts';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { CommandRecord, CommandStore, ReportedState } from '../domain/control/ports';
import { keys } from './keys';

/** How long a device's command history is kept ("who unlocked the door" comes up months later). */
const COMMAND_RETENTION_SECONDS = 366 * 24 * 3600;

const names = { '#status': 'status' };
const pendingValues = { ':requested': 'requested', ':sent': 'sent' };
const isConditionFailure = (error: unknown) =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

/** Runs a conditional update; false when its condition did not hold. */
async function updateIf(command: UpdateCommand): Promise<boolean> {
  try {
    await dynamo().send(command);
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

function toRecord(item: Record<string, unknown>): CommandRecord {
  const { pk: _pk, sk: _sk, entity: _entity, expiresAt: _expiresAt, ...record } = item;
  return record as unknown as CommandRecord;
}

/** Commands and confirmed states in the platform table (keys.command, keys.reportedState). */
export const dynamoCommandStore: CommandStore = {
  async create(command) {
    await dynamo().send(
      new PutCommand({
        TableName: config.platformTable,
        Item: {
          ...keys.command(command.devID, command.commandId),
          entity: 'command',
          ...command,
          expiresAt: Math.floor(command.requestedAt / 1000) + COMMAND_RETENTION_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  },

  markSent(devId, commandId, sentAt, deadlineAt) {
    return updateIf(
      new UpdateCommand({
        TableName: config.platformTable,
        Key: keys.command(devId, commandId),
        UpdateExpression: 'SET #status = :sent, sentAt = :sentAt, deadlineAt = :deadlineAt',
        ConditionExpression: '#status = :requested',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ...pendingValues, ':sentAt': sentAt, ':deadlineAt': deadlineAt },
      }),
    );
  },

  async markUnsent(devId, commandId, reply: CommandReply) {
    await updateIf(
      new UpdateCommand({
        TableName: config.platformTable,
        Key: keys.command(devId, commandId),
        UpdateExpression: 'SET #status = :failed, reply = :reply',
        ConditionExpression: '#status = :requested',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':requested': 'requested', ':failed': 'failed', ':reply': reply },
      }),
    );
  },

  async get(devId, commandId) {
    const { Item } = await dynamo().send(
      new GetCommand({
        TableName: config.platformTable,
        Key: keys.command(devId, commandId),
        ConsistentRead: true,
      }),
    );
    return Item ? toRecord(Item) : undefined;
  },

  async recent(devId, limit) {
    const { Items = [] } = await dynamo().send(
      new QueryCommand({
        TableName: config.platformTable,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :cmd)',
        ExpressionAttributeValues: { ':pk': keys.commandsPartition(devId), ':cmd': 'CMD#' },
        ScanIndexForward: false,
        Limit: limit,
        ConsistentRead: true,
      }),
    );
    return Items.map(toRecord);
  },

  recordReply(devId, commandId, reply, receivedAt, when) {
    const inTime = when === 'in time';
    return updateIf(
      new UpdateCommand({
        TableName: config.platformTable,
        Key: keys.command(devId, commandId),
        UpdateExpression: inTime
          ? 'SET #status = :status, reply = :reply'
          : 'SET #status = :late, lateReply = :reply',
        ConditionExpression: inTime
          ? 'deadlineAt >= :at AND (#status IN (:requested, :sent) OR ' +
            '(#status = :timedOut AND attribute_not_exists(reply) AND attribute_not_exists(lateReply)))'
          : '(#status IN (:requested, :sent) AND deadlineAt < :at) OR (#status = :timedOut AND attribute_not_exists(lateReply))',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: {
          ...pendingValues,
          ':reply': reply,
          ':at': receivedAt,
          ':timedOut': 'timed out',
          ...(inTime
            ? { ':status': reply.outcome === 'success' ? 'confirmed' : 'failed' }
            : { ':late': reply.outcome === 'success' ? 'confirmed late' : 'timed out' }),
        },
      }),
    );
  },

  recordTimeout(devId, commandId, now) {
    return updateIf(
      new UpdateCommand({
        TableName: config.platformTable,
        Key: keys.command(devId, commandId),
        UpdateExpression: 'SET #status = :timedOut',
        ConditionExpression: '#status IN (:requested, :sent) AND deadlineAt < :now',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ...pendingValues, ':timedOut': 'timed out', ':now': now },
      }),
    );
  },

  async recordState(state: ReportedState) {
    try {
      await dynamo().send(
        new PutCommand({
          TableName: config.platformTable,
          Item: { ...keys.reportedState(state.devID, state.port), entity: 'reportedState', ...state },
          ConditionExpression: 'attribute_not_exists(pk) OR reportedAt <= :at',
          ExpressionAttributeValues: { ':at': state.reportedAt },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  },

  async reportedState(devId, port) {
    const { Item } = await dynamo().send(
      new GetCommand({
        TableName: config.platformTable,
        Key: keys.reportedState(devId, port),
        ConsistentRead: true,
      }),
    );
    if (!Item) return undefined;
    const { pk: _pk, sk: _sk, entity: _entity, ...state } = Item;
    return state as ReportedState;
  },
};

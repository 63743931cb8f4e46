import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { ConnectionRegistry, RealtimeConnection } from '../domain/realtime/ports';
import { queryAll } from './dynamo-kit';
import { keys } from './keys';

function fromItem(item: Record<string, unknown>): RealtimeConnection {
  return {
    clientId: String(item.clientId),
    userId: String(item.userId),
    orgIds: Array.isArray(item.orgIds) ? item.orgIds.map(String) : [],
    authorizedAt: Number(item.authorizedAt),
    expiresAt: Number(item.expiresAt),
  };
}

/** The DynamoDB adapter of the connection registry: one item per user and client id, TTL `expiresAt`. */
export const dynamoConnectionRegistry: ConnectionRegistry = {
  async claim(clientId, userId, expiresAt, nowSeconds) {
    try {
      await dynamo().send(
        new PutCommand({
          TableName: config.platformTable,
          Item: { ...keys.clientIdOwner(clientId), entity: 'clientId', clientId, userId, expiresAt },
          ConditionExpression: 'attribute_not_exists(pk) OR userId = :me OR expiresAt < :now',
          ExpressionAttributeValues: { ':me': userId, ':now': nowSeconds },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  },

  async record(connection) {
    await dynamo().send(
      new PutCommand({
        TableName: config.platformTable,
        Item: {
          ...keys.connection(connection.userId, connection.clientId),
          entity: 'connection',
          ...connection,
        },
      }),
    );
  },

  async ofUser(userId) {
    const items = await queryAll({
      TableName: config.platformTable,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.connectionsPartition(userId) },
      ConsistentRead: true,
    });
    const connections: RealtimeConnection[] = items.map(fromItem);
    return connections;
  },

  async forget(connection) {
    try {
      await dynamo().send(
        new DeleteCommand({
          TableName: config.platformTable,
          Key: keys.connection(connection.userId, connection.clientId),
          ConditionExpression: 'attribute_not_exists(pk) OR authorizedAt = :read',
          ExpressionAttributeValues: { ':read': connection.authorizedAt },
        }),
      );
    } catch (error) {
      // Recorded again meanwhile (the browser reconnected): that record belongs to the new connection.
      if (!(error instanceof Error && error.name === 'ConditionalCheckFailedException')) throw error;
    }
  },
};

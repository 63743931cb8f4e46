import { randomUUID } from 'node:crypto';
import { DeleteTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import type { IndexDefinition, TableDefinition } from '../../src/definitions';
import { ensureTable } from '../../local/provision';

// The local stack's DynamoDB, as the Lambdas reach it (endpoint from the environment).
const client = new DynamoDBClient({});
const documents = DynamoDBDocumentClient.from(client);
const name = `provision-${randomUUID()}`;

const index = (indexName: string, projection: IndexDefinition['projection']): IndexDefinition => ({
  indexName,
  partitionKey: { name: `${indexName}pk`, type: 'S' },
  sortKey: { name: `${indexName}sk`, type: 'S' },
  projection,
});
const table = (globalIndexes: IndexDefinition[]): TableDefinition => ({
  id: 'Provisioned',
  localName: name,
  partitionKey: { name: 'pk', type: 'S' },
  sortKey: { name: 'sk', type: 'S' },
  globalIndexes,
});

afterAll(async () => {
  await client.send(new DeleteTableCommand({ TableName: name }));
  client.destroy();
});

describe('local table provisioning (from the definitions CDK deploys)', () => {
  it('gives a kept table the indexes it lacks, with their projections, and lists its items in them', async () => {
    await ensureTable(client, table([index('gsi1', 'ALL')]));
    await documents.send(
      new PutCommand({
        TableName: name,
        Item: { pk: 'DEVICE#d1', sk: 'DEVICE', gsi3pk: 'FLOOR#f1', gsi3sk: 'd1', latest: { temp: 21 } },
      }),
    );
    // A later start whose definitions name a new keys-only index.
    await ensureTable(client, table([index('gsi1', 'ALL'), index('gsi3', 'KEYS_ONLY')]));
    const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
    expect(
      Table?.GlobalSecondaryIndexes?.map((i) => [i.IndexName, i.Projection?.ProjectionType, i.IndexStatus]),
    ).toEqual(
      expect.arrayContaining([
        ['gsi1', 'ALL', 'ACTIVE'],
        ['gsi3', 'KEYS_ONLY', 'ACTIVE'],
      ]),
    );
    const { Items } = await documents.send(
      new QueryCommand({
        TableName: name,
        IndexName: 'gsi3',
        KeyConditionExpression: 'gsi3pk = :pk',
        ExpressionAttributeValues: { ':pk': 'FLOOR#f1' },
      }),
    );
    // Keys only: what a reading writes (latest values) is not in the index.
    expect(Items).toEqual([{ pk: 'DEVICE#d1', sk: 'DEVICE', gsi3pk: 'FLOOR#f1', gsi3sk: 'd1' }]);
    // Nothing left to add: a start after that changes nothing.
    await ensureTable(client, table([index('gsi1', 'ALL'), index('gsi3', 'KEYS_ONLY')]));
  });
});

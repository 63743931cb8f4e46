import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  type CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  DescribeUserPoolCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
  type KeySchemaElement,
  type Projection,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import {
  type IndexDefinition,
  type KeyAttribute,
  tables,
  type TableDefinition,
  userPool,
} from '../src/definitions';

export interface PoolIds {
  userPoolId: string;
  userPoolClientId: string;
}

const keySchema = (pk: KeyAttribute, sk?: KeyAttribute): KeySchemaElement[] => [
  { AttributeName: pk.name, KeyType: 'HASH' },
  ...(sk ? [{ AttributeName: sk.name, KeyType: 'RANGE' as const }] : []),
];

/** Creates a table exactly as the definition (shared with CDK) describes it, if it does not exist. */
export async function ensureTable(client: DynamoDBClient, table: TableDefinition): Promise<void> {
  const attributes = new Map<string, 'S' | 'N'>();
  const keyAttributes = [
    table.partitionKey,
    table.sortKey,
    ...table.globalIndexes.flatMap((i) => [i.partitionKey, i.sortKey]),
  ];
  for (const attribute of keyAttributes) if (attribute) attributes.set(attribute.name, attribute.type);
  try {
    await client.send(
      new CreateTableCommand({
        TableName: table.localName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [...attributes].map(([AttributeName, AttributeType]) => ({
          AttributeName,
          AttributeType,
        })),
        KeySchema: keySchema(table.partitionKey, table.sortKey),
        ...(table.globalIndexes.length > 0
          ? {
              GlobalSecondaryIndexes: table.globalIndexes.map((index) => ({
                IndexName: index.indexName,
                KeySchema: keySchema(index.partitionKey, index.sortKey),
                Projection: projection(index),
              })),
            }
          : {}),
        ...(table.stream
          ? { StreamSpecification: { StreamEnabled: true, StreamViewType: table.stream } }
          : {}),
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
    // A table kept from an earlier start: give it the indexes and the stream it may lack.
    await ensureIndexes(client, table);
    if (table.stream) await ensureStream(client, table.localName, table.stream);
  }
  if (table.timeToLiveAttribute) {
    const { TimeToLiveDescription } = await client.send(
      new DescribeTimeToLiveCommand({ TableName: table.localName }),
    );
    if (TimeToLiveDescription?.TimeToLiveStatus !== 'ENABLED') {
      await client.send(
        new UpdateTimeToLiveCommand({
          TableName: table.localName,
          TimeToLiveSpecification: { AttributeName: table.timeToLiveAttribute, Enabled: true },
        }),
      );
    }
  }
}

/** An index's projection as DynamoDB takes it (DynamoDB Local honours it). */
function projection(index: IndexDefinition): Projection {
  const value = index.projection;
  if (value === 'ALL' || value === 'KEYS_ONLY') return { ProjectionType: value };
  return { ProjectionType: 'INCLUDE', NonKeyAttributes: [...value.include] };
}

/**
 * Adds the indexes a kept table lacks, one at a time as DynamoDB requires, each waited for until it
 * is active (DynamoDB Local backfills existing items into it).
 */
async function ensureIndexes(client: DynamoDBClient, table: TableDefinition): Promise<void> {
  const describe = async () =>
    (await client.send(new DescribeTableCommand({ TableName: table.localName }))).Table;
  const existing = new Set((await describe())?.GlobalSecondaryIndexes?.map((i) => i.IndexName));
  for (const index of table.globalIndexes.filter((i) => !existing.has(i.indexName))) {
    await client.send(
      new UpdateTableCommand({
        TableName: table.localName,
        AttributeDefinitions: [index.partitionKey, index.sortKey].flatMap((a) =>
          a ? [{ AttributeName: a.name, AttributeType: a.type }] : [],
        ),
        GlobalSecondaryIndexUpdates: [
          {
            Create: {
              IndexName: index.indexName,
              KeySchema: keySchema(index.partitionKey, index.sortKey),
              Projection: projection(index),
            },
          },
        ],
      }),
    );
    for (let tries = 0; ; tries++) {
      const status = (await describe())?.GlobalSecondaryIndexes?.find(
        (i) => i.IndexName === index.indexName,
      )?.IndexStatus;
      if (status === 'ACTIVE') break;
      if (tries === 600) throw new Error(`Index ${index.indexName} of ${table.localName} stayed ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function ensureStream(
  client: DynamoDBClient,
  tableName: string,
  viewType: NonNullable<TableDefinition['stream']>,
): Promise<void> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const current = Table?.StreamSpecification;
  if (current?.StreamEnabled && current.StreamViewType === viewType) return;
  if (current?.StreamEnabled) {
    await client.send(
      new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: false } }),
    );
  }
  await client.send(
    new UpdateTableCommand({
      TableName: tableName,
      StreamSpecification: { StreamEnabled: true, StreamViewType: viewType },
    }),
  );
}

export async function provisionTables(client: DynamoDBClient): Promise<void> {
  for (const table of tables) await ensureTable(client, table);
}

/** The user pool and its app client, created once and remembered in the data directory. */
export async function provisionUserPool(
  client: CognitoIdentityProviderClient,
  dataDir: string,
): Promise<PoolIds> {
  const stateFile = path.join(dataDir, 'user-pool.json');
  if (existsSync(stateFile)) {
    const saved = JSON.parse(readFileSync(stateFile, 'utf8')) as PoolIds;
    const exists = await client
      .send(new DescribeUserPoolCommand({ UserPoolId: saved.userPoolId }))
      .then(() => true)
      .catch(() => false);
    if (exists) return saved;
  }
  const policy = userPool.passwordPolicy;
  const { UserPool } = await client.send(
    new CreateUserPoolCommand({
      PoolName: userPool.localName,
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      Policies: {
        PasswordPolicy: {
          MinimumLength: policy.minLength,
          RequireLowercase: policy.requireLowercase,
          RequireUppercase: policy.requireUppercase,
          RequireNumbers: policy.requireDigits,
          RequireSymbols: policy.requireSymbols,
        },
      },
    }),
  );
  if (!UserPool?.Id) throw new Error('cognito-local did not create the user pool');
  const { UserPoolClient } = await client.send(
    new CreateUserPoolClientCommand({
      UserPoolId: UserPool.Id,
      ClientName: 'web',
      ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      GenerateSecret: false,
    }),
  );
  if (!UserPoolClient?.ClientId) throw new Error('cognito-local did not create the app client');
  const ids = { userPoolId: UserPool.Id, userPoolClientId: UserPoolClient.ClientId };
  writeFileSync(stateFile, JSON.stringify(ids, null, 2));
  return ids;
}

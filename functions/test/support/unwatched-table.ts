import { randomUUID } from 'node:crypto';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import { ensureTable } from '../../../infra/local/provision';
import type { TableDefinition } from '../../../infra/src/definitions';
import type { ENV } from '../../src/environment';

/**
 * Points the enclosing describe's store calls at a fresh table defined as `table` but with no stream,
 * so none of the local stack's stream consumers (the tree sweeper, the telemetry roll-ups) act on what
 * the tests write: a race a test plays step by step has no third party landing in between.
 */
export function onUnwatchedTable(table: TableDefinition, variable: (typeof ENV)[keyof typeof ENV]) {
  const own = { ...table, localName: `${table.localName}-unwatched-${randomUUID()}`, stream: undefined };
  let kept: string | undefined;
  beforeAll(async () => {
    await ensureTable(new DynamoDBClient({}), own);
    kept = process.env[variable];
    process.env[variable] = own.localName;
  });
  afterAll(async () => {
    process.env[variable] = kept;
    await new DynamoDBClient({}).send(new DeleteTableCommand({ TableName: own.localName }));
  });
}

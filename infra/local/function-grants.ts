import { AsyncLocalStorage } from 'node:async_hooks';
import { DynamoDBServiceException } from '@aws-sdk/client-dynamodb';
import { ForbiddenException, type IoTDataPlaneClient } from '@aws-sdk/client-iot-data-plane';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { platformTable, type TableDefinition, telemetryTable } from '../src/definitions';
import {
  type FunctionName,
  functionAccess,
  iotAccessAllows,
  type IotTouch,
  type TableGrant,
  tableAccessAllows,
  tableGrants,
  type TableKind,
  type TableTouch,
} from '../src/function-access';

/**
 * The local stack runs every function in this one process, with one client per service, and neither
 * DynamoDB Local nor the broker evaluates IAM. So each invocation runs as its function (`asFunction`),
 * and every DynamoDB and IoT data-plane request it makes is weighed as IAM weighs it against that
 * function's statements (infra/src/function-access.ts): one it would not allow fails as on AWS (an
 * AccessDeniedException, a ForbiddenException). What runs as no function (the stack's own seeding, a
 * test's fixtures) is the account's administrator.
 */

const running = new AsyncLocalStorage<FunctionName>();

/** Runs `work` (and everything it starts) as the function `name`. */
export function asFunction<T>(name: FunctionName, work: () => T): T {
  return running.run(name, work);
}

/** A function's handler that runs as that function wherever it is called. */
export const invokedAs =
  <Args extends unknown[], Result>(name: FunctionName, handler: (...args: Args) => Result) =>
  (...args: Args): Result =>
    asFunction(name, () => handler(...args));

type Attribute = Record<string, unknown>;
type Item = Record<string, Attribute | undefined>;

/** The tables by their physical names, and what IAM reads of their keys. */
export interface TableNames {
  platform: string;
  telemetry: string;
}

const definitions: Record<TableKind, TableDefinition> = {
  platform: platformTable,
  telemetry: telemetryTable,
};

/** A key attribute's value as IAM's `dynamodb:LeadingKeys` sees it (a string or number attribute). */
const scalar = (attribute: Attribute | undefined): string | undefined => {
  const value = attribute?.S ?? attribute?.N;
  return typeof value === 'string' ? value : undefined;
};

/**
 * The items a low-level DynamoDB request touches, as IAM authorizes them: a batch's items each as the
 * batch's action, a transaction's items each as its own action (Put as PutItem, a condition check as
 * ConditionCheckItem), a query by the partition key value its key condition names, a scan by none.
 */
export function tableTouches(
  command: string,
  input: Record<string, unknown>,
  names: TableNames,
): TableTouch[] {
  const kindOf = (tableName: unknown): TableKind | undefined =>
    tableName === names.platform ? 'platform' : tableName === names.telemetry ? 'telemetry' : undefined;
  const touch = (action: string, tableName: unknown, key?: Item): TableTouch => {
    const table = kindOf(tableName);
    const pk = table && key ? scalar(key[definitions[table].partitionKey.name]) : undefined;
    return { action: `dynamodb:${action}`, ...(table ? { table } : {}), ...(pk !== undefined ? { pk } : {}) };
  };
  const requests = (input.RequestItems ?? {}) as Record<string, unknown>;
  switch (command) {
    case 'BatchGetItemCommand':
      return Object.entries(requests).flatMap(([tableName, request]) =>
        ((request as { Keys?: Item[] }).Keys ?? []).map((key) => touch('BatchGetItem', tableName, key)),
      );
    case 'BatchWriteItemCommand':
      return Object.entries(requests).flatMap(([tableName, writes]) =>
        (writes as { PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } }[]).map((write) =>
          touch('BatchWriteItem', tableName, write.PutRequest?.Item ?? write.DeleteRequest?.Key),
        ),
      );
    case 'TransactWriteItemsCommand':
    case 'TransactGetItemsCommand':
      return (
        (input.TransactItems ?? []) as Record<string, { TableName?: string; Key?: Item; Item?: Item }>[]
      ).flatMap((item) =>
        Object.entries(item).map(([kind, one]) =>
          touch(
            kind === 'ConditionCheck' ? 'ConditionCheckItem' : `${kind}Item`,
            one.TableName,
            one.Key ?? one.Item,
          ),
        ),
      );
    case 'QueryCommand':
      return [queryTouch(input, kindOf(input.TableName))];
    default: {
      const action = command.replace(/Command$/, '');
      const key = (input.Key ?? input.Item) as Item | undefined;
      const index = typeof input.IndexName === 'string' ? { index: input.IndexName } : {};
      return [{ ...touch(action, input.TableName, key), ...index }];
    }
  }
}

/** A query as IAM weighs it: the table or index it reads, and the partition key value it names. */
function queryTouch(input: Record<string, unknown>, table: TableKind | undefined): TableTouch {
  const index = typeof input.IndexName === 'string' ? input.IndexName : undefined;
  const base: TableTouch = {
    action: 'dynamodb:Query',
    ...(table ? { table } : {}),
    ...(index !== undefined ? { index } : {}),
  };
  if (!table) return base;
  const definition = definitions[table];
  const keyName =
    index === undefined
      ? definition.partitionKey.name
      : definition.globalIndexes.find((i) => i.indexName === index)?.partitionKey.name;
  const attributeNames = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const condition = String(input.KeyConditionExpression ?? '').replace(
    /#\w+/g,
    (alias) => attributeNames[alias] ?? alias,
  );
  const placeholder = keyName
    ? new RegExp(`(?:^|[^\\w])${keyName}\\s*=\\s*(:\\w+)`).exec(condition)?.[1]
    : undefined;
  const values = (input.ExpressionAttributeValues ?? {}) as Item;
  const pk = placeholder ? scalar(values[placeholder]) : undefined;
  return { ...base, ...(pk !== undefined ? { pk } : {}) };
}

/** A request IAM would refuse: the function, the command, and the action on what it touched. */
export interface Refusal {
  functionName: FunctionName;
  command: string;
  touch: TableTouch | IotTouch;
}

/** A refusal in a line of a log. */
export function describeRefusal({ functionName, touch }: Refusal): string {
  const what =
    'topic' in touch
      ? `topic ${touch.topic}`
      : 'clientId' in touch
        ? `client ${touch.clientId}`
        : `${touch.table ?? 'another table'}${touch.index ? ` index ${touch.index}` : ''} ${touch.pk ?? ''}`;
  return `${functionName}: ${touch.action} on ${what.trim()}`;
}

const grantsOf = new Map<FunctionName, TableGrant[]>();
const grantsFor = (name: FunctionName) => {
  let grants = grantsOf.get(name);
  if (!grants) {
    grants = tableGrants(functionAccess[name]);
    grantsOf.set(name, grants);
  }
  return grants;
};

/** AWS's answer to a request no statement allows (HTTP 400, not retried). */
function accessDenied(name: FunctionName, touch: TableTouch, names: TableNames): DynamoDBServiceException {
  const table = touch.table ? names[touch.table] : 'unknown';
  const resource = `arn:aws:dynamodb:local:000000000000:table/${table}${touch.index ? `/index/${touch.index}` : ''}`;
  return new DynamoDBServiceException({
    name: 'AccessDeniedException',
    $fault: 'client',
    $metadata: { httpStatusCode: 400 },
    message:
      `User: arn:aws:sts::000000000000:assumed-role/${name}/${name} is not authorized to perform: ` +
      `${touch.action} on resource: ${resource} because no identity-based policy allows the ${touch.action} action`,
  });
}

const MIDDLEWARE = 'functionTableGrants';

/**
 * Makes `client` refuse, as AWS does, every request of a function (see `asFunction`) that its table
 * statements do not allow; `refused` hears of each. Installed once per client.
 */
export function enforceTableGrants(
  client: Pick<DynamoDBDocumentClient, 'middlewareStack'>,
  names: TableNames,
  refused: (refusal: Refusal) => void = () => undefined,
): void {
  client.middlewareStack.remove(MIDDLEWARE);
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const functionName = running.getStore();
      if (functionName && context.commandName) {
        const grants = grantsFor(functionName);
        const input = args.input as Record<string, unknown>;
        for (const touch of tableTouches(context.commandName, input, names)) {
          if (tableAccessAllows(grants, touch)) continue;
          refused({ functionName, command: context.commandName, touch });
          throw accessDenied(functionName, touch, names);
        }
      }
      return next(args);
    },
    // After the document client marshalled the input: the low-level request, as IAM sees it.
    { step: 'build', name: MIDDLEWARE },
  );
}

const IOT_MIDDLEWARE = 'functionIotGrants';

/** The data-plane request a command makes, as IAM authorizes it; undefined for one IAM does not weigh here. */
function iotTouchOf(command: string, input: Record<string, unknown>): IotTouch | undefined {
  if (command === 'PublishCommand') return { action: 'iot:Publish', topic: String(input.topic) };
  if (command === 'DeleteConnectionCommand')
    return { action: 'iot:DeleteConnection', clientId: String(input.clientId) };
  return undefined;
}

/**
 * Makes the IoT data-plane `client` refuse, as AWS does, a function's publish to a topic its role does
 * not name, or its closing of a connection it may not close (403, ForbiddenException); `refused`
 * hears of each.
 */
export function enforceIotGrants(
  client: Pick<IoTDataPlaneClient, 'middlewareStack'>,
  refused: (refusal: Refusal) => void = () => undefined,
): void {
  client.middlewareStack.remove(IOT_MIDDLEWARE);
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const functionName = running.getStore();
      const touch =
        functionName && context.commandName
          ? iotTouchOf(context.commandName, args.input as Record<string, unknown>)
          : undefined;
      if (functionName && touch && !iotAccessAllows(functionAccess[functionName], touch)) {
        refused({ functionName, command: context.commandName ?? '', touch });
        const resource = 'topic' in touch ? `topic/${touch.topic}` : `client/${touch.clientId}`;
        throw new ForbiddenException({
          $metadata: { httpStatusCode: 403 },
          message:
            `User: arn:aws:sts::000000000000:assumed-role/${functionName}/${functionName} is not authorized ` +
            `to perform: ${touch.action} on resource: arn:aws:iot:local:000000000000:${resource}`,
        });
      }
      return next(args);
    },
    { step: 'initialize', name: IOT_MIDDLEWARE },
  );
}

/**
 * Holds the handlers' clients in this process (the platform's DynamoDB and IoT data-plane clients) to
 * the roles of the functions that use them; `refused` hears of each request refused. The handlers'
 * environment must be set first (the clients read it when they are made).
 */
export async function enforceFunctionGrants(refused: (refusal: Refusal) => void): Promise<void> {
  const { dynamo } = await import('@argentum/functions/aws/dynamo');
  const { iotData } = await import('@argentum/functions/aws/iot-data');
  enforceTableGrants(
    dynamo(),
    { platform: platformTable.localName, telemetry: telemetryTable.localName },
    refused,
  );
  enforceIotGrants(iotData(), refused);
}

import { AsyncLocalStorage } from 'node:async_hooks';
import { ENV } from '@argentum/functions/environment';
import { DynamoDBServiceException } from '@aws-sdk/client-dynamodb';
import { ForbiddenException, type IoTDataPlaneClient } from '@aws-sdk/client-iot-data-plane';
import { CognitoIdentityProviderServiceException } from '@aws-sdk/client-cognito-identity-provider';
import { type S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { SESServiceException } from '@aws-sdk/client-ses';
import { SecretsManagerServiceException } from '@aws-sdk/client-secrets-manager';
import { SQSServiceException } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  archiveBucket,
  filesBucket,
  platformTable,
  type TableDefinition,
  telemetryTable,
} from '../src/definitions';
import {
  type FunctionName,
  functionAccess,
  iotAccessAllows,
  type IotTouch,
  type QueueKind,
  s3AccessAllows,
  type S3Touch,
  type SecretKind,
  serviceAccessAllows,
  type ServiceTouch,
  type TableGrant,
  tableAccessAllows,
  tableGrants,
  type TableKind,
  type TableTouch,
} from '../src/function-access';

/**
 * The local stack runs every function in this one process, with one client per service, and neither
 * DynamoDB Local, the broker nor s3rver evaluates IAM. So each invocation runs as its function
 * (`asFunction`), and every DynamoDB, IoT data-plane and S3 request it makes is weighed as IAM weighs
 * it against that function's statements (infra/src/function-access.ts): one it would not allow fails
 * as on AWS (AccessDeniedException, ForbiddenException, AccessDenied). What runs as no function (the
 * stack's own seeding, a test's fixtures) is the account's administrator.
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

/** A request IAM would refuse: the function, the command, what it asked and on what (its ARN). */
export interface Refusal {
  functionName: FunctionName;
  command: string;
  touch: TableTouch | IotTouch | S3Touch | ServiceTouch;
  /** The resource as AWS's refusal names it (and, for an item, its partition key). */
  resource: string;
}

/** A refusal in a line of a log. */
export const describeRefusal = ({ functionName, touch, resource }: Refusal): string =>
  `${functionName}: ${touch.action} on ${resource}`;

/** A service's exception class (the SDK's, whose `name` and status a caller reads). */
type ServiceException = new (options: {
  name: string;
  $fault: 'client';
  $metadata: { httpStatusCode: number };
  message: string;
}) => Error;

/** How a service answers a refused request: its exception, by the name and HTTP status AWS gives it. */
const deniedAs =
  (Exception: ServiceException, name: string, httpStatusCode: number) =>
  (message: string): Error =>
    new Exception({ name, $fault: 'client', $metadata: { httpStatusCode }, message });

/** AWS's words for a request no statement of the role allows. */
const notAuthorized = (name: FunctionName, action: string, resource: string) =>
  `User: arn:aws:sts::000000000000:assumed-role/${name}/${name} is not authorized to perform: ` +
  `${action} on resource: ${resource} because no identity-based policy allows the ${action} action`;

const grantsOf = new Map<FunctionName, TableGrant[]>();
const grantsFor = (name: FunctionName) => {
  let grants = grantsOf.get(name);
  if (!grants) {
    grants = tableGrants(functionAccess[name]);
    grantsOf.set(name, grants);
  }
  return grants;
};

/** What a request asks that its function's role does not allow: what, on what, and AWS's answer. */
interface Denial {
  touch: Refusal['touch'];
  /** The resource as AWS's refusal names it. */
  resource: string;
  /** For the log, when more than the resource says it (an item's partition key). */
  logged?: string;
  answer(message: string): Error;
}

/**
 * The one check of every enforcer, as a middleware for the build step of a client's stack: after the
 * document client marshalled its input (the request as IAM sees it), before signing (so a URL
 * presigned for a request the role does not allow is refused too). A request made as a function
 * (`asFunction`) that `denial` finds its role does not allow is refused, and `refused` hears of it; it
 * is not sent. What runs as no function goes through.
 */
const refusing =
  (
    denial: (
      functionName: FunctionName,
      command: string,
      input: Record<string, unknown>,
    ) => Denial | undefined,
    refused: (refusal: Refusal) => void,
  ) =>
  <Args extends { input: object }, Result>(
    next: (args: Args) => Promise<Result>,
    context: { commandName?: string },
  ) =>
  async (args: Args): Promise<Result> => {
    const functionName = running.getStore();
    const command = context.commandName;
    const denied =
      functionName && command
        ? denial(functionName, command, args.input as Record<string, unknown>)
        : undefined;
    if (functionName && command && denied) {
      const { touch, resource, logged } = denied;
      refused({ functionName, command, touch, resource: logged ?? resource });
      throw denied.answer(notAuthorized(functionName, touch.action, resource));
    }
    return next(args);
  };

/**
 * Makes `client` refuse, as AWS does, every request of a function (see `asFunction`) that its table
 * statements do not allow (HTTP 400, AccessDeniedException, not retried); `refused` hears of each.
 */
export function enforceTableGrants(
  client: Pick<DynamoDBDocumentClient, 'middlewareStack'>,
  names: TableNames,
  refused: (refusal: Refusal) => void = () => undefined,
): void {
  client.middlewareStack.add(
    refusing((functionName, command, input) => {
      const grants = grantsFor(functionName);
      const touch = tableTouches(command, input, names).find((one) => !tableAccessAllows(grants, one));
      if (!touch) return undefined;
      const table = touch.table ? names[touch.table] : String(input.TableName ?? 'unknown');
      const resource = `arn:aws:dynamodb:local:000000000000:table/${table}${touch.index ? `/index/${touch.index}` : ''}`;
      return {
        touch,
        resource,
        ...(touch.pk !== undefined ? { logged: `${resource} (key ${touch.pk})` } : {}),
        answer: deniedAs(DynamoDBServiceException, 'AccessDeniedException', 400),
      };
    }, refused),
    { step: 'build', name: 'functionTableGrants', override: true },
  );
}

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
  client.middlewareStack.add(
    refusing((functionName, command, input) => {
      const touch = iotTouchOf(command, input);
      if (!touch || iotAccessAllows(functionAccess[functionName], touch)) return undefined;
      const resource = `arn:aws:iot:local:000000000000:${'topic' in touch ? `topic/${touch.topic}` : `client/${touch.clientId}`}`;
      return {
        touch,
        resource,
        answer: (message) => new ForbiddenException({ $metadata: { httpStatusCode: 403 }, message }),
      };
    }, refused),
    { step: 'build', name: 'functionIotGrants', override: true },
  );
}

/**
 * Holds the handlers' clients in this process (the platform's DynamoDB, IoT data-plane, S3, Cognito,
 * SES, SQS and Secrets Manager clients) to the roles of the functions that use them; `refused` hears
 * of each request refused. The handlers' environment must be set first (the clients read it when
 * they are made).
 */
export async function enforceFunctionGrants(refused: (refusal: Refusal) => void): Promise<void> {
  const { dynamo } = await import('@argentum/functions/aws/dynamo');
  const { iotData } = await import('@argentum/functions/aws/iot-data');
  const { s3 } = await import('@argentum/functions/aws/s3');
  enforceTableGrants(
    dynamo(),
    { platform: platformTable.localName, telemetry: telemetryTable.localName },
    refused,
  );
  enforceIotGrants(iotData(), refused);
  enforceS3Grants(s3(), { files: filesBucket.localName, archive: archiveBucket.localName }, refused);
  const { cognito } = await import('@argentum/functions/aws/cognito');
  const { ses } = await import('@argentum/functions/aws/ses');
  const { sqs } = await import('@argentum/functions/aws/sqs');
  const { secretsManager } = await import('@argentum/functions/aws/secrets-manager');
  const settings = serviceNamesOf(process.env);
  // A stack started again in this process (a test's) takes the checks over: `override`.
  const at = (name: string) => ({ step: 'build' as const, name, override: true });
  cognito().middlewareStack.add(serviceGrantsCheck('cognito-idp', settings, refused), at('cognitoGrants'));
  ses().middlewareStack.add(serviceGrantsCheck('ses', settings, refused), at('sesGrants'));
  sqs().middlewareStack.add(serviceGrantsCheck('sqs', settings, refused), at('sqsGrants'));
  secretsManager().middlewareStack.add(
    serviceGrantsCheck('secretsmanager', settings, refused),
    at('secretsGrants'),
  );
}

/** The actions of the S3 commands, as IAM names them (HeadObject is authorized as GetObject). */
const s3Actions: Record<string, string> = {
  GetObjectCommand: 's3:GetObject',
  HeadObjectCommand: 's3:GetObject',
  PutObjectCommand: 's3:PutObject',
  CreateMultipartUploadCommand: 's3:PutObject',
  UploadPartCommand: 's3:PutObject',
  CompleteMultipartUploadCommand: 's3:PutObject',
  DeleteObjectCommand: 's3:DeleteObject',
  ListObjectsV2Command: 's3:ListBucket',
};

/** The buckets by their physical names. */
export interface BucketNames {
  files: string;
  archive: string;
}

/** What an S3 command asks, as IAM authorizes it: the action on the key (or, listing, the prefix). */
export function s3TouchOf(command: string, input: Record<string, unknown>, names: BucketNames): S3Touch {
  const bucket =
    input.Bucket === names.files ? 'files' : input.Bucket === names.archive ? 'archive' : undefined;
  const action = s3Actions[command] ?? `s3:${command.replace(/Command$/, '')}`;
  const listing = action === 's3:ListBucket';
  const where =
    listing && typeof input.Prefix === 'string'
      ? { prefix: input.Prefix }
      : !listing && typeof input.Key === 'string'
        ? { key: input.Key }
        : {};
  return { action, ...(bucket ? { bucket } : {}), ...where };
}

/**
 * Each function's own access key, as each role's session has its own credentials on AWS: a request
 * signed as a function names it, so S3 can weigh what the function signed against its role. The
 * secret is the stack's (the S3 gate knows these keys: `functionCredentials`).
 */
export const functionAccessKeyId = (name: FunctionName): string =>
  `LOCALROLE${name.replace(/-/g, '').toUpperCase()}`;

const signers = new Map(
  (Object.keys(functionAccess) as FunctionName[]).map((name) => [functionAccessKeyId(name), name]),
);

/** The key pairs of the functions' sessions, for the S3 gate: each function's key, the stack's secret. */
export const functionCredentials = (secret: string): Record<string, string> =>
  Object.fromEntries([...signers.keys()].map((accessKeyId) => [accessKeyId, secret]));

/**
 * Makes the S3 `client` refuse, as AWS does, a function's request its role does not allow (403,
 * AccessDenied). A URL presigned for a request the role does not allow is refused when it is made
 * (on AWS, when the browser uses it). What a function signs carries its own access key
 * (`functionAccessKeyId`), so an upload form it presigns, which no command sends, is weighed by the
 * S3 gate when the browser posts it (`signerMayUpload`).
 */
export function enforceS3Grants(
  client: Pick<S3Client, 'middlewareStack' | 'config'>,
  names: BucketNames,
  refused: (refusal: Refusal) => void = () => undefined,
): void {
  client.middlewareStack.add(
    refusing((functionName, command, input) => {
      const touch = s3TouchOf(command, input, names);
      if (s3AccessAllows(functionAccess[functionName], touch)) return undefined;
      const key = touch.key !== undefined ? `/${touch.key}` : '';
      return {
        touch,
        resource: `arn:aws:s3:::${String(input.Bucket)}${key}`,
        answer: deniedAs(S3ServiceException, 'AccessDenied', 403),
      };
    }, refused),
    { step: 'build', name: 'functionS3Grants', override: true },
  );
  // Defined over the SDK's own property, whose setter would memoize the first function's identity.
  const credentials = client.config.credentials;
  const signedAs: typeof credentials = async (...args) => {
    const identity = await credentials(...args);
    const name = running.getStore();
    return name ? { ...identity, accessKeyId: functionAccessKeyId(name) } : identity;
  };
  Object.defineProperty(client.config, 'credentials', {
    get: () => signedAs,
    enumerable: true,
    configurable: true,
  });
}

/**
 * The S3 gate's check of a browser's upload (S3's PostObject): whether the role of the function that
 * signed its form (by the form's access key) allows `s3:PutObject` on its key. A form signed by no
 * function (the stack's own key) is the administrator's. `refused` hears of each refusal.
 */
export const signerMayUpload =
  (names: BucketNames, refused: (refusal: Refusal) => void = () => undefined) =>
  (accessKeyId: string, bucket: string, key: string): boolean => {
    const functionName = signers.get(accessKeyId);
    if (!functionName) return true;
    const touch = s3TouchOf('PutObjectCommand', { Bucket: bucket, Key: key }, names);
    if (s3AccessAllows(functionAccess[functionName], touch)) return true;
    refused({ functionName, command: 'PostObject', touch, resource: `arn:aws:s3:::${bucket}/${key}` });
    return false;
  };

/** Cognito's calls made with a user's tokens or none: IAM does not weigh them. */
const PUBLIC_USER_POOL_CALLS = new Set([
  'InitiateAuth',
  'RespondToAuthChallenge',
  'RevokeToken',
  'GlobalSignOut',
  'GetUser',
  'ChangePassword',
  'ForgotPassword',
  'ConfirmForgotPassword',
  'SignUp',
  'ConfirmSignUp',
  'GetTokensFromRefreshToken',
]);

/** The platform's queues by their URLs, as the handlers' environment names them. */
export type QueueUrls = Record<QueueKind, string | undefined>;
/** The platform's secrets by their ids (ARNs on AWS, names here), named in the handlers' environment. */
export type SecretIds = Record<SecretKind, string | undefined>;

/** What the handlers' environment names: the mail sender, the queues and the secrets. */
export interface ServiceNames {
  mailFrom: string;
  queues: QueueUrls;
  secrets: SecretIds;
}

/** What the handlers' environment `env` names. */
export const serviceNamesOf = (env: NodeJS.ProcessEnv): ServiceNames => ({
  mailFrom: env[ENV.mailFrom] ?? '',
  queues: { mail: env[ENV.mailQueueUrl], telemetryDeadLetters: env[ENV.telemetryDeadLetterQueueUrl] },
  secrets: {
    realtimeSigningKey: env[ENV.realtimeSigningSecretId],
    planSigningKey: env[ENV.planSigningSecretId],
    ryse: env[ENV.ryseSecretId],
    nest: env[ENV.nestSecretId],
    ecobee: env[ENV.ecobeeSecretId],
  },
});

/** The services the platform reaches besides its tables, the IoT data plane and S3. */
export type Service = 'cognito-idp' | 'ses' | 'sqs' | 'secretsmanager';

/**
 * What a Cognito, SES, SQS or Secrets Manager command asks, as IAM authorizes it; undefined for a
 * public call.
 */
export function serviceTouchOf(
  service: Service,
  command: string,
  input: Record<string, unknown>,
  names: Pick<ServiceNames, 'queues' | 'secrets'>,
): ServiceTouch | undefined {
  const call = command.replace(/Command$/, '');
  if (service === 'cognito-idp')
    return PUBLIC_USER_POOL_CALLS.has(call) ? undefined : { action: `cognito-idp:${call}` };
  if (service === 'ses') {
    return { action: `ses:${call}`, ...(typeof input.Source === 'string' ? { from: input.Source } : {}) };
  }
  if (service === 'secretsmanager') {
    const { secrets } = names;
    const secret = (Object.keys(secrets) as SecretKind[]).find((kind) => secrets[kind] === input.SecretId);
    return { action: `secretsmanager:${call}`, ...(secret ? { secret } : {}) };
  }
  const sending = call === 'SendMessage' || call === 'SendMessageBatch';
  const { queues } = names;
  const queue = (Object.keys(queues) as QueueKind[]).find((kind) => queues[kind] === input.QueueUrl);
  return { action: sending ? 'sqs:SendMessage' : `sqs:${call}`, ...(queue ? { queue } : {}) };
}

/** The exception each service answers a refused request with. */
const serviceAnswers: Record<Service, (message: string) => Error> = {
  'cognito-idp': deniedAs(CognitoIdentityProviderServiceException, 'AccessDeniedException', 400),
  ses: deniedAs(SESServiceException, 'AccessDenied', 403),
  sqs: deniedAs(SQSServiceException, 'AccessDenied', 403),
  secretsmanager: deniedAs(SecretsManagerServiceException, 'AccessDeniedException', 400),
};

/**
 * The check for a Cognito, SES, SQS or Secrets Manager client's build step
 * (`client.middlewareStack.add(check, { step: 'build', name })`): it refuses, as AWS does, a
 * function's request its role does not allow: an admin action on the user pool without
 * `userPoolAdmin`, mail from another sender than `mailFrom` or without `sendMail`, a message to a
 * queue it does not send to, a secret it may not read (or store a value of).
 */
export function serviceGrantsCheck(
  service: Service,
  settings: ServiceNames,
  refused: (refusal: Refusal) => void = () => undefined,
) {
  return refusing((functionName, command, input) => {
    const touch = serviceTouchOf(service, command, input, settings);
    if (!touch || serviceAccessAllows(functionAccess[functionName], touch, settings.mailFrom))
      return undefined;
    const target =
      service === 'sqs'
        ? String(input.QueueUrl)
        : service === 'ses'
          ? `identity/${touch.from ?? ''}`
          : service === 'secretsmanager'
            ? `secret:${String(input.SecretId)}`
            : 'userpool/local';
    return {
      touch,
      resource: `arn:aws:${service}:local:000000000000:${target}`,
      answer: serviceAnswers[service],
    };
  }, refused);
}

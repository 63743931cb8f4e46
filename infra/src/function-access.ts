/**
 * What each function may do on the DynamoDB tables and the IoT data plane, described once: the CDK
 * stack turns it into each function's IAM statements (infra/cdk/constructs/platform-function.ts), and
 * the local stack refuses every request of a function that those statements would not allow
 * (infra/local/function-grants.ts), as AWS does, although DynamoDB Local and the broker evaluate no IAM.
 */

import { basicIngestTopic, BROWSER_CLIENT_ID_PREFIX, topics } from '@argentum/contracts/messaging';
import {
  commandKeyPrefix,
  connectionKeyPrefix,
  keys,
  VENDOR_POLL_PARTITION,
} from '@argentum/functions/stores/keys';
import type { ApiDomain } from '@argentum/functions/http/types';
import {
  FLOOR_PLAN_PREFIX,
  FLOOR_PLAN_RENDITION_SUFFIX,
  FLOOR_PLAN_STAGING_PREFIX,
  LOGO_PREFIX,
  LOGO_STAGING_PREFIX,
} from '@argentum/functions/domain/files/keys';
import { EXPORT_PREFIX } from '@argentum/functions/domain/export/keys';
import { ARCHIVE_ROOT } from '@argentum/functions/domain/telemetry/archive';
import { TELEMETRY_RULE_NAME } from './definitions';

/** Each Lambda function, by its entry file in functions/src/lambda. */
export type FunctionName =
  | `api-${ApiDomain}`
  | 'ingest'
  | 'realtime-authorizer'
  | 'realtime-signing-key'
  | 'control-confirmations'
  | 'presence-sweep'
  | 'vendor-poller'
  | 'tree-sweeper'
  | 'plan-renditions'
  | 'telemetry-rollups'
  | 'mailer';

/**
 * Narrower than a whole-table grant: these DynamoDB actions only, on the platform table or one of its
 * indexes, and only on items whose partition key starts with a prefix (IAM `dynamodb:LeadingKeys`).
 */
export interface TableStatement {
  actions: readonly string[];
  index?: string;
  partitionKeyPrefix?: string;
}

/** Object access under one key prefix of the files bucket (functions/src/domain/files/keys.ts). */
export interface FileGrant {
  prefix: string;
  /** GetObject (and HeadObject); also lets the function presign read URLs. */
  read?: boolean;
  /** PutObject; also lets the function presign upload forms for keys under the prefix. */
  write?: boolean;
  delete?: boolean;
  /** Only keys under the prefix that end with this (say, one kind of object beside others). */
  suffix?: string;
}

/**
 * The platform's secrets, by what they hold: the private keys that sign real-time connection tokens
 * and floor plan URLs (made at deploy), and each vendor's credentials (set by an operator).
 */
export type SecretKind = 'realtimeSigningKey' | 'planSigningKey' | 'ryse' | 'nest' | 'ecobee';

/** A secret a function reads, and (write) stores new values of (Ecobee's rotating refresh token). */
export interface SecretGrant {
  secret: SecretKind;
  write?: boolean;
}

/** The Secrets Manager actions a grant allows. */
export const secretActions = (grant: SecretGrant): string[] => [
  'secretsmanager:GetSecretValue',
  'secretsmanager:DescribeSecret',
  ...(grant.write ? ['secretsmanager:PutSecretValue'] : []),
];

/**
 * A function's access to the tables, the IoT data plane, the buckets, the user pool, mail, queues
 * and secrets (the rest of its role, Timestream's and the platform's own, is the CDK stack's).
 */
export interface RoleAccess {
  platformTable?: 'read' | 'readWrite';
  /** For functions that need less than `platformTable: 'read'`: exactly these statements. */
  platformTableStatements?: readonly TableStatement[];
  telemetryTable?: 'read' | 'readWrite';
  /**
   * Record real-time connections: PutItem on the platform table, only on items whose partition key
   * is a connection's (`CONN#...`). For the realtime authorizer, which otherwise only reads.
   */
  recordConnections?: boolean;
  /** MQTT topic patterns (`*` for ids) the function may publish to through the IoT data plane. */
  publishTopics?: readonly string[];
  /** Close browsers' MQTT connections (IoT data plane DeleteConnection), to revoke real-time access. */
  closeConnections?: boolean;
  /** Objects of the files bucket (floor plans, logos, uploads, exports), by key prefix. */
  files?: readonly FileGrant[];
  /** Read the archive of raw readings (objects under `readings/`). */
  readingArchive?: 'read';
  /** Cognito admin actions on the platform's user pool (`USER_POOL_ADMIN_ACTIONS`). */
  userPoolAdmin?: boolean;
  /** SES e-mail, only from the configured sender address. */
  sendMail?: boolean;
  /** The queues it sends messages to (the stack grants SendMessage on each, and names its URL). */
  sendsTo?: readonly QueueKind[];
  /** The secrets it reads (or writes); the stack binds each to its ARN (`PlatformFunction.useSecret`). */
  secrets?: readonly SecretGrant[];
}

/** The queues functions send to: mail jobs (the mailer's), and telemetry that could not be stored. */
export type QueueKind = 'mail' | 'telemetryDeadLetters';

/** What a function with `userPoolAdmin` may do on the user pool. */
export const USER_POOL_ADMIN_ACTIONS = [
  'cognito-idp:AdminCreateUser',
  'cognito-idp:AdminDeleteUser',
  'cognito-idp:AdminDisableUser',
  'cognito-idp:AdminEnableUser',
  'cognito-idp:AdminGetUser',
  'cognito-idp:AdminInitiateAuth',
  'cognito-idp:AdminResetUserPassword',
  'cognito-idp:AdminSetUserPassword',
  'cognito-idp:AdminUpdateUserAttributes',
  'cognito-idp:AdminUserGlobalSignOut',
  // The password rules are read from the pool, so the API can explain a refused password up front.
  'cognito-idp:DescribeUserPool',
  'cognito-idp:ListUsers',
] as const;

// MQTT topic patterns (ids as `*`) each publisher needs, from the shared topic layout.
const controlTopics = topics.control('*', '*'); // also covers {org}/controldata/success|fail
const liveTopics = topics.floorLive('*', '*');
/** Readings published for devices (third-party devices', confirmed values) to the telemetry rule (Basic Ingest). */
const handedOnReadingTopics = basicIngestTopic(TELEMETRY_RULE_NAME, topics.sensorData('*', '*'));
const notificationTopics = topics.notification('*');
const commandStatusTopics = topics.commandStatus('*', '*');

export const DYNAMO_READ = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:Scan',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
] as const;
export const DYNAMO_WRITE = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
] as const;

/** Commands and the states devices confirmed: items under `COMMANDS#` only (stores/commands.ts). */
export const commandItems = (actions: string[]): TableStatement => ({
  actions,
  partitionKeyPrefix: commandKeyPrefix,
});

/**
 * Raising alarms: the device, its organization's members, notifications (each alarm episode's claim
 * of its one notification too), inboxes and alarm state.
 */
export const alarmStatements: readonly TableStatement[] = [
  { actions: ['dynamodb:GetItem'], partitionKeyPrefix: keys.device('').pk },
  { actions: ['dynamodb:BatchGetItem'], partitionKeyPrefix: keys.user('').pk },
  { actions: ['dynamodb:Query'], partitionKeyPrefix: keys.membersPartition('') },
  {
    actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    partitionKeyPrefix: keys.notification('').pk,
  },
  { actions: ['dynamodb:PutItem'], partitionKeyPrefix: keys.episode('').pk },
  { actions: ['dynamodb:PutItem'], partitionKeyPrefix: keys.inboxPartition('') },
  { actions: ['dynamodb:GetItem', 'dynamodb:PutItem'], partitionKeyPrefix: keys.alarms('').pk },
];

/**
 * Moving a device's presence (domain/devices/presence.ts): its item's `presence` map, the sweep's
 * watch list, its organization's alarm settings; raising its offline episodes' alarms.
 */
export const presenceStatements: readonly TableStatement[] = [
  ...alarmStatements,
  { actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], partitionKeyPrefix: keys.device('').pk },
  {
    actions: ['dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:Query'],
    partitionKeyPrefix: keys.presenceWatchPartition(0).replace(/0$/, ''),
  },
  { actions: ['dynamodb:GetItem'], partitionKeyPrefix: keys.org('').pk },
];

/**
 * The confirmation handler (control-confirmations): commands and the states devices confirmed;
 * alarms; the device's presence (its reply or announcement); its reported pairing mode and port
 * values (one-item transaction on the device), which lists a vendor link for the poller when its
 * properties carry one.
 */
const controlConfirmationStatements: readonly TableStatement[] = [
  commandItems(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']),
  ...presenceStatements,
  { actions: ['dynamodb:PutItem'], partitionKeyPrefix: VENDOR_POLL_PARTITION },
];

/** The presence sweep: presence and its alarms, the watched devices read together, due mail digests. */
const presenceSweepStatements: readonly TableStatement[] = [
  ...presenceStatements,
  { actions: ['dynamodb:BatchGetItem'], partitionKeyPrefix: keys.device('').pk },
  { actions: ['dynamodb:Query'], partitionKeyPrefix: keys.alarmDigest('').pk.replace(/DUE$/, '') },
];

/**
 * The mailer: password-reset mail (the e-mail lookup index, reset tokens and the pointer to the
 * latest) and alarm mail (the notification, its organization's name and admins, the ledger that lets
 * each alarm be mailed once, and each recipient's rate window and digest).
 */
const mailerStatements: readonly TableStatement[] = [
  // users.findByEmail: the e-mail lookup index only.
  { actions: ['dynamodb:Query'], index: 'gsi1' },
  // putAccountToken: a new reset token, and the one it supersedes marked used ...
  {
    actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
    partitionKeyPrefix: keys.accountToken('').pk,
  },
  // ... as the pointer to the latest reset token of the e-mail names it.
  {
    actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem'],
    partitionKeyPrefix: keys.latestReset('').pk,
  },
  // An alarm's mail: the notification, its organization's name and admins, and the ledger
  // that lets each alarm be mailed once.
  { actions: ['dynamodb:GetItem'], partitionKeyPrefix: keys.notification('').pk },
  { actions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem'], partitionKeyPrefix: keys.user('').pk },
  { actions: ['dynamodb:Query'], partitionKeyPrefix: keys.membersPartition('') },
  {
    actions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem'],
    partitionKeyPrefix: keys.orgPartition(''),
  },
  {
    actions: ['dynamodb:PutItem', 'dynamodb:DeleteItem'],
    partitionKeyPrefix: keys.alarmMail('', '').pk,
  },
  // Alarm mail per recipient: the window's count, and the digest it collects the rest in.
  { actions: ['dynamodb:UpdateItem'], partitionKeyPrefix: keys.alarmMailRate('', 0).pk },
  {
    actions: ['dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
    partitionKeyPrefix: keys.alarmDigest('').pk.replace(/DUE$/, ''),
  },
];

/**
 * Files by prefix. Users: logo uploads are presigned for, checked and removed under their staging
 * prefix and written to logos/ only after the check; logos are read through presigned URLs. Floor
 * plans: uploads the same way, written to floorplans/ only once sanitized; the floors Lambda only
 * reads them (presigned URLs). The tree sweeper deletes the plans of deleted floors, and so does a
 * plan commit that finds its floor deleted after writing.
 */
const logoFiles: FileGrant[] = [
  { prefix: LOGO_STAGING_PREFIX, read: true, write: true, delete: true },
  { prefix: LOGO_PREFIX, read: true, write: true },
];

/** The vendors' credentials; Ecobee's refresh token rotates on every use, so it is stored again. */
const vendorSecrets: SecretGrant[] = [
  { secret: 'ryse' },
  { secret: 'nest' },
  { secret: 'ecobee', write: true },
];

/**
 * Least privilege per function: only what its use cases touch. Every API domain reads the platform
 * table (roles). Those that reduce a user's access (sign-out and password reset, user administration;
 * and the tree sweeper, when an organization goes) close the user's real-time connections.
 */
export const functionAccess: Record<FunctionName, RoleAccess> = {
  // The auth routes send no mail themselves: forgot-password queues a job for the mailer. It signs
  // real-time connection tokens.
  'api-auth': {
    platformTable: 'readWrite',
    closeConnections: true,
    userPoolAdmin: true,
    sendsTo: ['mail'],
    secrets: [{ secret: 'realtimeSigningKey' }],
  },
  'api-users': {
    platformTable: 'readWrite',
    closeConnections: true,
    files: logoFiles,
    userPoolAdmin: true,
    sendMail: true,
  },
  // Deletes only commit; the tree sweeper removes plans, memberships and the rest.
  'api-tree': { platformTable: 'readWrite' },
  // Both answer plans' signed URLs.
  'api-floors': {
    platformTable: 'readWrite',
    files: [{ prefix: FLOOR_PLAN_PREFIX, read: true }],
    secrets: [{ secret: 'planSigningKey' }],
  },
  'api-floorplans': {
    platformTable: 'read',
    secrets: [{ secret: 'planSigningKey' }],
    files: [
      { prefix: FLOOR_PLAN_STAGING_PREFIX, read: true, write: true, delete: true },
      // Delete: a commit that finds its floor deleted after writing removes the plan and its renditions.
      { prefix: FLOOR_PLAN_PREFIX, read: true, write: true, delete: true },
    ],
  },
  'api-devices': { platformTable: 'readWrite', publishTopics: [controlTopics] },
  // Reads; writes only the shared weather reading of a city.
  'api-data': {
    platformTable: 'read',
    platformTableStatements: [{ actions: ['dynamodb:PutItem'], partitionKeyPrefix: keys.weather('').pk }],
    telemetryTable: 'read',
    // Large exports: written, then read back through presigned links.
    files: [{ prefix: EXPORT_PREFIX, read: true, write: true }],
    // Exports of ranges older than the hot store read the archive of raw readings.
    readingArchive: 'read',
  },
  // Reads users and devices; writes only commands; publishes only to devices' command topics.
  'api-control': {
    platformTable: 'read',
    platformTableStatements: [commandItems(['dynamodb:PutItem', 'dynamodb:UpdateItem'])],
    publishTopics: [controlTopics],
  },
  'api-notifications': { platformTable: 'readWrite' },
  // What the panels read in the vendors' clouds goes on as the devices' readings (Basic Ingest).
  'api-integrations': {
    platformTable: 'readWrite',
    publishTopics: [controlTopics, liveTopics, handedOnReadingTopics],
    secrets: vendorSecrets,
  },
  ingest: {
    platformTable: 'readWrite',
    telemetryTable: 'readWrite',
    publishTopics: [liveTopics, notificationTopics],
    // Comfort alarms' mail; what it could not store.
    sendsTo: ['mail', 'telemetryDeadLetters'],
  },
  // Reads users; writes only the records of the connections it admits.
  'realtime-authorizer': { platformTable: 'read', recordConnections: true },
  // Makes both signing key pairs at deploy time, the private halves straight into their secrets.
  'realtime-signing-key': {
    secrets: [
      { secret: 'realtimeSigningKey', write: true },
      { secret: 'planSigningKey', write: true },
    ],
  },
  // Settles commands and tells browsers the outcome; raises the alarms in devices' messages (offline,
  // pairing, failed commands); presence changes and power node port values on the device's floor; a
  // confirmed value as the device's reading (Basic Ingest).
  'control-confirmations': {
    platformTableStatements: controlConfirmationStatements,
    publishTopics: [commandStatusTopics, notificationTopics, liveTopics, handedOnReadingTopics],
    sendsTo: ['mail'],
  },
  'presence-sweep': {
    platformTableStatements: presenceSweepStatements,
    publishTopics: [notificationTopics, liveTopics],
    sendsTo: ['mail'],
  },
  // Reads the linked devices; takes each due vendor poll off its list; hands their readings on as a
  // device's own go (the telemetry rule's Basic Ingest topic).
  'vendor-poller': {
    platformTableStatements: [
      { actions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem'], partitionKeyPrefix: keys.device('').pk },
      { actions: ['dynamodb:Query', 'dynamodb:DeleteItem'], partitionKeyPrefix: VENDOR_POLL_PARTITION },
    ],
    publishTopics: [handedOnReadingTopics],
    secrets: vendorSecrets,
  },
  // Tree items, device placements and users' memberships; the connections of users who lose access;
  // the floor plans of deleted floors.
  'tree-sweeper': {
    platformTable: 'readWrite',
    closeConnections: true,
    files: [{ prefix: FLOOR_PLAN_PREFIX, delete: true }],
  },
  // Plans and renditions read, renditions written; it deletes only renditions (a drawing that finds
  // its plan removed or replaced withdraws what it wrote; domain/files/plan-renditions.ts).
  'plan-renditions': {
    files: [
      { prefix: FLOOR_PLAN_PREFIX, read: true, write: true },
      { prefix: FLOOR_PLAN_PREFIX, suffix: FLOOR_PLAN_RENDITION_SUFFIX, delete: true },
    ],
  },
  'telemetry-rollups': { telemetryTable: 'readWrite' },
  mailer: { platformTableStatements: mailerStatements, sendMail: true },
};

export type TableKind = 'platform' | 'telemetry';

/**
 * One IAM statement on a table: its actions on the table alone, on the table and every index of it
 * (`withIndexes`), or on one index; only on items whose partition key starts with `leadingKeysPrefix`
 * when one is named (`ForAllValues:StringLike` on `dynamodb:LeadingKeys`).
 */
export interface TableGrant {
  table: TableKind;
  actions: readonly string[];
  withIndexes?: true;
  index?: string;
  leadingKeysPrefix?: string;
}

/** A function's table statements, in the order the stack writes them. */
export function tableGrants(access: RoleAccess): TableGrant[] {
  const grants: TableGrant[] = [];
  const levels = [
    ['platform', access.platformTable],
    ['telemetry', access.telemetryTable],
  ] as const;
  for (const [table, level] of levels) {
    if (!level) continue;
    const actions = level === 'readWrite' ? [...DYNAMO_READ, ...DYNAMO_WRITE] : [...DYNAMO_READ];
    grants.push({ table, actions, withIndexes: true });
  }
  if (access.recordConnections) {
    grants.push({ table: 'platform', actions: ['dynamodb:PutItem'], leadingKeysPrefix: connectionKeyPrefix });
  }
  for (const statement of access.platformTableStatements ?? []) {
    grants.push({
      table: 'platform',
      actions: statement.actions,
      ...(statement.index ? { index: statement.index } : {}),
      ...(statement.partitionKeyPrefix ? { leadingKeysPrefix: statement.partitionKeyPrefix } : {}),
    });
  }
  return grants;
}

/**
 * One item (or key condition) a request touches, as IAM authorizes it: the action, the table (none:
 * a table no function is granted), the index a query reads, and the partition key (none for a scan).
 */
export interface TableTouch {
  action: string;
  table?: TableKind;
  index?: string;
  pk?: string;
}

/**
 * Whether a statement allows the touch. A request without a partition key (a scan) meets a
 * LeadingKeys condition, as IAM evaluates `ForAllValues` over no values as true.
 */
export const grantAllows = (grant: TableGrant, touch: TableTouch): boolean =>
  grant.table === touch.table &&
  grant.actions.includes(touch.action) &&
  (touch.index === undefined
    ? grant.index === undefined
    : grant.withIndexes === true || grant.index === touch.index) &&
  (grant.leadingKeysPrefix === undefined ||
    touch.pk === undefined ||
    touch.pk.startsWith(grant.leadingKeysPrefix));

/** Whether a function's statements allow the touch: IAM allows what one statement allows. */
export const tableAccessAllows = (grants: readonly TableGrant[], touch: TableTouch): boolean =>
  grants.some((grant) => grantAllows(grant, touch));

/** The browsers' client ids (`web-<uuid>`): the only connections a function may close. */
export const CLOSABLE_CLIENTS = `${BROWSER_CLIENT_ID_PREFIX}*`;

/** What a function asks of the IoT data plane, as IAM authorizes it. */
export type IotTouch =
  { action: 'iot:Publish'; topic: string } | { action: 'iot:DeleteConnection'; clientId: string };

/** Whether a resource name matches an IAM pattern: `*` any run of characters (`/` too), `?` any one. */
export const matchesResource = (pattern: string, name: string): boolean =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
    's',
  ).test(name);

/** Whether a function's role allows the IoT data-plane request. */
export function iotAccessAllows(access: RoleAccess, touch: IotTouch): boolean {
  if (touch.action === 'iot:Publish') {
    return (access.publishTopics ?? []).some((pattern) => matchesResource(pattern, touch.topic));
  }
  return access.closeConnections === true && matchesResource(CLOSABLE_CLIENTS, touch.clientId);
}

/** A bucket a function may be granted (the files bucket, the archive of raw readings). */
export type BucketKind = 'files' | 'archive';

/**
 * What a function asks of S3, as IAM authorizes it: an object action on a key, or a listing (on the
 * bucket, with the prefix it names: `s3:prefix`). No bucket: one no role names.
 */
export interface S3Touch {
  action: string;
  bucket?: BucketKind;
  key?: string;
  prefix?: string;
}

/** The S3 actions a grant on files allows. */
export const fileActions = (grant: FileGrant): string[] => [
  ...(grant.read ? ['s3:GetObject'] : []),
  ...(grant.write ? ['s3:PutObject'] : []),
  ...(grant.delete ? ['s3:DeleteObject'] : []),
];

/** The archive: listings under `readings/` only (`s3:prefix` StringLike), and reading what is there. */
export const ARCHIVE_OBJECTS = `${ARCHIVE_ROOT}*`;

/**
 * Whether a function's role allows the S3 request: the files bucket by its grants' key patterns (a
 * listing with any read grant: without it a missing object answers 403, not 404), the archive read
 * under its root only.
 */
export function s3AccessAllows(access: RoleAccess, touch: S3Touch): boolean {
  if (touch.bucket === 'files') {
    const grants = access.files ?? [];
    if (touch.action === 's3:ListBucket') return grants.some((grant) => grant.read);
    return grants.some(
      (grant) =>
        fileActions(grant).includes(touch.action) &&
        touch.key !== undefined &&
        matchesResource(`${grant.prefix}*${grant.suffix ?? ''}`, touch.key),
    );
  }
  if (touch.bucket === 'archive' && access.readingArchive === 'read') {
    if (touch.action === 's3:ListBucket') return matchesResource(ARCHIVE_OBJECTS, touch.prefix ?? '');
    return (
      touch.action === 's3:GetObject' &&
      touch.key !== undefined &&
      matchesResource(ARCHIVE_OBJECTS, touch.key)
    );
  }
  return false;
}

/** The bare address of a sender such as `Argentum <no-reply@example.com>` (SES's `ses:FromAddress`). */
export const senderAddress = (mailFrom: string): string => /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();

/**
 * What a function asks of Cognito (an admin action on the user pool), SES (mail from an address),
 * SQS (a message to one of the platform's queues) or Secrets Manager (a secret), as IAM authorizes it.
 */
export interface ServiceTouch {
  action: string;
  queue?: QueueKind;
  from?: string;
  secret?: SecretKind;
}

const MAIL_ACTIONS = ['ses:SendEmail', 'ses:SendRawEmail'];

/**
 * Whether a function's role allows the request: the user pool's admin actions with `userPoolAdmin`,
 * mail only from the platform's sender (`mailFrom`) with `sendMail`, messages only to its queues,
 * only its secrets (a new value only where it may write).
 */
export function serviceAccessAllows(access: RoleAccess, touch: ServiceTouch, mailFrom: string): boolean {
  switch (touch.action.split(':')[0]) {
    case 'cognito-idp':
      return (
        access.userPoolAdmin === true && (USER_POOL_ADMIN_ACTIONS as readonly string[]).includes(touch.action)
      );
    case 'ses':
      return (
        access.sendMail === true &&
        MAIL_ACTIONS.includes(touch.action) &&
        touch.from !== undefined &&
        senderAddress(touch.from) === senderAddress(mailFrom)
      );
    case 'sqs':
      return (
        touch.action === 'sqs:SendMessage' &&
        touch.queue !== undefined &&
        (access.sendsTo ?? []).includes(touch.queue)
      );
    case 'secretsmanager':
      return (access.secrets ?? []).some(
        (grant) => grant.secret === touch.secret && secretActions(grant).includes(touch.action),
      );
    default:
      return false;
  }
}

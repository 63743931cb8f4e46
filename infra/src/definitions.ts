/**
 * The stateful resources, described once. The CDK stacks and the local stack both build from these
 * definitions, so the tables, buckets and user pool a developer runs locally cannot drift from the
 * ones that are deployed.
 */

import { STAGING_PREFIX } from '@argentum/functions/domain/files/keys';
import type { ApiDomain } from '@argentum/functions/http/types';

export interface KeyAttribute {
  name: string;
  type: 'S' | 'N';
}

/**
 * What an index holds of each item besides the keys: every attribute, only the keys, or the keys and
 * the named attributes (at most 100 such names over all of a table's INCLUDE indexes). An update that
 * changes neither a key nor a projected attribute of an item writes nothing to the index.
 */
export type IndexProjection = 'ALL' | 'KEYS_ONLY' | { include: readonly string[] };

export interface IndexDefinition {
  indexName: string;
  partitionKey: KeyAttribute;
  sortKey?: KeyAttribute;
  projection: IndexProjection;
  /**
   * Set on the second of two indexes added to an existing table together: CloudFormation creates
   * (or deletes) one global secondary index per stack update, so an existing deployment first deploys
   * with `-c deviceIndexStep=1`, which leaves such an index out (docs/deploy.md).
   */
  secondStep?: true;
}

export interface TableDefinition {
  /** Logical id in CDK. */
  id: string;
  /** Physical name on the local stack. In AWS, CloudFormation names the table. */
  localName: string;
  partitionKey: KeyAttribute;
  sortKey?: KeyAttribute;
  globalIndexes: IndexDefinition[];
  timeToLiveAttribute?: string;
  /** The table's change stream and what each record carries (DynamoDB Local has streams too). */
  stream?: 'NEW_IMAGE' | 'NEW_AND_OLD_IMAGES' | 'KEYS_ONLY' | 'OLD_IMAGE';
}

export const platformTable: TableDefinition = {
  id: 'PlatformTable',
  localName: 'platform',
  partitionKey: { name: 'pk', type: 'S' },
  sortKey: { name: 'sk', type: 'S' },
  globalIndexes: [
    // Overloaded lookups: an entity by its id, a user by e-mail.
    {
      indexName: 'gsi1',
      partitionKey: { name: 'gsi1pk', type: 'S' },
      sortKey: { name: 'gsi1sk', type: 'S' },
      projection: 'ALL',
    },
    // Overloaded listings: users of the platform.
    {
      indexName: 'gsi2',
      partitionKey: { name: 'gsi2pk', type: 'S' },
      sortKey: { name: 'gsi2sk', type: 'S' },
      projection: 'ALL',
    },
    // Devices of a floor, and devices of an organization: keys only, so a reading's update of the
    // device item (latest values, lastSeen, presence) writes to no index; listings read the items
    // themselves after the query (stores/devices.ts).
    {
      indexName: 'gsi3',
      partitionKey: { name: 'gsi3pk', type: 'S' },
      sortKey: { name: 'gsi3sk', type: 'S' },
      projection: 'KEYS_ONLY',
    },
    {
      indexName: 'gsi4',
      partitionKey: { name: 'gsi4pk', type: 'S' },
      sortKey: { name: 'gsi4sk', type: 'S' },
      projection: 'KEYS_ONLY',
      secondStep: true,
    },
  ],
  timeToLiveAttribute: 'expiresAt',
  // Committed tree deletes reach the sweeper through it (treeSweeps).
  stream: 'NEW_IMAGE',
};

export const telemetryTable: TableDefinition = {
  id: 'TelemetryTable',
  localName: 'telemetry',
  // `{devId}#{resolution}` with resolution raw | hour; sort key epoch milliseconds.
  partitionKey: { name: 'series', type: 'S' },
  sortKey: { name: 't', type: 'N' },
  globalIndexes: [],
  timeToLiveAttribute: 'expiresAt',
  // Written raw readings reach the roll-up function through it (telemetryRollups).
  stream: 'KEYS_ONLY',
};

export const tables: TableDefinition[] = [platformTable, telemetryTable];

export interface BucketDefinition {
  id: string;
  localName: string;
  /** Where browsers upload to; objects left there (never committed) expire after `expireAfterDays`. */
  staging?: { prefix: string; expireAfterDays: number };
  /** Methods browsers use on the bucket from the web app's origin (CORS). */
  browserMethods?: readonly ('GET' | 'POST')[];
}

/**
 * SVG floor plans and organization logos. Browsers post uploads straight to the staging prefix with
 * presigned forms, and read logos through short-lived presigned URLs; the API checks every upload
 * before it moves out of staging (key layout: functions/src/domain/files/keys.ts).
 */
export const filesBucket: BucketDefinition = {
  id: 'FilesBucket',
  localName: 'files',
  staging: { prefix: STAGING_PREFIX, expireAfterDays: 1 },
  // GET: export downloads are fetched (with progress) from presigned links.
  browserMethods: ['POST', 'GET'],
};

/** How long browsers may cache the answer to a CORS preflight. */
export const corsMaxAgeSeconds = 3600;

/**
 * The long-term archive of raw readings (gzipped JSON lines under `readings/org={org}/day={day}/`,
 * functions/src/domain/telemetry/archive.ts). Stateful: kept when the stacks are deleted.
 */
export const archiveBucket: BucketDefinition = { id: 'ArchiveBucket', localName: 'archive' };

export const buckets: BucketDefinition[] = [filesBucket, archiveBucket];

export const userPool = {
  id: 'UserPool',
  localName: 'argentum-users',
  passwordPolicy: {
    minLength: 8,
    requireLowercase: true,
    requireUppercase: true,
    requireDigits: true,
    requireSymbols: true,
  },
  accessTokenValidityMinutes: 60,
  refreshTokenValidityDays: 30,
} as const;

/**
 * The telemetry rule's fixed name. Devices publish through Basic Ingest to `$aws/rules/<name>/...`, so
 * the name must outlive every stack replacement; and IoT rule names are unique per account and region,
 * so a second copy of the platform in the same account and region fails its first deploy on this name
 * (one account, or region, per environment: docs/deploy.md, "Environments").
 */
export const TELEMETRY_RULE_NAME = 'argentum_telemetry';

/**
 * The telemetry rule's name on the local stack, where devices may publish through Basic Ingest
 * (`$aws/rules/{name}/{org}/sensordata/{devID}`) as on AWS.
 */
export const localTelemetryRuleName = TELEMETRY_RULE_NAME;

/**
 * How telemetry reaches the ingest Lambda: the IoT rule sends each message to a queue, and the Lambda
 * takes up to `batchSize` messages at once, waiting at most `maxBatchingWindowSeconds` to fill a batch.
 * Ingest publishes one live message per floor a batch touched, so the window is both how far live
 * values and stored latest values trail the devices and what the live messages cost: 10 s keeps the
 * floor view current and costs a few dollars a month at 1,000 devices, where 1 s would cost ten times
 * that (docs/cost.md). Locally the rule runner gathers for `localBatchingWindowMs` only, so a reading
 * shows at once while you try the product, and a failed record comes again after
 * `localVisibilityTimeoutMs` where the queue's visibility timeout is 6 x the ingest timeout + the window.
 */
export const telemetryBatching = {
  batchSize: 500,
  maxBatchingWindowSeconds: 10,
  localBatchingWindowMs: 1000,
  localVisibilityTimeoutMs: 1000,
} as const;

/**
 * How written raw readings reach the roll-up function (functions/src/lambda/telemetry-rollups.ts): the
 * telemetry table's stream (keys only), inserts and changes. The function recomputes each hour it sees
 * once per batch, so the batching window is the roll-ups' cadence: hourly graphs are at most that far
 * behind (raw readings, which ranges up to 2 days show, never are), and each device's hour is rewritten
 * once per window instead of once per reading (docs/cost.md). Locally the runner hands records on at once.
 */
export const telemetryRollups = {
  filter: { eventName: ['INSERT', 'MODIFY'] },
  batchSize: 1000,
  maxBatchingWindowSeconds: 300,
  retryAttempts: 10,
  timeoutSeconds: 60,
} as const;

/**
 * How the telemetry table pays for throughput (docs/cost.md, "The telemetry table on provisioned
 * capacity"). Its load is steady by nature: raw readings arrive at the fleet's rate (1 write unit
 * each), the roll-ups rewrite each device's hour once per roll-up window, and their recomputation reads
 * the hour strongly consistently; only users' graph reads come in bursts. Provisioned capacity costs
 * about 3.4 times less per unit than on demand at full use, so the table is provisioned with target
 * tracking auto scaling at `targetUtilizationPercent` of the consumed capacity (the other 30% is
 * headroom, and what DynamoDB banks as burst capacity: up to 300 s of unused capacity).
 * `-c telemetryCapacity=on-demand` deploys it on demand instead.
 * - Writes: the floor `minWrite` costs $2.37 a month and covers small fleets; `maxWrite` caps the bill
 *   (~$4,700 a month) and binds at ~350,000 devices reporting each minute (raise it, up to the table
 *   quota of 40,000, before then: the consumed/provisioned alarm says when).
 * - Reads: the roll-ups read 3.5 units per device and window (the hour's raw readings, the roll-up's
 *   revision) in one burst every window; users' graph reads come in bursts (a 2-day raw graph of one
 *   device is ~110 units, eventually consistent). The floor `minRead` banks 25 x 300 = 7,500 units of
 *   burst: at 1,000 devices the roll-ups take 3,500 of them every 300 s and leave ~36 such graphs in
 *   the same 5 minutes beyond the 25 a second; the
 *   SDK retries a throttled read (4 attempts, back-off from 1 s), and auto scaling follows a
 *   sustained rise within minutes (2 minutes above the target).
 */
export const telemetryCapacity = {
  defaultMode: 'provisioned',
  targetUtilizationPercent: 70,
  minWrite: 5,
  maxWrite: 10_000,
  minRead: 25,
  maxRead: 10_000,
  /**
   * What the table is given while a deployment switches it from on demand to provisioned (DynamoDB
   * requires a value; auto scaling takes over within minutes): enough for ~7,000 devices a minute, so
   * a running fleet is not throttled in the switch. Raise it before switching a larger fleet.
   */
  seedWrite: 200,
  seedRead: 200,
} as const;

export type TelemetryCapacityMode = 'provisioned' | 'on-demand';

/**
 * How committed tree deletes reach the sweeper (functions/src/lambda/tree-sweeper.ts): the platform
 * table's stream, filtered to organizations, buildings and floors written with `deletedAt`. In AWS this
 * is the Lambda event source mapping; locally infra/local/stream-runner.ts plays it with the same
 * settings. A record the sweeper reports failed (out of time, or an error) is delivered again, which
 * resumes the sweep; after `retryAttempts` retries it goes to the dead-letter queue.
 */
export const treeSweeps = {
  /** A Lambda event filter pattern, matched against each stream record as Lambda delivers it. */
  filter: {
    eventName: ['INSERT', 'MODIFY'],
    dynamodb: {
      // The entity names the tree's items carry (functions/src/stores/tree.ts).
      NewImage: { entity: { S: ['org', 'building', 'floor'] }, deletedAt: { S: [{ exists: true }] } },
    },
  },
  batchSize: 10,
  retryAttempts: 10,
  /** The sweeper stops a little before its timeout and reports the record, which is retried. */
  timeoutSeconds: 300,
} as const;

/** A function's timeout and memory when it names none (CDK: constructs/platform-function.ts). */
export const functionDefaults = { timeoutSeconds: 10, memoryMB: 512 } as const;

/**
 * What an API function leaves of API Gateway's 30 s for a cold start: its timeout counts its handler
 * only, not the init before it (AWS Lambda, "Lambda execution environment lifecycle"), and a function
 * must answer before the gateway gives up with its own 503. Measured cold module loads are under 0.3 s.
 */
export const API_INIT_ALLOWANCE_SECONDS = 5;

/**
 * The API's functions that need more than the defaults (CDK: stateless-stack.ts; locally
 * infra/local/api-server.ts gives each invocation the same timeout). API Gateway waits 30 s at most,
 * init included: each timeout leaves API_INIT_ALLOWANCE_SECONDS of it.
 */
const apiFunctionSizing: Partial<Record<ApiDomain, { memoryMB: number; timeoutSeconds: number }>> = {
  // Long ranges are downsampled on the server.
  data: { memoryMB: 1024, timeoutSeconds: 25 },
  // Third-party device clouds can be slow.
  integrations: { memoryMB: 512, timeoutSeconds: 25 },
  // Sanitizing a 10 MB, 50,000-element plan takes seconds of one CPU and about 0.7 GB (bench/
  // floor-plans.bench.ts): 2 GB gives a full vCPU and headroom; API Gateway and CloudFront wait 30 s.
  floorplans: { memoryMB: 2048, timeoutSeconds: 25 },
};

/** The memory and timeout of the function that serves an API domain's routes. */
export const apiFunction = (domain: ApiDomain) => apiFunctionSizing[domain] ?? functionDefaults;

/**
 * Functions invoked asynchronously (an S3 event, a rule's action): Lambda retries a failed or timed-out
 * invocation this many times (its default, and its most), then hands the event to the function's
 * failure destination (CDK: constructs/watch.ts).
 */
export const asyncInvocations = { retryAttempts: 2 } as const;

/**
 * The plan renditions function (functions/src/lambda/plan-renditions.ts), invoked asynchronously by the
 * files bucket's event for each stored plan. Lambda stops an invocation at its timeout; locally
 * infra/local/plan-renditions.ts does the same.
 */
export const planRenditions = {
  /** A 10 MB plan drawn at 3,200 pixels: memory is also the CPU share. */
  memoryMB: 2048,
  timeoutSeconds: 120,
} as const;

/**
 * The queue of mail jobs (password-reset mail, sent off the request path) and its mailer: a job that
 * fails `maxReceiveCount` times goes to the dead-letter queue.
 */
export const mailQueue = {
  maxReceiveCount: 5,
  batchSize: 10,
  mailerTimeoutSeconds: 20,
  /** AWS's guidance for Lambda event sources: at least six times the function timeout. */
  visibilityTimeoutSeconds: 120,
  /** A dead job is kept this long for a look and a redrive. */
  deadLetterRetentionDays: 14,
} as const;

/**
 * Where the device provisioning command (`npm run provision-device`) finds what the stateless stack
 * made for devices: SSM parameters under the stack prefix, also shown as stack outputs.
 */
export const deviceProvisioningParameters = (stackPrefix: string) => ({
  /** The one IoT policy every device certificate gets. */
  policyName: `/${stackPrefix}/devices/iot-policy-name`,
  /** The telemetry rule's name: devices publish to `$aws/rules/{name}/{org}/sensordata/{devID}` (Basic Ingest). */
  telemetryRuleName: `/${stackPrefix}/devices/telemetry-rule-name`,
  /** The platform table, where the command registers the device in its organization. */
  platformTableName: `/${stackPrefix}/devices/platform-table-name`,
});

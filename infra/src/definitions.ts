/**
 * The stateful resources, described once. The CDK stacks and the local stack both build from these
 * definitions, so the tables, buckets and user pool a developer runs locally cannot drift from the
 * ones that are deployed.
 */

export interface KeyAttribute {
  name: string;
  type: 'S' | 'N';
}

export interface IndexDefinition {
  indexName: string;
  partitionKey: KeyAttribute;
  sortKey?: KeyAttribute;
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
}

export const platformTable: TableDefinition = {
  id: 'PlatformTable',
  localName: 'platform',
  partitionKey: { name: 'pk', type: 'S' },
  sortKey: { name: 'sk', type: 'S' },
  globalIndexes: [
    // Overloaded lookups: an entity by its id, a user by e-mail, devices of a floor.
    {
      indexName: 'gsi1',
      partitionKey: { name: 'gsi1pk', type: 'S' },
      sortKey: { name: 'gsi1sk', type: 'S' },
    },
    // Overloaded listings: users of the platform, devices of an organization.
    {
      indexName: 'gsi2',
      partitionKey: { name: 'gsi2pk', type: 'S' },
      sortKey: { name: 'gsi2sk', type: 'S' },
    },
  ],
  timeToLiveAttribute: 'expiresAt',
};

export const telemetryTable: TableDefinition = {
  id: 'TelemetryTable',
  localName: 'telemetry',
  // `{devId}#{resolution}` with resolution raw | hour | day; sort key epoch milliseconds.
  partitionKey: { name: 'series', type: 'S' },
  sortKey: { name: 't', type: 'N' },
  globalIndexes: [],
  timeToLiveAttribute: 'expiresAt',
};

export const tables: TableDefinition[] = [platformTable, telemetryTable];

export interface BucketDefinition {
  id: string;
  localName: string;
}

/** SVG floor plans and organization logos: user files, served only through the API. */
export const filesBucket: BucketDefinition = {
  id: 'FilesBucket',
  localName: 'files',
};

export const buckets: BucketDefinition[] = [filesBucket];

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

/** Raw telemetry is kept this long; hourly and daily roll-ups are kept indefinitely. */
export const rawTelemetryRetentionDays = 35;

/**
 * How telemetry reaches the ingest Lambda: the IoT rule sends each message to a queue, and the Lambda
 * takes up to `batchSize` messages at once, waiting at most `maxBatchingWindowSeconds` to fill a batch.
 */
export const telemetryBatching = { batchSize: 500, maxBatchingWindowSeconds: 1 } as const;

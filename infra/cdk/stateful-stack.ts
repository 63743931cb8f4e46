import { CfnOutput, Duration, Fn, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { AccountRecovery, Mfa, UserPool, type UserPoolClient } from 'aws-cdk-lib/aws-cognito';
import {
  AttributeType,
  Billing,
  Capacity,
  ProjectionType,
  StreamViewType,
  TableV2,
  type Attribute,
} from 'aws-cdk-lib/aws-dynamodb';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  HttpMethods,
  ObjectOwnership,
  type CorsRule,
  type LifecycleRule,
} from 'aws-cdk-lib/aws-s3';
import { CfnDatabase, CfnTable } from 'aws-cdk-lib/aws-timestream';
import { type Construct } from 'constructs';
import {
  corsMaxAgeSeconds,
  filesBucket,
  platformTable,
  telemetryCapacity,
  telemetryTable,
  userPool as userPoolDefinition,
  type IndexProjection,
  type KeyAttribute,
  type TableDefinition,
  type TelemetryCapacityMode,
} from '../src/definitions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { FLOOR_PLAN_PREFIX } from '@argentum/functions/domain/files/keys';
import { DeviceAccess } from './constructs/device-access';
import { IotLogging, type IotLogLevel } from './constructs/iot-logging';
import { AlarmTopic } from './constructs/watch';
import { type TelemetryStoreKind } from './constructs/platform-function';
import { ReadingArchive } from './constructs/reading-archive';
import { TelemetryIntake } from './constructs/telemetry-intake';
import { type IntegrationVendor, VendorSecrets } from './constructs/vendor-secrets';
import { acknowledgeRule } from './nag';

export interface StatefulStackProps extends StackProps {
  telemetryStore: TelemetryStoreKind;
  /** The web app's public origin, the only one browsers may upload from; any origin when not given. */
  appOrigin?: string;
  /** Prefix of the stack names: names the device policy and its SSM parameters ('Argentum' when not given). */
  stackPrefix?: string;
  /** Seconds the telemetry event source gathers messages (the queue's visibility timeout allows for it). */
  telemetryBatchingWindowSeconds?: number | undefined;
  /** How the telemetry table pays for throughput; provisioned with auto scaling when not given. */
  telemetryCapacity?: TelemetryCapacityMode;
  /** Subscribed to the alarm topic (the subscriber confirms); none when not given. */
  alarmEmail?: string | undefined;
  /** IoT Core's log level; ERROR when not given. */
  iotLogLevel?: IotLogLevel;
  /** 1: leave out the indexes marked `secondStep` (an existing deployment's first step, docs/deploy.md). */
  deviceIndexStep?: 1 | undefined;
}

/**
 * What the stateless stack needs from this one. The values are `Fn::ImportValue`s of exports with
 * names chosen here (not CDK's generated ones), so the stateless stack can be replaced freely and
 * the exports stay stable.
 */
export interface StatefulRefs {
  platformTableName: string;
  /** The platform table's stream, which feeds the tree sweeper. */
  platformTableStreamArn: string;
  telemetryTableName: string;
  /** The telemetry table's stream (keys only), which feeds the roll-ups (DynamoDB telemetry store). */
  telemetryTableStreamArn: string;
  filesBucketName: string;
  /** The archive of raw readings (ingest feeds it through Firehose, in this stack). */
  archiveBucketName: string;
  userPoolId: string;
  userPoolClientId: string;
  timestream?: { databaseName: string; tableName: string };
  /** The ARN of each third-party cloud's credentials secret (read by the integrations function). */
  vendorSecretArns: Record<IntegrationVendor, string>;
  /** The archive's Firehose stream, which ingest feeds one request a batch. */
  archiveStream: { name: string; arn: string };
  /** The queue the telemetry rule fills (ingest's event source) and its dead letters. */
  telemetryQueue: { arn: string; url: string };
  telemetryDeadLetters: { arn: string; url: string };
  /** The topic every alarm notifies. */
  alarmTopicArn: string;
}

const attribute = (key: KeyAttribute): Attribute => ({
  name: key.name,
  type: key.type === 'S' ? AttributeType.STRING : AttributeType.NUMBER,
});

/**
 * Uploads that were never committed (abandoned, refused before the check ran) expire, with their old
 * versions and the delete markers left by committed ones.
 */
function stagingRules(staging: typeof filesBucket.staging): LifecycleRule[] {
  if (!staging) return [];
  const days = Duration.days(staging.expireAfterDays);
  return [
    {
      id: 'StagedUploads',
      prefix: staging.prefix,
      expiration: days,
      noncurrentVersionExpiration: days,
      abortIncompleteMultipartUploadAfter: days,
    },
    { id: 'StagedUploadDeleteMarkers', prefix: staging.prefix, expiredObjectDeleteMarker: true },
  ];
}

/**
 * Browsers post uploads straight to the bucket. Each post is authorized by its signed policy (key,
 * size, type, expiry), not by its origin, so without a configured app origin any origin may send one.
 */
function corsRules(methods: typeof filesBucket.browserMethods, appOrigin: string | undefined): CorsRule[] {
  if (!methods?.length) return [];
  return [
    {
      allowedMethods: methods.map((method) => HttpMethods[method]),
      allowedOrigins: [appOrigin ?? '*'],
      maxAge: corsMaxAgeSeconds,
    },
  ];
}

/**
 * The telemetry table's steady writes and roll-up reads on provisioned capacity, each scaled by target
 * tracking at `targetUtilizationPercent` between a floor and a ceiling (infra/src/definitions.ts
 * telemetryCapacity, docs/cost.md). Throttled requests are retried by the SDK and by ingest and the
 * roll-ups (their records come again), and alarmed on (constructs/watch.ts).
 */
function provisionedTelemetry(): Billing {
  const c = telemetryCapacity;
  return Billing.provisioned({
    writeCapacity: Capacity.autoscaled({
      minCapacity: c.minWrite,
      maxCapacity: c.maxWrite,
      targetUtilizationPercent: c.targetUtilizationPercent,
      seedCapacity: c.seedWrite,
    }),
    readCapacity: Capacity.autoscaled({
      minCapacity: c.minRead,
      maxCapacity: c.maxRead,
      targetUtilizationPercent: c.targetUtilizationPercent,
      seedCapacity: c.seedRead,
    }),
  });
}

/** An index's projection as TableV2 takes it. */
function projection(value: IndexProjection): { projectionType: ProjectionType; nonKeyAttributes?: string[] } {
  if (value === 'ALL') return { projectionType: ProjectionType.ALL };
  if (value === 'KEYS_ONLY') return { projectionType: ProjectionType.KEYS_ONLY };
  return { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...value.include] };
}

/** Data that outlives deployments: tables, user files, users. Everything here is retained. */
export class StatefulStack extends Stack {
  readonly platformTable: TableV2;
  readonly telemetryTable: TableV2;
  readonly filesBucket: Bucket;
  readonly filesAccessLogs: Bucket;
  readonly userPool: UserPool;
  readonly userPoolClient: UserPoolClient;
  readonly timestreamDatabase?: CfnDatabase;
  readonly timestreamTable?: CfnTable;
  readonly vendorSecrets: VendorSecrets;
  readonly readingArchive: ReadingArchive;
  readonly telemetryIntake: TelemetryIntake;
  readonly deviceAccess: DeviceAccess;
  readonly alarmTopic: AlarmTopic;
  readonly iotLogging: IotLogging;
  readonly refs: StatefulRefs;

  constructor(scope: Construct, id: string, props: StatefulStackProps) {
    super(scope, id, props);

    this.platformTable = this.table(platformTable, { indexStep: props.deviceIndexStep });
    this.telemetryTable = this.table(telemetryTable, {
      billing:
        (props.telemetryCapacity ?? telemetryCapacity.defaultMode) === 'provisioned'
          ? provisionedTelemetry()
          : Billing.onDemand(),
    });

    // Browsers read and write user files directly, through presigned URLs: S3's server access logs are
    // the record of who fetched or posted what (requester, key, status), kept a year.
    this.filesAccessLogs = new Bucket(this, 'FilesAccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      // S3's log delivery writes with the LogDeliveryWrite ACL (no bucket-policy flag in cdk.json).
      objectOwnership: ObjectOwnership.OBJECT_WRITER,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      lifecycleRules: [{ id: 'Expire', expiration: Duration.days(365) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledgeRule(
      this.filesAccessLogs,
      'S1',
      'This bucket is the server access log destination of the files bucket; logging it into itself would loop.',
    );

    this.filesBucket = new Bucket(this, filesBucket.id, {
      serverAccessLogsBucket: this.filesAccessLogs,
      serverAccessLogsPrefix: 'files/',
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      versioned: true,
      lifecycleRules: [
        // Versions protect against a bad overwrite; old ones need not live forever.
        { id: 'OldVersions', noncurrentVersionExpiration: Duration.days(90) },
        ...stagingRules(filesBucket.staging),
      ],
      cors: corsRules(filesBucket.browserMethods, props.appOrigin),
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // CloudFront reads floor plans through origin access control (the distribution's /floorplans/*
    // behaviour, web-hosting.ts), for viewers with a signed URL. The distribution lives in the
    // stateless stack, deployed after this one: the grant names this account's distributions, and
    // only the plan prefix, read only.
    this.filesBucket.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudFrontReadsFloorPlans',
        principals: [new ServicePrincipal('cloudfront.amazonaws.com')],
        actions: ['s3:GetObject'],
        resources: [this.filesBucket.arnForObjects(`${FLOOR_PLAN_PREFIX}*`)],
        conditions: {
          StringEquals: { 'AWS:SourceAccount': this.account },
          ArnLike: { 'AWS:SourceArn': `arn:${this.partition}:cloudfront::${this.account}:distribution/*` },
        },
      }),
    );
    this.userPool = new UserPool(this, userPoolDefinition.id, {
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      passwordPolicy: { ...userPoolDefinition.passwordPolicy },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      mfa: Mfa.OFF,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledgeRule(
      this.userPool,
      'COG2',
      'The specification defines e-mail + password sign-in through the platform API (USER_PASSWORD_AUTH) and no second factor flow; MFA is a product change, not an infrastructure switch.',
    );
    acknowledgeRule(
      this.userPool,
      'COG8',
      'The Plus feature plan (threat protection) is billed per monthly active user and is an account decision; the Essentials plan covers the e-mail/password flows the specification needs.',
    );
    this.userPoolClient = this.userPool.addClient('WebClient', {
      generateSecret: false,
      // Refresh-token auth is always enabled by CDK alongside the listed flows.
      authFlows: { userPassword: true },
      accessTokenValidity: Duration.minutes(userPoolDefinition.accessTokenValidityMinutes),
      idTokenValidity: Duration.minutes(userPoolDefinition.accessTokenValidityMinutes),
      refreshTokenValidity: Duration.days(userPoolDefinition.refreshTokenValidityDays),
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
    });

    if (props.telemetryStore === 'timestream') {
      this.timestreamDatabase = new CfnDatabase(this, 'TelemetryDatabase');
      this.timestreamDatabase.applyRemovalPolicy(RemovalPolicy.RETAIN);
      this.timestreamTable = new CfnTable(this, 'TelemetrySeries', {
        databaseName: this.timestreamDatabase.ref,
        retentionProperties: {
          MemoryStoreRetentionPeriodInHours: '24',
          MagneticStoreRetentionPeriodInDays: '3650',
        },
        // Devices that were offline deliver late readings.
        magneticStoreWriteProperties: { EnableMagneticStoreWrites: true },
      });
      this.timestreamTable.applyRemovalPolicy(RemovalPolicy.RETAIN);
      acknowledgeRule(
        this.timestreamDatabase,
        'TS3',
        'Sensor readings are encrypted at rest with the AWS managed key, like the DynamoDB tables; a customer managed key adds cost and key administration that no requirement asks for.',
      );
      for (const resource of [this.timestreamDatabase, this.timestreamTable]) {
        Validations.of(resource).acknowledge({
          id: 'CloudFormation-Validate::W3697',
          reason:
            'Timestream for LiveAnalytics is closed to new customers since 2025-06-20 (docs/deploy.md, "Telemetry store"); it is only built when an account that has it selects telemetryStore=timestream.',
        });
      }
    }

    this.vendorSecrets = new VendorSecrets(this, 'VendorSecrets');
    this.readingArchive = new ReadingArchive(this, 'ReadingArchive');

    // What devices are provisioned with and publish into outlives the stateless stack: the telemetry
    // rule (its fixed name is part of the Basic Ingest topic), its queue, and the device policy that
    // certificates hold (a policy with certificates attached cannot be deleted).
    this.telemetryIntake = new TelemetryIntake(this, 'TelemetryIntake', {
      batchingWindowSeconds: props.telemetryBatchingWindowSeconds,
    });
    this.deviceAccess = new DeviceAccess(this, 'DeviceAccess', {
      stackPrefix: props.stackPrefix ?? 'Argentum',
      telemetryRuleName: this.telemetryIntake.topicRule.ref,
      platformTableName: this.platformTable.tableName,
    });

    // Watching: the one alarm topic (its subscriptions outlive stateless deploys) and IoT Core logging
    // (a setting of the account and region, like the telemetry rule's name).
    this.alarmTopic = new AlarmTopic(this, 'Alarms', { email: props.alarmEmail });
    this.iotLogging = new IotLogging(this, 'IotLogging', { level: props.iotLogLevel ?? 'ERROR' });

    this.refs = {
      platformTableName: this.exportForStateless('PlatformTableName', this.platformTable.tableName),
      platformTableStreamArn: this.exportForStateless(
        'PlatformTableStreamArn',
        this.streamArnOf(this.platformTable),
      ),
      telemetryTableName: this.exportForStateless('TelemetryTableName', this.telemetryTable.tableName),
      telemetryTableStreamArn: this.exportForStateless(
        'TelemetryTableStreamArn',
        this.streamArnOf(this.telemetryTable),
      ),
      filesBucketName: this.exportForStateless('FilesBucketName', this.filesBucket.bucketName),
      archiveBucketName: this.exportForStateless('ArchiveBucketName', this.readingArchive.bucket.bucketName),
      userPoolId: this.exportForStateless('UserPoolId', this.userPool.userPoolId),
      userPoolClientId: this.exportForStateless('UserPoolClientId', this.userPoolClient.userPoolClientId),
      timestream:
        this.timestreamDatabase && this.timestreamTable
          ? {
              databaseName: this.exportForStateless('TimestreamDatabaseName', this.timestreamDatabase.ref),
              tableName: this.exportForStateless('TimestreamTableName', this.timestreamTable.attrName),
            }
          : undefined,
      vendorSecretArns: {
        ryse: this.exportForStateless('RyseSecretArn', this.vendorSecrets.secrets.ryse.secretArn),
        nest: this.exportForStateless('NestSecretArn', this.vendorSecrets.secrets.nest.secretArn),
        ecobee: this.exportForStateless('EcobeeSecretArn', this.vendorSecrets.secrets.ecobee.secretArn),
      },
      telemetryQueue: {
        arn: this.exportForStateless('TelemetryQueueArn', this.telemetryIntake.queue.queueArn),
        url: this.exportForStateless('TelemetryQueueUrl', this.telemetryIntake.queue.queueUrl),
      },
      archiveStream: {
        name: this.exportForStateless('ArchiveStreamName', this.readingArchive.stream.deliveryStreamName),
        arn: this.exportForStateless('ArchiveStreamArn', this.readingArchive.stream.deliveryStreamArn),
      },
      telemetryDeadLetters: {
        arn: this.exportForStateless('TelemetryDeadLettersArn', this.telemetryIntake.deadLetters.queueArn),
        url: this.exportForStateless('TelemetryDeadLettersUrl', this.telemetryIntake.deadLetters.queueUrl),
      },
      alarmTopicArn: this.exportForStateless('AlarmTopicArn', this.alarmTopic.topic.topicArn),
    };
  }

  private table(
    definition: TableDefinition,
    { billing = Billing.onDemand(), indexStep }: { billing?: Billing; indexStep?: 1 } = {},
  ): TableV2 {
    return new TableV2(this, definition.id, {
      partitionKey: attribute(definition.partitionKey),
      sortKey: definition.sortKey && attribute(definition.sortKey),
      globalSecondaryIndexes: definition.globalIndexes
        .filter((index) => !(indexStep === 1 && index.secondStep))
        .map((index) => ({
          indexName: index.indexName,
          partitionKey: attribute(index.partitionKey),
          sortKey: index.sortKey && attribute(index.sortKey),
          ...projection(index.projection),
        })),
      timeToLiveAttribute: definition.timeToLiveAttribute,
      dynamoStream: definition.stream && StreamViewType[definition.stream],
      billing,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  private streamArnOf(table: TableV2): string {
    if (!table.tableStreamArn) throw new Error(`${table.node.id} has no stream`);
    return table.tableStreamArn;
  }

  /** Exports a value under a fixed name and returns its import for the stateless stack. */
  private exportForStateless(name: string, value: string): string {
    const exportName = `${this.stackName}-${name}`;
    new CfnOutput(this, name, { value, exportName });
    return Fn.importValue(exportName);
  }
}

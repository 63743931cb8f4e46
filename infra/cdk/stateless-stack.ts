import { CfnOutput, CustomResource, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { KeyGroup, PublicKey } from 'aws-cdk-lib/aws-cloudfront';
import { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Bucket, EventType } from 'aws-cdk-lib/aws-s3';
import { LambdaDestination } from 'aws-cdk-lib/aws-s3-notifications';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import { type Construct } from 'constructs';
import { apiDomains, type ApiDomain, type Route } from '@argentum/functions/http/types';
import { FLOOR_PLAN_PREFIX, PLAN_RENDITION_SOURCE_SUFFIX } from '@argentum/functions/domain/files/keys';
import { VENDOR_POLL_INTERVAL_MINUTES } from '@argentum/functions/domain/integrations/polling';
import { AUTHORIZER_ANSWER_LIMITS } from '@argentum/functions/domain/realtime/policy';
import {
  PlatformFunction,
  type FunctionAccess,
  type PlatformResources,
  type TelemetryStoreKind,
} from './constructs/platform-function';
import { ControlConfirmations } from './constructs/control-confirmations';
import { MailJobs } from './constructs/mail-jobs';
import { PlatformApi } from './constructs/platform-api';
import { Realtime } from './constructs/realtime';
import { INGEST_TIMEOUT_SECONDS } from './constructs/telemetry-intake';
import { WebHosting } from './constructs/web-hosting';
import {
  apiFunction,
  planRenditions,
  TELEMETRY_RULE_NAME,
  telemetryRollups,
  treeSweeps,
} from '../src/definitions';
import { acknowledgePolicyWildcardsAtSynth, acknowledgeRule } from './nag';
import { type StatefulRefs } from './stateful-stack';

export interface StatelessStackProps extends StackProps {
  stateful: StatefulRefs;
  routes: readonly Route[];
  telemetryStore: TelemetryStoreKind;
  mailFrom: string;
  /** Public origin for e-mail links; the CloudFront URL when not given. */
  appOrigin?: string;
  /** The IoT data endpoint host; looked up at deploy time when not given. */
  iotEndpoint?: string;
  /** The built web app to deploy, or undefined to synthesize without deploying it. */
  siteAssetPath?: string;
  /** Name of the IoT custom authorizer for browsers. */
  realtimeAuthorizerName: string;
  /** The WAF web ACL of the distribution (CloudFront scope, from the us-east-1 edge stack). */
  webAclArn: string;
  /** The outdoor weather's city and provider key (the data Lambda); Toronto without a key when not given. */
  weather?: { city: string; apiKey?: string | undefined };
  /** Seconds the telemetry queue gathers messages before ingest runs; the definitions' when not given. */
  telemetryBatchingWindowSeconds?: number | undefined;
}

/**
 * Least privilege per domain, besides the tables, the IoT data plane and the buckets
 * (infra/src/function-access.ts): only what its use cases touch.
 */
const apiAccess: Record<ApiDomain, FunctionAccess> = {
  auth: {},
  users: {},
  tree: {},
  floors: {},
  floorplans: {},
  devices: {},
  data: { timestream: 'query' },
  control: {},
  notifications: {},
  integrations: {},
};

/**
 * The vendors' credentials, for the two functions that call the vendors' clouds (the integrations
 * API and the poller); each may store Ecobee's refresh token, which rotates on every use.
 */
function useVendorSecrets(fn: PlatformFunction, arns: StatefulRefs['vendorSecretArns']): void {
  fn.useSecret('ryse', arns.ryse);
  fn.useSecret('nest', arns.nest);
  fn.useSecret('ecobee', arns.ecobee);
}

/**
 * Everything that can be replaced without losing data: the API and its Lambdas, IoT wiring, and the
 * web app with its CloudFront distribution.
 */
export class StatelessStack extends Stack {
  readonly api: PlatformApi;
  readonly apiFunctions: Record<ApiDomain, PlatformFunction>;
  readonly ingest: PlatformFunction;
  readonly realtimeAuthorizer: PlatformFunction;
  /** Makes the real-time token-signing key pair at deploy time (a custom resource's function). */
  readonly realtimeSigningKeyMaker: PlatformFunction;
  /** Holds the private key that signs real-time connection tokens (read by the auth API function). */
  readonly realtimeSigningKey: Secret;
  /** Private key (PEM) that signs floor plan URLs; its public half is in `planKeyGroup`. */
  readonly planSigningKey: Secret;
  readonly planPublicKey: PublicKey;
  /** The key group the distribution's floor plan behaviour trusts. */
  readonly planKeyGroup: KeyGroup;
  readonly treeSweeper: PlatformFunction;
  /** Draws the raster renditions of each stored floor plan (the files bucket's event). */
  readonly planRenditions: PlatformFunction;
  readonly presenceSweep: PlatformFunction;
  /** Reads linked third-party devices in their vendors' clouds into telemetry (schedule). */
  readonly vendorPoller: PlatformFunction;
  readonly controlConfirmations: PlatformFunction;
  readonly confirmationRule: ControlConfirmations;
  /** Only with the DynamoDB telemetry store: keeps the hourly roll-ups from the telemetry table's stream. */
  readonly telemetryRollups?: PlatformFunction;
  readonly telemetryRollupFailures?: Queue;
  readonly treeSweepFailures: Queue;
  readonly realtime: Realtime;
  readonly web: WebHosting;
  readonly mailJobs: MailJobs;
  readonly iotEndpoint: string;

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    super(scope, id, props);

    this.iotEndpoint = props.iotEndpoint ?? this.lookUpIotEndpoint();

    // Order matters only to the code, not to CloudFormation: the distribution needs the API's host,
    // the Lambdas need the distribution's URL (APP_ORIGIN), the routes need the Lambdas. No cycle.
    this.api = new PlatformApi(this, 'Api', {
      userPoolId: props.stateful.userPoolId,
      userPoolClientId: props.stateful.userPoolClientId,
    });
    this.web = new WebHosting(this, 'Web', {
      apiDomainName: this.api.domainName,
      iotEndpoint: this.iotEndpoint,
      // The virtual-hosted address the SDK presigns uploads and reads for.
      filesOrigin: `https://${props.stateful.filesBucketName}.s3.${this.region}.${this.urlSuffix}`,
      siteAssetPath: props.siteAssetPath,
      ...(props.appOrigin ? { planOrigin: props.appOrigin } : {}),
      runtimeConfig: {
        region: this.region,
        userPoolId: props.stateful.userPoolId,
        userPoolClientId: props.stateful.userPoolClientId,
        iotEndpoint: this.iotEndpoint,
        iotAuthorizerName: props.realtimeAuthorizerName,
      },
      webAclArn: props.webAclArn,
    });
    const siteUrl = `https://${this.web.distribution.distributionDomainName}`;

    const resources: PlatformResources = {
      platformTableName: props.stateful.platformTableName,
      telemetryTableName: props.stateful.telemetryTableName,
      filesBucketName: props.stateful.filesBucketName,
      archiveBucketName: props.stateful.archiveBucketName,
      userPoolId: props.stateful.userPoolId,
      userPoolClientId: props.stateful.userPoolClientId,
      telemetryStore: props.telemetryStore,
      timestream: props.telemetryStore === 'timestream' ? props.stateful.timestream : undefined,
      mailFrom: props.mailFrom,
      appOrigin: props.appOrigin ?? siteUrl,
      iotDataEndpoint: this.iotEndpoint,
    };
    if (props.telemetryStore === 'timestream' && !resources.timestream) {
      throw new Error('telemetryStore is timestream but the stateful stack has no Timestream table');
    }

    this.mailJobs = new MailJobs(this, 'MailJobs', { resources });

    const apiFunctions = {} as Record<ApiDomain, PlatformFunction>;
    for (const domain of apiDomains) {
      apiFunctions[domain] = new PlatformFunction(this, `Api-${domain}`, {
        entry: `api-${domain}`,
        description: `Argentum API: ${domain} routes`,
        resources,
        access: apiAccess[domain],
        memorySize: apiFunction(domain).memoryMB,
        timeout: Duration.seconds(apiFunction(domain).timeoutSeconds),
        originSecret: this.web.originSecret.secretValue.unsafeUnwrap(),
        ...(domain === 'auth' ? { mailQueueUrl: this.mailJobs.queue.queueUrl } : {}),
        ...(domain === 'integrations'
          ? { integrations: { secretIds: props.stateful.vendorSecretArns } }
          : {}),
      });
    }
    useVendorSecrets(apiFunctions.integrations, props.stateful.vendorSecretArns);
    this.mailJobs.grantSend(apiFunctions.auth);
    this.apiFunctions = apiFunctions;
    this.api.addRouteTable(props.routes, (domain) => apiFunctions[domain].function);

    this.ingest = new PlatformFunction(this, 'Ingest', {
      entry: 'ingest',
      description: 'Argentum telemetry ingest (batches from the IoT rule queue)',
      resources,
      access: { timestream: 'write' },
      timeout: Duration.seconds(INGEST_TIMEOUT_SECONDS),
      // Comfort alarms; an error alarm's mail is queued for the mailer.
      mailQueueUrl: this.mailJobs.queue.queueUrl,
    });
    this.mailJobs.grantSend(this.ingest);
    this.realtimeAuthorizer = new PlatformFunction(this, 'RealtimeAuthorizer', {
      entry: 'realtime-authorizer',
      description: 'Argentum IoT custom authorizer for browser MQTT connections',
      resources,
      // Its table access: it reads users and writes only the records of the connections it admits.
      access: {},
      memorySize: 256,
      // IoT Core waits at most 5 s for a custom authorizer.
      timeout: Duration.seconds(AUTHORIZER_ANSWER_LIMITS.timeoutSeconds),
    });
    this.realtimeSigningKey = new Secret(this, 'RealtimeSigningKey', {
      description: 'Private key (PEM) that signs real-time connection tokens; made by the stack',
      removalPolicy: RemovalPolicy.DESTROY,
    });
    acknowledgeRule(
      this.realtimeSigningKey,
      'SMG4',
      'An RSA key pair the stack makes; rotating it means a new public key on the IoT authorizer, done by replacing this secret.',
    );
    this.planSigningKey = new Secret(this, 'PlanSigningKey', {
      description: 'Private key (PEM) that signs floor plan URLs (CloudFront key group); made by the stack',
      removalPolicy: RemovalPolicy.DESTROY,
    });
    acknowledgeRule(
      this.planSigningKey,
      'SMG4',
      "An RSA key pair the stack makes; rotating it means a new public key in the distribution's key group, done by replacing this secret.",
    );
    this.realtimeSigningKeyMaker = new PlatformFunction(this, 'RealtimeSigningKeyMaker', {
      entry: 'realtime-signing-key',
      description: 'Argentum deploy-time maker of the real-time token and plan URL signing key pairs',
      // It reads no app origin; naming the distribution's would be a cycle (the distribution trusts the
      // plan key group, whose key this function makes). `.invalid` is a reserved name.
      resources: { ...resources, appOrigin: props.appOrigin ?? 'https://key-maker.invalid' },
      access: {},
      timeout: Duration.seconds(30),
    });
    this.realtimeSigningKeyMaker.useSecret('realtimeSigningKey', this.realtimeSigningKey.secretArn);
    this.realtimeSigningKeyMaker.useSecret('planSigningKey', this.planSigningKey.secretArn);
    // The plan URL key pair, made the same way: the private half straight into its secret, the public
    // half to CloudFront (names are account-wide, so they carry the region like the web's policies).
    const planKey = new CustomResource(this, 'PlanUrlSigningKey', {
      serviceToken: this.realtimeSigningKeyMaker.function.functionArn,
      properties: { SecretId: this.planSigningKey.secretArn },
    });
    this.planPublicKey = new PublicKey(this, 'PlanPublicKey', {
      publicKeyName: `${this.stackName}-${this.region}-plans`,
      comment: 'Argentum: verifies signed floor plan URLs',
      encodedKey: planKey.getAttString('PublicKey'),
    });
    this.planKeyGroup = new KeyGroup(this, 'PlanKeyGroup', {
      keyGroupName: `${this.stackName}-${this.region}-plans`,
      comment: 'Argentum: signers of floor plan URLs',
      items: [this.planPublicKey],
    });
    this.web.serveFloorPlans({
      filesBucketName: props.stateful.filesBucketName,
      keyGroup: this.planKeyGroup,
    });
    // The functions that answer a plan's URL sign it with the private key.
    for (const domain of ['floors', 'floorplans'] as const) {
      apiFunctions[domain].addSettings({
        planSigning: { secretId: this.planSigningKey.secretArn, keyPairId: this.planPublicKey.publicKeyId },
      });
      apiFunctions[domain].useSecret('planSigningKey', this.planSigningKey.secretArn);
    }
    // The auth API signs connection tokens (POST /api/realtimeToken) with the private key.
    apiFunctions.auth.addSettings({ realtimeSigningSecretId: this.realtimeSigningKey.secretArn });
    apiFunctions.auth.useSecret('realtimeSigningKey', this.realtimeSigningKey.secretArn);
    this.realtime = new Realtime(this, 'Realtime', {
      ingest: this.ingest.function,
      telemetryQueue: Queue.fromQueueAttributes(this, 'TelemetryQueue', {
        queueArn: props.stateful.telemetryQueue.arn,
        queueUrl: props.stateful.telemetryQueue.url,
      }),
      telemetryDeadLetters: Queue.fromQueueAttributes(this, 'TelemetryDeadLetters', {
        queueArn: props.stateful.telemetryDeadLetters.arn,
        queueUrl: props.stateful.telemetryDeadLetters.url,
      }),
      ...(props.telemetryBatchingWindowSeconds !== undefined
        ? { batchingWindowSeconds: props.telemetryBatchingWindowSeconds }
        : {}),
      authorizer: this.realtimeAuthorizer.function,
      authorizerName: props.realtimeAuthorizerName,
      signingKeyMaker: this.realtimeSigningKeyMaker.function,
      signingKey: this.realtimeSigningKey,
    });
    // What ingest cannot store goes to the telemetry dead letters with its reason.
    this.ingest.addSettings({ telemetryDeadLetterQueueUrl: this.realtime.telemetryDeadLetters.queueUrl });
    this.realtime.telemetryDeadLetters.grantSendMessages(this.ingest.function);
    // What ingest accepted goes to the archive's Firehose stream, one PutRecordBatch a batch.
    this.ingest.addSettings({ archiveStreamName: props.stateful.archiveStream.name });
    this.ingest.function.addToRolePolicy(
      new PolicyStatement({
        actions: ['firehose:PutRecordBatch'],
        resources: [props.stateful.archiveStream.arn],
      }),
    );
    apiFunctions.integrations.addSettings({ telemetryRuleName: TELEMETRY_RULE_NAME });
    apiFunctions.data.addSettings({
      weather: { city: props.weather?.city ?? 'Toronto', apiKey: props.weather?.apiKey },
    });

    this.controlConfirmations = new PlatformFunction(this, 'ControlConfirmations', {
      entry: 'control-confirmations',
      description: "Argentum control: settles commands with their devices' confirmations (IoT rule)",
      resources,
      // Settles commands and tells browsers the outcome; raises the alarms in devices' messages
      // (offline, pairing, failed commands): notifications, inboxes, alarm state, alarm mail jobs.
      access: {},
      memorySize: 256,
      mailQueueUrl: this.mailJobs.queue.queueUrl,
    });
    this.controlConfirmations.addSettings({ telemetryRuleName: TELEMETRY_RULE_NAME });
    this.mailJobs.grantSend(this.controlConfirmations);
    this.confirmationRule = new ControlConfirmations(this, 'ConfirmationRule', {
      handler: this.controlConfirmations.function,
    });

    // Presence: silence past a device's report interval turns it offline; offline episodes raise or
    // close once their grace period is over. Every minute (EventBridge's finest rate).
    this.presenceSweep = new PlatformFunction(this, 'PresenceSweep', {
      entry: 'presence-sweep',
      description:
        'Argentum presence sweep: silent devices go offline; offline alarms after their grace period',
      resources,
      access: {},
      memorySize: 256,
      timeout: Duration.seconds(50),
      mailQueueUrl: this.mailJobs.queue.queueUrl,
    });
    this.mailJobs.grantSend(this.presenceSweep);
    new Rule(this, 'PresenceSweepSchedule', {
      description: 'Runs the presence sweep every minute',
      schedule: Schedule.rate(Duration.minutes(1)),
      // A missed run is made up by the next one: no retries piling up behind it.
      targets: [new LambdaFunction(this.presenceSweep.function, { retryAttempts: 0 })],
    });

    // Third-party devices cannot publish: their readings are read in the vendors' clouds and sent the
    // way a device's own go (the telemetry rule's Basic Ingest topic), every 5 minutes.
    const vendorSecrets = props.stateful.vendorSecretArns;
    this.vendorPoller = new PlatformFunction(this, 'VendorPoller', {
      entry: 'vendor-poller',
      description: 'Argentum vendor poller: Nest, Ecobee and Ryse readings into telemetry',
      resources,
      access: {},
      memorySize: 256,
      // A run's 40 Ecobee requests, 2 at once, each within the 5 s vendor limit, fit; past it, the run
      // stops asking (its deadline) and counts what it did. Well inside the 5-minute interval.
      timeout: Duration.minutes(2),
      integrations: { secretIds: vendorSecrets },
    });
    useVendorSecrets(this.vendorPoller, vendorSecrets);
    this.vendorPoller.addSettings({ telemetryRuleName: TELEMETRY_RULE_NAME });
    new Rule(this, 'VendorPollerSchedule', {
      description: `Reads third-party devices every ${VENDOR_POLL_INTERVAL_MINUTES} minutes`,
      schedule: Schedule.rate(Duration.minutes(VENDOR_POLL_INTERVAL_MINUTES)),
      // A missed run is made up by the next one.
      targets: [new LambdaFunction(this.vendorPoller.function, { retryAttempts: 0 })],
    });

    this.treeSweeper = new PlatformFunction(this, 'TreeSweeper', {
      entry: 'tree-sweeper',
      description: 'Argentum tree sweeper: removes what lies under deleted nodes (platform table stream)',
      resources,
      access: {},
      timeout: Duration.seconds(treeSweeps.timeoutSeconds),
    });
    this.treeSweepFailures = this.sweepFromStream(props.stateful);

    // Plans are drawn once as WebP after the sanitized SVG is stored, off the upload's request (local
    // twin: infra/local/plan-renditions.ts). sharp is native code: installed for ARM64 beside the bundle.
    this.planRenditions = new PlatformFunction(this, 'PlanRenditions', {
      entry: 'plan-renditions',
      description: 'Argentum floor plan renditions: draws each stored plan as WebP (files bucket event)',
      resources,
      access: {},
      nodeModules: ['sharp'],
      memorySize: planRenditions.memoryMB,
      timeout: Duration.seconds(planRenditions.timeoutSeconds),
    });
    Bucket.fromBucketName(this, 'FilesBucketEvents', props.stateful.filesBucketName).addEventNotification(
      EventType.OBJECT_CREATED,
      new LambdaDestination(this.planRenditions.function),
      { prefix: FLOOR_PLAN_PREFIX, suffix: PLAN_RENDITION_SOURCE_SUFFIX },
    );
    // The deploy-time helper that sets the notification: a singleton at stack level.
    const notifier = this.node.children.find((child) =>
      child.node.id.startsWith('BucketNotificationsHandler'),
    );
    if (notifier) {
      acknowledgeRule(
        notifier,
        'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        'CDK bucket notifications handler: CDK attaches the AWS managed basic execution policy (CloudWatch Logs only) to its singleton role; it runs only during deployments.',
      );
    }

    if (props.telemetryStore === 'dynamodb') {
      this.telemetryRollups = new PlatformFunction(this, 'TelemetryRollups', {
        entry: 'telemetry-rollups',
        description:
          'Argentum telemetry roll-ups: recomputes the hours of written readings (telemetry table stream)',
        resources,
        access: {},
        timeout: Duration.seconds(telemetryRollups.timeoutSeconds),
      });
      this.telemetryRollupFailures = this.rollUpFromStream(props.stateful, this.telemetryRollups);
    }

    new CfnOutput(this, 'SiteUrl', { value: siteUrl, description: 'The web app (and the API under /api)' });
    new CfnOutput(this, 'ApiUrl', {
      value: `${siteUrl}/api`,
      description: 'The API as browsers call it (same origin as the app)',
    });
    new CfnOutput(this, 'HttpApiEndpoint', {
      value: this.api.api.apiEndpoint,
      description: 'The API Gateway endpoint behind CloudFront',
    });
    new CfnOutput(this, 'UserPoolId', { value: props.stateful.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: props.stateful.userPoolClientId });
    new CfnOutput(this, 'IotEndpoint', { value: this.iotEndpoint });
    new CfnOutput(this, 'IotAuthorizerName', { value: props.realtimeAuthorizerName });
  }

  /**
   * Feeds committed tree deletes from the platform table's stream to the sweeper: only organizations,
   * buildings and floors written with deletedAt reach it. A record it reports failed is retried
   * (bounded); then its batch's description lands in the returned queue.
   */
  private sweepFromStream(stateful: StatefulRefs): Queue {
    const failures = new Queue(this, 'TreeSweepFailures', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    acknowledgeRule(
      failures,
      'SQS3',
      "This queue is the on-failure destination of the tree sweeper's stream event source (it holds the shard and sequence numbers of deletes whose sweep gave up); nothing consumes it that could fail.",
    );
    const table = TableV2.fromTableAttributes(this, 'PlatformTable', {
      tableName: stateful.platformTableName,
      tableStreamArn: stateful.platformTableStreamArn,
    });
    this.treeSweeper.function.addEventSource(
      new DynamoEventSource(table, {
        // Deletes committed while the mapping was being created are swept too.
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: treeSweeps.batchSize,
        retryAttempts: treeSweeps.retryAttempts,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(failures),
        filters: [FilterCriteria.filter(treeSweeps.filter)],
      }),
    );
    return failures;
  }

  /**
   * Feeds the raw readings written to the telemetry table to the roll-up function, in batches gathered
   * for `telemetryRollups.maxBatchingWindowSeconds` (the roll-ups' cadence). A batch that keeps failing
   * is halved, retried (bounded), and its description lands in the returned queue.
   */
  private rollUpFromStream(stateful: StatefulRefs, fn: PlatformFunction): Queue {
    const failures = new Queue(this, 'TelemetryRollupFailures', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    acknowledgeRule(
      failures,
      'SQS3',
      "This queue is the on-failure destination of the roll-up function's stream event source (shard and sequence numbers of readings whose hours could not be recomputed); nothing consumes it that could fail.",
    );
    const table = TableV2.fromTableAttributes(this, 'TelemetryTable', {
      tableName: stateful.telemetryTableName,
      tableStreamArn: stateful.telemetryTableStreamArn,
    });
    fn.function.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: telemetryRollups.batchSize,
        maxBatchingWindow: Duration.seconds(telemetryRollups.maxBatchingWindowSeconds),
        retryAttempts: telemetryRollups.retryAttempts,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(failures),
        filters: [FilterCriteria.filter(telemetryRollups.filter)],
      }),
    );
    return failures;
  }

  /** The account's IoT data endpoint (ATS), read at deploy time. */
  private lookUpIotEndpoint(): string {
    const lookup = new AwsCustomResource(this, 'IotEndpointLookup', {
      onUpdate: {
        service: 'Iot',
        action: 'describeEndpoint',
        parameters: { endpointType: 'iot:Data-ATS' },
        physicalResourceId: PhysicalResourceId.of('iot-data-ats-endpoint'),
      },
      policy: AwsCustomResourcePolicy.fromSdkCalls({ resources: AwsCustomResourcePolicy.ANY_RESOURCE }),
      installLatestAwsSdk: false,
    });
    acknowledgePolicyWildcardsAtSynth(
      lookup,
      'iot:DescribeEndpoint does not support resource-level permissions; this deploy-time lookup may call nothing else.',
    );
    // The provider is a singleton Lambda at stack level, named after its fixed UUID.
    const provider = this.node.tryFindChild('AWS679f53fac002430cb0da5b7982bd2287');
    if (provider) {
      acknowledgeRule(
        provider,
        'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        'CDK AwsCustomResource provider: CDK attaches the AWS managed basic execution policy (CloudWatch Logs only) to its singleton role.',
      );
    }
    return lookup.getResponseField('endpointAddress');
  }
}

import { CustomResource, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnAuthorizer, CfnTopicRule } from 'aws-cdk-lib/aws-iot';
import { type IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { telemetryFilter } from '@argentum/events';
import { REALTIME_TOKEN_KEY_NAME } from '@argentum/events/contracts';
import { TELEMETRY_MAX_RECEIVES } from '@argentum/functions/domain/telemetry/ingest';
import { telemetryBatching } from '../../src/definitions';

/**
 * The IoT rule that feeds device telemetry, through a queue, to the ingest Lambda. Devices may publish
 * to `{org}/sensordata/{devID}` or, without the messaging charge, straight to the rule through Basic
 * Ingest: `$aws/rules/{ruleName}/{org}/sensordata/{devID}`. Either way `topic(1)` is the organization:
 * the Basic Ingest prefix is not part of the topic the rule's functions see (AWS IoT developer guide,
 * "Reducing messaging costs with Basic Ingest").
 */
export const telemetryRuleSql = `SELECT *, topic(1) AS orgId, topic(3) AS topicDevId, timestamp() AS receivedAt FROM '${telemetryFilter}'`;

export interface RealtimeProps {
  ingest: IFunction;
  /** The ingest function's timeout: the queue's visibility timeout must exceed it. */
  ingestTimeout: Duration;
  /**
   * How long the queue's event source gathers telemetry before it invokes ingest (s; default
   * `telemetryBatching.maxBatchingWindowSeconds`). Longer windows put several readings of each device
   * in one batch, so one roll-up and one latest-values write serve them all (docs/cost.md); stored
   * latest values and graphs are then up to that long behind.
   */
  batchingWindowSeconds?: number;
  authorizer: IFunction;
  /** Name of the IoT custom authorizer browsers connect through. */
  authorizerName: string;
  /** The Firehose stream of the archive of raw readings (reading-archive.ts): the rule's second action. */
  archive: { streamName: string; streamArn: string };
  /**
   * Makes the token-signing key pair (lambda/realtime-signing-key.ts): stores the private key in
   * `signingKey` and answers the public key. Granted write on that secret only.
   */
  signingKeyMaker: IFunction;
  /** The secret the private key is kept in (the auth API function reads it to sign tokens). */
  signingKey: Secret;
}

/**
 * IoT Core wiring: the telemetry rule (devices -> queue -> ingest, in batches) with an error action, and
 * the custom authorizer that lets browsers connect over MQTT/WebSocket with their Cognito access token.
 * The queue lets one ingest invocation store hundreds of readings at once; invoking a Lambda per
 * message would cost four writes per reading and cannot keep up with thousands of readings a second.
 */
export class Realtime extends Construct {
  readonly topicRule: CfnTopicRule;
  readonly telemetryQueue: Queue;
  readonly telemetryDeadLetters: Queue;
  readonly authorizer: CfnAuthorizer;
  readonly ruleErrors: LogGroup;

  constructor(scope: Construct, id: string, props: RealtimeProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const window = props.batchingWindowSeconds ?? telemetryBatching.maxBatchingWindowSeconds;

    // Messages the rule could not hand to Lambda (throttling, permission) land here instead of vanishing.
    this.ruleErrors = new LogGroup(this, 'TelemetryRuleErrors', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const errorActionRole = new Role(this, 'TelemetryRuleErrorRole', {
      assumedBy: new ServicePrincipal('iot.amazonaws.com'),
      description: 'Lets the telemetry IoT rule write failed messages to its error log group',
    });
    this.ruleErrors.grantWrite(errorActionRole);

    this.telemetryDeadLetters = new Queue(this, 'TelemetryDeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.telemetryQueue = new Queue(this, 'TelemetryQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(4),
      // AWS's guidance for Lambda event sources: at least six times the function timeout
      // (plus the batching window, which the event source holds messages for).
      visibilityTimeout: Duration.seconds(props.ingestTimeout.toSeconds() * 6 + (window > 1 ? window : 0)),
      deadLetterQueue: { queue: this.telemetryDeadLetters, maxReceiveCount: TELEMETRY_MAX_RECEIVES },
    });
    const ruleRole = new Role(this, 'TelemetryRuleRole', {
      assumedBy: new ServicePrincipal('iot.amazonaws.com'),
      description: 'Lets the telemetry IoT rule send messages to the telemetry queue',
    });
    this.telemetryQueue.grantSendMessages(ruleRole);
    ruleRole.addToPolicy(
      new PolicyStatement({
        actions: ['firehose:PutRecord', 'firehose:PutRecordBatch'],
        resources: [props.archive.streamArn],
      }),
    );

    this.topicRule = new CfnTopicRule(this, 'TelemetryRule', {
      topicRulePayload: {
        description: 'Device telemetry to the ingest queue and the archive',
        sql: telemetryRuleSql,
        awsIotSqlVersion: '2016-03-23',
        ruleDisabled: false,
        actions: [
          { sqs: { queueUrl: this.telemetryQueue.queueUrl, roleArn: ruleRole.roleArn, useBase64: false } },
          // Every message also goes to the long-term archive (Firehose: by organization and day, GZIP).
          {
            firehose: {
              deliveryStreamName: props.archive.streamName,
              roleArn: ruleRole.roleArn,
              batchMode: false,
            },
          },
        ],
        errorAction: {
          cloudwatchLogs: { logGroupName: this.ruleErrors.logGroupName, roleArn: errorActionRole.roleArn },
        },
      },
    });
    props.ingest.addEventSource(
      new SqsEventSource(this.telemetryQueue, {
        // A long window needs batches big enough to hold it (SQS caps them at 10,000 and 6 MB).
        batchSize: window > telemetryBatching.maxBatchingWindowSeconds ? 10_000 : telemetryBatching.batchSize,
        maxBatchingWindow: Duration.seconds(window),
        reportBatchItemFailures: true,
      }),
    );

    // The key pair: the private half goes straight into the secret, the public half to the authorizer.
    const signingKey = new CustomResource(this, 'TokenSigningKey', {
      serviceToken: props.signingKeyMaker.functionArn,
      properties: { SecretId: props.signingKey.secretArn },
    });
    this.authorizer = new CfnAuthorizer(this, 'RealtimeAuthorizer', {
      authorizerName: props.authorizerName,
      authorizerFunctionArn: props.authorizer.functionArn,
      // Browsers present a connection token the API signed (POST /api/realtimeToken) in the MQTT user
      // name: IoT Core verifies its signature before it invokes the function, so junk connection
      // attempts never reach (nor bill) the authorizer.
      signingDisabled: false,
      tokenKeyName: REALTIME_TOKEN_KEY_NAME,
      tokenSigningPublicKeys: { realtime: signingKey.getAttString('PublicKey') },
      status: 'ACTIVE',
      enableCachingForHttp: false,
    });
    props.authorizer.addPermission('InvokeFromIotAuthorizer', {
      principal: new ServicePrincipal('iot.amazonaws.com'),
      sourceArn: this.authorizer.attrArn,
      sourceAccount: stack.account,
    });
  }
}

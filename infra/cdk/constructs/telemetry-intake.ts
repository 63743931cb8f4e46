import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnTopicRule } from 'aws-cdk-lib/aws-iot';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { telemetryFilter } from '@argentum/contracts/messaging';
import { TELEMETRY_MAX_RECEIVES } from '@argentum/functions/domain/telemetry/ingest';
import { TELEMETRY_RULE_NAME, telemetryBatching } from '../../src/definitions';
import { grantRuleErrorLog } from './rule-errors';

/**
 * The IoT rule that feeds device telemetry, through a queue, to the ingest Lambda. Devices may publish
 * to `{org}/sensordata/{devID}` or, without the messaging charge, straight to the rule through Basic
 * Ingest: `$aws/rules/{ruleName}/{org}/sensordata/{devID}`. Either way `topic(1)` is the organization:
 * the Basic Ingest prefix is not part of the topic the rule's functions see (AWS IoT developer guide,
 * "Reducing messaging costs with Basic Ingest").
 */
export const telemetryRuleSql = `SELECT *, topic(1) AS orgId, topic(3) AS topicDevId, clientid() AS clientId, timestamp() AS receivedAt FROM '${telemetryFilter}'`;

/** The ingest function's timeout (s): the telemetry queue's visibility timeout is derived from it. */
export const INGEST_TIMEOUT_SECONDS = 30;

export interface TelemetryIntakeProps {
  /**
   * How long the ingest event source gathers telemetry (s; default
   * `telemetryBatching.maxBatchingWindowSeconds`); the queue holds messages that long longer.
   */
  batchingWindowSeconds?: number | undefined;
}

/**
 * What devices publish into and must stay put across deployments of the stateless stack: the rule (a
 * fixed name devices publish to), its queue with the readings in flight and their dead letters, and
 * the rule's error log. The ingest Lambda's event source (stateless stack) reads the queue.
 */
export class TelemetryIntake extends Construct {
  readonly topicRule: CfnTopicRule;
  readonly queue: Queue;
  readonly deadLetters: Queue;
  readonly ruleErrors: LogGroup;

  constructor(scope: Construct, id: string, props: TelemetryIntakeProps) {
    super(scope, id);
    const window = props.batchingWindowSeconds ?? telemetryBatching.maxBatchingWindowSeconds;

    // Messages the rule could not hand to SQS (throttling, permission) land here instead of vanishing.
    this.ruleErrors = new LogGroup(this, 'TelemetryRuleErrors', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const errorActionRole = new Role(this, 'TelemetryRuleErrorRole', {
      assumedBy: new ServicePrincipal('iot.amazonaws.com'),
      description: 'Lets the telemetry IoT rule write failed messages to its error log group',
    });
    grantRuleErrorLog(this.ruleErrors, errorActionRole);

    this.deadLetters = new Queue(this, 'TelemetryDeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new Queue(this, 'TelemetryQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(4),
      // AWS's guidance for Lambda event sources: at least six times the function timeout
      // (plus the batching window, which the event source holds messages for).
      visibilityTimeout: Duration.seconds(INGEST_TIMEOUT_SECONDS * 6 + (window > 1 ? window : 0)),
      deadLetterQueue: { queue: this.deadLetters, maxReceiveCount: TELEMETRY_MAX_RECEIVES },
    });
    const ruleRole = new Role(this, 'TelemetryRuleRole', {
      assumedBy: new ServicePrincipal('iot.amazonaws.com'),
      description: 'Lets the telemetry IoT rule send messages to the telemetry queue',
    });
    this.queue.grantSendMessages(ruleRole);

    this.topicRule = new CfnTopicRule(this, 'TelemetryRule', {
      ruleName: TELEMETRY_RULE_NAME,
      topicRulePayload: {
        description: 'Device telemetry to the ingest queue',
        sql: telemetryRuleSql,
        awsIotSqlVersion: '2016-03-23',
        ruleDisabled: false,
        actions: [
          // One action: ingest hands what it accepted to the archive, one Firehose request a batch,
          // where a second action would cost a rule action and a 5 KB Firehose record a message.
          { sqs: { queueUrl: this.queue.queueUrl, roleArn: ruleRole.roleArn, useBase64: false } },
        ],
        errorAction: {
          cloudwatchLogs: { logGroupName: this.ruleErrors.logGroupName, roleArn: errorActionRole.roleArn },
        },
      },
    });
  }
}

import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnAuthorizer, CfnTopicRule } from 'aws-cdk-lib/aws-iot';
import { type IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { telemetryFilter } from '@argentum/events';

/** The IoT rule that feeds device telemetry to the ingest Lambda. */
export const telemetryRuleSql = `SELECT *, topic(1) AS orgId FROM '${telemetryFilter}'`;

export interface RealtimeProps {
  ingest: IFunction;
  authorizer: IFunction;
  /** Name of the IoT custom authorizer browsers connect through. */
  authorizerName: string;
}

/**
 * IoT Core wiring: the telemetry rule (devices -> ingest) with an error action, and the custom
 * authorizer that lets browsers connect over MQTT/WebSocket with their Cognito access token.
 */
export class Realtime extends Construct {
  readonly topicRule: CfnTopicRule;
  readonly authorizer: CfnAuthorizer;
  readonly ruleErrors: LogGroup;

  constructor(scope: Construct, id: string, props: RealtimeProps) {
    super(scope, id);
    const stack = Stack.of(this);

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

    this.topicRule = new CfnTopicRule(this, 'TelemetryRule', {
      topicRulePayload: {
        description: 'Device telemetry to the ingest Lambda',
        sql: telemetryRuleSql,
        awsIotSqlVersion: '2016-03-23',
        ruleDisabled: false,
        actions: [{ lambda: { functionArn: props.ingest.functionArn } }],
        errorAction: {
          cloudwatchLogs: { logGroupName: this.ruleErrors.logGroupName, roleArn: errorActionRole.roleArn },
        },
      },
    });
    props.ingest.addPermission('InvokeFromTelemetryRule', {
      principal: new ServicePrincipal('iot.amazonaws.com'),
      sourceArn: this.topicRule.attrArn,
      sourceAccount: stack.account,
    });

    this.authorizer = new CfnAuthorizer(this, 'RealtimeAuthorizer', {
      authorizerName: props.authorizerName,
      authorizerFunctionArn: props.authorizer.functionArn,
      // Browsers present a Cognito access token, verified by the function; there is no token signature.
      signingDisabled: true,
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

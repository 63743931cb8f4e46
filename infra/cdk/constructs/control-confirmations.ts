import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnTopicRule } from 'aws-cdk-lib/aws-iot';
import { type IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { confirmationFilter } from '@argentum/contracts/messaging';
import { grantRuleErrorLog } from './rule-errors';

/**
 * The IoT rule that hands each device confirmation to the confirmation Lambda. Commands share the
 * topic level (`{org}/controldata/{dev}`), so the rule keeps only success and fail. The arrival time
 * is IoT Core's, so a reply is judged against the 5 s deadline by when it arrived. The publishing
 * client (clientid(): a device connects only as its thing name, device-access.ts) says who speaks: a
 * device's word counts only for itself. The WHERE clause compares the payload's own `devID` with it,
 * so the check holds whatever a payload carries under the selected names; the Lambda checks again.
 */
export const confirmationRuleSql =
  `SELECT *, topic(1) AS orgId, topic(3) AS outcome, clientid() AS clientId, timestamp() AS receivedAt ` +
  `FROM '${confirmationFilter}' ` +
  `WHERE (topic(3) = 'success' OR topic(3) = 'fail') AND devID = clientid()`;

export interface ControlConfirmationsProps {
  handler: IFunction;
}

/**
 * Device confirmations -> the confirmation Lambda, invoked directly (asynchronously, retried twice by
 * IoT Core): they are few, and a reply must be settled within seconds; settling is idempotent.
 */
export class ControlConfirmations extends Construct {
  readonly topicRule: CfnTopicRule;
  readonly ruleErrors: LogGroup;

  constructor(scope: Construct, id: string, props: ControlConfirmationsProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.ruleErrors = new LogGroup(this, 'ConfirmationRuleErrors', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const errorActionRole = new Role(this, 'ConfirmationRuleErrorRole', {
      assumedBy: new ServicePrincipal('iot.amazonaws.com'),
      description: 'Lets the confirmation IoT rule write failed messages to its error log group',
    });
    grantRuleErrorLog(this.ruleErrors, errorActionRole);

    this.topicRule = new CfnTopicRule(this, 'ConfirmationRule', {
      topicRulePayload: {
        description: 'Device confirmations of commands to the confirmation Lambda',
        sql: confirmationRuleSql,
        awsIotSqlVersion: '2016-03-23',
        ruleDisabled: false,
        actions: [{ lambda: { functionArn: props.handler.functionArn } }],
        errorAction: {
          cloudwatchLogs: { logGroupName: this.ruleErrors.logGroupName, roleArn: errorActionRole.roleArn },
        },
      },
    });
    props.handler.addPermission('InvokeFromConfirmationRule', {
      principal: new ServicePrincipal('iot.amazonaws.com'),
      sourceArn: this.topicRule.attrArn,
      sourceAccount: stack.account,
    });
  }
}

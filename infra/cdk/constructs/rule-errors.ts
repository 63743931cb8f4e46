import { type IGrantable } from 'aws-cdk-lib/aws-iam';
import { type LogGroup } from 'aws-cdk-lib/aws-logs';

/**
 * What an IoT rule's CloudWatch Logs error action needs on its log group, as AWS lists it for the
 * action's role (AWS IoT developer guide, "CloudWatch Logs"): CreateLogStream, DescribeLogStreams and
 * PutLogEvents. `grantWrite` alone omits DescribeLogStreams.
 */
export const ruleErrorLogActions = ['logs:CreateLogStream', 'logs:DescribeLogStreams', 'logs:PutLogEvents'];

export function grantRuleErrorLog(logGroup: LogGroup, role: IGrantable): void {
  logGroup.grant(role, ...ruleErrorLogActions);
}

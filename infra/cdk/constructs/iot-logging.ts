import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnLogging } from 'aws-cdk-lib/aws-iot';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

export const iotLogLevels = ['ERROR', 'WARN', 'INFO', 'DEBUG', 'DISABLED'] as const;
export type IotLogLevel = (typeof iotLogLevels)[number];

/** The log group IoT Core writes to (fixed by AWS). */
export const IOT_LOG_GROUP = 'AWSIotLogsV2';

/**
 * IoT Core's own logging (connections refused, rule SQL and action errors, authorizer failures), at
 * ERROR by default: INFO and DEBUG log every message and cost accordingly. It is a setting of the
 * account and region, so a second copy of the platform there fails on it too (one copy per account
 * and region). The log group is created here with a retention (IoT Core would create it without one).
 */
export class IotLogging extends Construct {
  readonly logging: CfnLogging;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: { level: IotLogLevel }) {
    super(scope, id);
    const stack = Stack.of(this);
    this.logGroup = new LogGroup(this, 'LogGroup', {
      logGroupName: IOT_LOG_GROUP,
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('iot.amazonaws.com'),
      description: 'Lets IoT Core write its logs (AWSIotLogsV2)',
    });
    // The log group exists (above), so IoT Core needs no CreateLogGroup.
    this.logGroup.grant(role, 'logs:CreateLogStream', 'logs:DescribeLogStreams', 'logs:PutLogEvents');
    this.logging = new CfnLogging(this, 'Logging', {
      accountId: stack.account,
      roleArn: role.roleArn,
      defaultLogLevel: props.level,
    });
    this.logging.node.addDependency(this.logGroup);
  }
}

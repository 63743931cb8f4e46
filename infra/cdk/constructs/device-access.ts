import { Aws, CfnOutput } from 'aws-cdk-lib';
import { CfnPolicy } from 'aws-cdk-lib/aws-iot';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { Construct } from 'constructs';
import { topics } from '@argentum/contracts/messaging';
import { ORG_ATTRIBUTE } from '@argentum/functions/domain/devices/provisioning';
import { deviceProvisioningParameters } from '../../src/definitions';

/** IoT policy variables: the connected thing's name (= device id = client id) and its organization. */
const THING = '${iot:Connection.Thing.ThingName}';
const THING_ORG = `\${iot:Connection.Thing.Attributes[${ORG_ATTRIBUTE}]}`;

export interface DeviceAccessProps {
  /** Prefix of the stack names: names the policy and the SSM parameters the command reads. */
  stackPrefix: string;
  /** The telemetry rule's name (its Ref), for the Basic Ingest form of the telemetry topic. */
  telemetryRuleName: string;
  /** The platform table's name, where the command registers devices. */
  platformTableName: string;
}

/**
 * The one IoT policy of every device certificate. Its policy variables confine each device to its own
 * organization (thing attribute `orgID`) and id (thing name): it connects only as its thing, publishes
 * only its own telemetry (plain or through Basic Ingest) and its organization's confirmations, and
 * subscribes to and receives only its own commands. A thing without the attribute matches nothing.
 */
export class DeviceAccess extends Construct {
  readonly policy: CfnPolicy;
  readonly policyName: string;

  constructor(scope: Construct, id: string, props: DeviceAccessProps) {
    super(scope, id);
    const arn = (resource: string) => `arn:${Aws.PARTITION}:iot:${Aws.REGION}:${Aws.ACCOUNT_ID}:${resource}`;
    const telemetry = topics.sensorData(THING_ORG, THING);
    this.policyName = `${props.stackPrefix}-device`;
    this.policy = new CfnPolicy(this, 'Policy', {
      policyName: this.policyName,
      policyDocument: {
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Action: 'iot:Connect',
            Resource: arn(`client/${THING}`),
            // Only a certificate attached to the thing it claims to be.
            Condition: { Bool: { 'iot:Connection.Thing.IsAttached': 'true' } },
          },
          {
            Effect: 'Allow',
            Action: 'iot:Publish',
            Resource: [
              arn(`topic/${telemetry}`),
              arn(`topic/$aws/rules/${props.telemetryRuleName}/${telemetry}`),
              arn(`topic/${topics.controlSuccess(THING_ORG)}`),
              arn(`topic/${topics.controlFail(THING_ORG)}`),
            ],
          },
          {
            Effect: 'Allow',
            Action: 'iot:Subscribe',
            Resource: arn(`topicfilter/${topics.control(THING_ORG, THING)}`),
          },
          {
            Effect: 'Allow',
            Action: 'iot:Receive',
            Resource: arn(`topic/${topics.control(THING_ORG, THING)}`),
          },
        ],
      },
    });

    const parameters = deviceProvisioningParameters(props.stackPrefix);
    new StringParameter(this, 'PolicyNameParameter', {
      parameterName: parameters.policyName,
      stringValue: this.policyName,
      description: 'The IoT policy every device certificate gets (npm run provision-device)',
    });
    new StringParameter(this, 'TelemetryRuleNameParameter', {
      parameterName: parameters.telemetryRuleName,
      stringValue: props.telemetryRuleName,
      description: 'The telemetry rule: devices publish to $aws/rules/{name}/{org}/sensordata/{devID}',
    });
    new StringParameter(this, 'PlatformTableNameParameter', {
      parameterName: parameters.platformTableName,
      stringValue: props.platformTableName,
      description: 'The platform table, where npm run provision-device registers devices',
    });
    new CfnOutput(this, 'DevicePolicyName', { value: this.policyName });
    new CfnOutput(this, 'TelemetryRuleName', { value: props.telemetryRuleName });
  }
}

import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { telemetryRuleSql } from '../../cdk/constructs/telemetry-intake';
import { deviceProvisioningParameters } from '../../src/definitions';
import { synthPlatform, type SynthesizedPlatform } from './synth';

type Resources = Record<string, { Properties: Record<string, unknown> }>;

let platform: SynthesizedPlatform;
let template: Template;
beforeAll(() => {
  platform = synthPlatform();
  // Devices' policy and rule outlive the stateless stack: they live with the retained data.
  template = Template.fromStack(platform.stateful);
});

const ruleRef = () => ({
  Ref: platform.stateful.getLogicalId(platform.stateful.telemetryIntake.topicRule),
});
/** An IoT ARN as the template spells it: partition, region and account of the deploying stack. */
const arn = (...resource: unknown[]) => ({
  'Fn::Join': [
    '',
    [
      'arn:',
      { Ref: 'AWS::Partition' },
      ':iot:',
      { Ref: 'AWS::Region' },
      ':',
      { Ref: 'AWS::AccountId' },
      ...resource,
    ],
  ],
});
const org = '${iot:Connection.Thing.Attributes[orgID]}';
const thing = '${iot:Connection.Thing.ThingName}';

describe('device IoT policy', () => {
  it('is one policy whose variables confine every device to its organization and its own id', () => {
    const policies = template.findResources('AWS::IoT::Policy') as Resources;
    expect(Object.keys(policies)).toHaveLength(1);
    const [policy] = Object.values(policies);
    expect(policy?.Properties.PolicyName).toBe('Argentum-device');
    expect(policy?.Properties.PolicyDocument).toEqual({
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Allow',
          Action: 'iot:Connect',
          Resource: arn(`:client/${thing}`),
          Condition: { Bool: { 'iot:Connection.Thing.IsAttached': 'true' } },
        },
        {
          Effect: 'Allow',
          Action: 'iot:Publish',
          Resource: [
            arn(`:topic/${org}/sensordata/${thing}`),
            arn(':topic/$aws/rules/', ruleRef(), `/${org}/sensordata/${thing}`),
            arn(`:topic/${org}/controldata/success`),
            arn(`:topic/${org}/controldata/fail`),
          ],
        },
        {
          Effect: 'Allow',
          Action: 'iot:Subscribe',
          Resource: arn(`:topicfilter/${org}/controldata/${thing}`),
        },
        {
          Effect: 'Allow',
          Action: 'iot:Receive',
          Resource: arn(`:topic/${org}/controldata/${thing}`),
        },
      ],
    });
  });

  it('names the policy and the telemetry rule in SSM parameters and outputs, for the provisioning command', () => {
    const names = deviceProvisioningParameters('Argentum');
    template.hasResourceProperties('AWS::SSM::Parameter', {
      Name: names.policyName,
      Type: 'String',
      Value: 'Argentum-device',
    });
    template.hasResourceProperties('AWS::SSM::Parameter', {
      Name: names.telemetryRuleName,
      Type: 'String',
      Value: ruleRef(),
    });
    const outputs = Object.values(template.toJSON().Outputs as Record<string, { Value: unknown }>);
    expect(outputs.map((o) => o.Value)).toEqual(expect.arrayContaining(['Argentum-device', ruleRef()]));
  });

  it('takes telemetry from both topic forms: the rule reads the organization from the topic, not its prefix', () => {
    expect(telemetryRuleSql).toBe(
      "SELECT *, topic(1) AS orgId, topic(3) AS topicDevId, clientid() AS clientId, timestamp() AS receivedAt FROM '+/sensordata/+'",
    );
    template.hasResourceProperties('AWS::IoT::TopicRule', {
      TopicRulePayload: Match.objectLike({ Sql: telemetryRuleSql }),
    });
  });
});

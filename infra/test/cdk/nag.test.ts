import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { type PolicyValidationPluginReport } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { synthPlatform, type SynthesizedPlatform } from './synth';

/**
 * cdk-nag 3 (installed) is a CDK validation plugin: app.ts registers it with `Validations.of(app)`,
 * and findings are acknowledged with `Validations.of(construct).acknowledge()`, each with its reason.
 * Here the pack runs directly on the synthesized tree (`validateScope`) so failures list the findings.
 */
function findings(report: PolicyValidationPluginReport): string[] {
  return report.violations.flatMap((violation) =>
    violation.violatingResources.map(
      (resource) =>
        `${violation.severity} ${violation.ruleName} at ${resource.constructPath}: ${violation.description}`,
    ),
  );
}

/** The rules acknowledged in every variant (each acknowledgement sits next to its resource). */
const commonRules = [
  'Annotation::AwsSolutions-APIG4',
  'Annotation::AwsSolutions-CFR1',
  'Annotation::AwsSolutions-CFR2',
  'Annotation::AwsSolutions-CFR4',
  'Annotation::AwsSolutions-COG2',
  'Annotation::AwsSolutions-COG3',
  'Annotation::AwsSolutions-COG8',
  'Annotation::AwsSolutions-IAM5',
  'Annotation::AwsSolutions-L1',
  'Annotation::AwsSolutions-S1',
  'CloudFormation-Validate::W3045',
];

/** The managed policy CDK gives the IoT endpoint lookup, which runs only when no endpoint is given. */
const iotEndpointLookup = 'Annotation::AwsSolutions-IAM4';

const variants: {
  name: string;
  context: Record<string, string>;
  withSite: boolean;
  acknowledgedRules: string[];
}[] = [
  {
    name: 'default (DynamoDB telemetry, web app deployed)',
    context: {},
    withSite: true,
    acknowledgedRules: [...commonRules, iotEndpointLookup],
  },
  {
    name: 'Timestream telemetry, no web app build',
    context: { telemetryStore: 'timestream' },
    withSite: false,
    acknowledgedRules: [
      ...commonRules,
      iotEndpointLookup,
      'Annotation::AwsSolutions-TS3',
      'CloudFormation-Validate::W3697',
    ],
  },
  {
    name: 'appOrigin and iotEndpoint given',
    context: { appOrigin: 'https://iot.example.com', iotEndpoint: 'abc-ats.iot.eu-west-1.amazonaws.com' },
    withSite: false,
    acknowledgedRules: commonRules,
  },
];

describe.each(variants)('cdk-nag AwsSolutions: $name', ({ context, withSite, acknowledgedRules }) => {
  let platform: SynthesizedPlatform;
  beforeAll(() => {
    platform = synthPlatform({ context, withSite });
  });

  it('has no unacknowledged errors or warnings', () => {
    const report = new AwsSolutionsChecks(platform.app, { verbose: true }).validateScope(platform.app);
    expect(findings(report)).toEqual([]);
    expect(report.success).toBe(true);
  });

  it('leaves no AwsSolutions or CDK error annotations on either stack', () => {
    for (const stack of [platform.stateful, platform.stateless]) {
      const annotations = Annotations.fromStack(stack);
      expect(annotations.findError('*', Match.stringLikeRegexp('AwsSolutions-.*'))).toEqual([]);
      expect(annotations.findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*'))).toEqual([]);
      expect(annotations.findError('*', Match.anyValue())).toEqual([]);
    }
  });

  it('acknowledges only the expected rules, each with a specific reason', () => {
    const acknowledged = [platform.stateful, platform.stateless].flatMap((stack) =>
      stack.node
        .findAll()
        .flatMap((construct) => construct.node.metadata)
        .filter((entry) => entry.type === 'aws:cdk:acknowledged-rules')
        .flatMap((entry) => Object.entries(entry.data as Record<string, string>)),
    );
    // Rule ids without the finding of IAM5 (`[Action::...]`, `[Resource::...]`).
    const rules = [...new Set(acknowledged.map(([id]) => id.replace(/\[.*$/, '')))].sort();
    expect(rules).toEqual([...acknowledgedRules].sort());
    for (const [id, reason] of acknowledged) expect(reason.length, id).toBeGreaterThan(40);
  });
});

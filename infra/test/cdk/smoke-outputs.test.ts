import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { deploymentOutputs, type StackOutputs } from '../../ops/smoke-outputs';
import { synthPlatform, type SynthesizedPlatform } from './synth';

let platform: SynthesizedPlatform;
beforeAll(() => {
  platform = synthPlatform();
});

/**
 * The outputs file `cdk deploy --outputs-file` would write for the synthesized stacks: each stack's
 * outputs by logical id, each one's value standing for its id.
 */
function outputsFile(): StackOutputs {
  return Object.fromEntries(
    [platform.edge, platform.stateful, platform.stateless].map((stack) => {
      const outputs = (Template.fromStack(stack).toJSON() as { Outputs?: Record<string, unknown> }).Outputs;
      return [stack.stackName, Object.fromEntries(Object.keys(outputs ?? {}).map((id) => [id, `<${id}>`]))];
    }),
  );
}

describe('npm run smoke -- --outputs', () => {
  it('finds every output it reads in the stack that synthesizes it', () => {
    const prefix = platform.stateful.stackName.replace(/Stateful$/, '');
    expect(`${prefix}Stateless`).toBe(platform.stateless.stackName);
    expect(deploymentOutputs(outputsFile(), prefix)).toEqual({
      siteUrl: '<SiteUrl>',
      iotEndpoint: '<IotEndpoint>',
      platformTable: '<PlatformTableName>',
      telemetryTable: '<TelemetryTableName>',
      // DeviceAccess's outputs: the construct's path and a hash around the name.
      telemetryRuleName: expect.stringMatching(/^<\w*TelemetryRuleName[0-9A-F]{8}>$/),
      devicePolicyName: expect.stringMatching(/^<\w*DevicePolicyName[0-9A-F]{8}>$/),
    });
  });
});

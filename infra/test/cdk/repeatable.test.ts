import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../cdk/config';
import { TELEMETRY_RULE_NAME } from '../../src/definitions';
import { synthPlatform, type SynthesizedPlatform } from './synth';

interface EventSourceMapping {
  Properties: { BatchSize?: number; MaximumBatchingWindowInSeconds?: number; EventSourceArn?: unknown };
}

/** The ingest event source's batch settings, as Lambda will validate them. */
function telemetryMapping(platform: SynthesizedPlatform): EventSourceMapping['Properties'] {
  const mappings = Object.values(
    Template.fromStack(platform.stateless).findResources('AWS::Lambda::EventSourceMapping'),
  ) as EventSourceMapping[];
  const telemetry = mappings.find((m) =>
    JSON.stringify(m.Properties.EventSourceArn).includes('TelemetryQueue'),
  );
  if (!telemetry) throw new Error('no telemetry event source');
  return telemetry.Properties;
}

describe('every documented telemetryBatchingWindow synthesizes what Lambda and SQS accept', () => {
  it.each(['0', '1', '10', '300'])('telemetryBatchingWindow=%s', (window) => {
    const platform = synthPlatform({ context: { telemetryBatchingWindow: window } });
    const mapping = telemetryMapping(platform);
    const seconds = mapping.MaximumBatchingWindowInSeconds ?? 0;
    expect(seconds).toBe(Number(window));
    // AWS::Lambda::EventSourceMapping: SQS batches of 1-10,000; more than 10 needs a window of >= 1 s.
    expect(mapping.BatchSize).toBeGreaterThanOrEqual(1);
    expect(mapping.BatchSize).toBeLessThanOrEqual(10_000);
    if (seconds < 1) expect(mapping.BatchSize).toBeLessThanOrEqual(10);
    // The queue (stateful stack) holds messages at most 12 h invisible, and longer than the window.
    const [queue] = Object.values(
      Template.fromStack(platform.stateful).findResources('AWS::SQS::Queue', {
        Properties: { RedrivePolicy: {} },
      }),
    ).filter((q) => JSON.stringify(q).includes('TelemetryDeadLetters')) as {
      Properties: { VisibilityTimeout: number };
    }[];
    expect(queue?.Properties.VisibilityTimeout).toBeGreaterThan(seconds);
    expect(queue?.Properties.VisibilityTimeout).toBeLessThanOrEqual(43_200);
  });

  it('refuses values outside 0-300 whole seconds', () => {
    for (const value of ['-1', '301', '1.5', 'ten']) {
      expect(() =>
        readConfig(new App({ context: { mailFrom: 'a@b.example', telemetryBatchingWindow: value } })),
      ).toThrow(/telemetryBatchingWindow/);
    }
  });
});

describe('mail sender', () => {
  it('has no default: synth stops naming the context value', () => {
    expect(() => readConfig(new App())).toThrow(/Context mailFrom is required/);
    expect(() => readConfig(new App({ context: { mailFrom: 'not an address' } }))).toThrow(/mailFrom/);
    expect(readConfig(new App({ context: { mailFrom: 'Argentum <no-reply@acme.example>' } })).mailFrom).toBe(
      'Argentum <no-reply@acme.example>',
    );
  });

  it('refuses a malformed alarm address', () => {
    expect(() => readConfig(new App({ context: { mailFrom: 'a@b.example', alarmEmail: 'ops' } }))).toThrow(
      /alarmEmail/,
    );
  });
});

describe('region precedence', () => {
  it('takes -c region over CDK_DEFAULT_REGION (as docs/deploy.md says)', () => {
    const saved = process.env.CDK_DEFAULT_REGION;
    process.env.CDK_DEFAULT_REGION = 'us-west-2';
    try {
      expect(
        readConfig(new App({ context: { mailFrom: 'a@b.example', region: 'ca-central-1' } })).region,
      ).toBe('ca-central-1');
      expect(readConfig(new App({ context: { mailFrom: 'a@b.example' } })).region).toBe('us-west-2');
    } finally {
      if (saved === undefined) delete process.env.CDK_DEFAULT_REGION;
      else process.env.CDK_DEFAULT_REGION = saved;
    }
  });
});

/** Names of CloudFront resources (global: unique per account) in a stateless template. */
function cloudFrontNames(platform: SynthesizedPlatform): string[] {
  const template = Template.fromStack(platform.stateless).toJSON() as {
    Resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;
  };
  const names: string[] = [];
  for (const resource of Object.values(template.Resources)) {
    if (!resource.Type.startsWith('AWS::CloudFront::')) continue;
    const config = Object.entries(resource.Properties).find(([key]) => key.endsWith('Config'))?.[1] as
      { Name?: unknown } | undefined;
    const name = resource.Properties.Name ?? config?.Name;
    if (name !== undefined) names.push(JSON.stringify(name));
  }
  return names;
}

describe('names unique per account', () => {
  let europe: SynthesizedPlatform;
  let canada: SynthesizedPlatform;
  beforeAll(() => {
    europe = synthPlatform({ context: { region: 'eu-west-1' }, withSite: true });
    canada = synthPlatform({ context: { region: 'ca-central-1' }, withSite: true });
  });

  it('lets the same stack prefix deploy in two regions: CloudFront names and the us-east-1 stack differ', () => {
    const a = cloudFrontNames(europe);
    const b = cloudFrontNames(canada);
    // The response headers policy, the origin access control and both CloudFront Functions.
    expect(a.length).toBeGreaterThanOrEqual(4);
    for (const name of a) expect(b).not.toContain(name);
    expect(europe.edge.stackName).not.toBe(canada.edge.stackName);
    expect(europe.edge.region).toBe('us-east-1');
  });

  it('gives retained resources no fixed names, so a redeploy after a teardown creates them again', () => {
    const template = Template.fromStack(europe.stateful).toJSON() as {
      Resources: Record<string, { DeletionPolicy?: string; Properties?: Record<string, unknown> }>;
    };
    const nameKeys = ['Name', 'TableName', 'BucketName', 'UserPoolName', 'QueueName', 'DatabaseName'];
    for (const [id, resource] of Object.entries(template.Resources)) {
      if (resource.DeletionPolicy !== 'Retain') continue;
      for (const key of nameKeys) expect(resource.Properties?.[key], `${id}.${key}`).toBeUndefined();
    }
  });

  it('keeps the previous build on deploy, for tabs that lazy-load its chunks', () => {
    Template.fromStack(europe.stateless).hasResourceProperties('Custom::CDKBucketDeployment', {
      Prune: false,
    });
  });
});

describe('one copy of the platform per account and region (topics are not prefixed)', () => {
  it('gives the telemetry rule a fixed name in the stateful stack, so a second copy fails its first deploy', () => {
    const first = synthPlatform({ context: { stackPrefix: 'Production' } });
    const second = synthPlatform({ context: { stackPrefix: 'Staging' } });
    for (const platform of [first, second]) {
      Template.fromStack(platform.stateful).hasResourceProperties('AWS::IoT::TopicRule', {
        RuleName: TELEMETRY_RULE_NAME,
      });
    }
    expect(TELEMETRY_RULE_NAME).toMatch(/^[a-zA-Z0-9_]+$/);
  });
});

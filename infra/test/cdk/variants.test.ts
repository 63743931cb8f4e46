import { App, type Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiDomains } from '@argentum/functions/http/types';
import { tables } from '../../src/definitions';
import { readConfig } from '../../cdk/config';
import { synthPlatform } from './synth';

/** The environment of each platform function (the ones that read the platform table). */
function platformEnvironments(template: Template, rollups: boolean): Record<string, unknown>[] {
  const environments = Object.values(
    template.findResources('AWS::Lambda::Function') as Record<
      string,
      { Properties: { Environment?: { Variables?: Record<string, unknown> } } }
    >,
  )
    .map((fn) => fn.Properties.Environment?.Variables ?? {})
    .filter((variables) => 'PLATFORM_TABLE' in variables);
  // One per API domain, ingest, the realtime authorizer and its signing-key maker, the tree sweeper, the
  // presence sweep, the vendor poller, the mailer, confirmations and the plan renditions, and with the DynamoDB
  // telemetry store the roll-up function (Timestream aggregates when queried).
  expect(environments).toHaveLength(apiDomains.length + (rollups ? 10 : 9));
  return environments;
}

describe('telemetryStore=timestream', () => {
  let stateful: Template;
  let stateless: Template;
  beforeAll(() => {
    const platform = synthPlatform({ context: { telemetryStore: 'timestream' } });
    stateful = Template.fromStack(platform.stateful);
    stateless = Template.fromStack(platform.stateless);
  });

  it('adds a retained Timestream database and table next to the tables', () => {
    stateful.resourceCountIs('AWS::Timestream::Database', 1);
    stateful.hasResource('AWS::Timestream::Table', {
      Properties: Match.objectLike({
        RetentionProperties: Match.objectLike({ MemoryStoreRetentionPeriodInHours: '24' }),
      }),
      DeletionPolicy: 'Retain',
    });
    stateful.resourceCountIs('AWS::DynamoDB::GlobalTable', tables.length);
  });

  it('tells every platform Lambda to use Timestream, with its names', () => {
    for (const variables of platformEnvironments(stateless, false)) {
      expect(variables).toMatchObject({
        TELEMETRY_STORE: 'timestream',
        TIMESTREAM_DATABASE: { 'Fn::ImportValue': 'ArgentumStateful-TimestreamDatabaseName' },
        TIMESTREAM_TABLE: { 'Fn::ImportValue': 'ArgentumStateful-TimestreamTableName' },
      });
    }
  });

  it('lets only the data Lambda query and only ingest write Timestream', () => {
    const policies = stateless.findResources('AWS::IAM::Policy');
    const holders = (action: string) =>
      Object.entries(policies)
        .filter(([, policy]) => JSON.stringify(policy).includes(`"${action}"`))
        .map(([id]) => id);
    expect(holders('timestream:Select')).toEqual([expect.stringMatching(/^Apidata/)]);
    expect(holders('timestream:WriteRecords')).toEqual([expect.stringMatching(/^Ingest/)]);
  });
});

describe('without a front-end build, with appOrigin and iotEndpoint given', () => {
  let template: Template;
  let stateful: Stack;
  beforeAll(() => {
    const platform = synthPlatform({
      context: {
        appOrigin: 'https://iot.example.com',
        iotEndpoint: 'abc123-ats.iot.eu-west-1.amazonaws.com',
      },
    });
    template = Template.fromStack(platform.stateless);
    stateful = platform.stateful;
  });

  it('keeps the site bucket and distribution but deploys nothing', () => {
    template.resourceCountIs('Custom::CDKBucketDeployment', 0);
    template.resourceCountIs('AWS::CloudFront::Distribution', 1);
    template.hasResourceProperties('AWS::S3::Bucket', { LoggingConfiguration: Match.anyValue() });
  });

  it('uses the given origin for e-mail links and the given IoT endpoint without a lookup', () => {
    for (const variables of platformEnvironments(template, true)) {
      expect(variables).toMatchObject({
        APP_ORIGIN: 'https://iot.example.com',
        AWS_ENDPOINT_URL_IOT_DATA_PLANE: 'https://abc123-ats.iot.eu-west-1.amazonaws.com',
      });
    }
    template.resourceCountIs('Custom::AWS', 0);
    const policy = JSON.stringify(template.findResources('AWS::CloudFront::ResponseHeadersPolicy'));
    expect(policy).toContain("connect-src 'self' wss://abc123-ats.iot.eu-west-1.amazonaws.com https://");
    // Plan URLs are signed for the given origin: the app may show images from it under any name.
    expect(policy).toMatch(/img-src 'self' data: blob: https:\/\/[^;]* https:\/\/iot\.example\.com;/);
  });

  it('lets browsers use the files bucket (uploads, export downloads) only from the given origin', () => {
    Template.fromStack(stateful).hasResourceProperties('AWS::S3::Bucket', {
      CorsConfiguration: {
        CorsRules: [
          { AllowedMethods: ['POST', 'GET'], AllowedOrigins: ['https://iot.example.com'], MaxAge: 3600 },
        ],
      },
    });
  });
});

describe('telemetryCapacity=on-demand', () => {
  it('bills the telemetry table on demand, without auto scaling, and watches no capacity ratio', () => {
    const stateful = Template.fromStack(
      synthPlatform({ context: { telemetryCapacity: 'on-demand' } }).stateful,
    );
    const tablesFound = Object.values(
      stateful.findResources('AWS::DynamoDB::GlobalTable') as Record<string, { Properties: object }>,
    );
    expect(tablesFound).toHaveLength(tables.length);
    for (const table of tablesFound) {
      expect(table.Properties).toMatchObject({ BillingMode: 'PAY_PER_REQUEST' });
      expect(JSON.stringify(table)).not.toContain('AutoScalingSettings');
    }
    // Throttles are still watched (an on-demand table throttles at its partitions' limits).
    const metrics = Object.values(
      stateful.findResources('AWS::CloudWatch::Alarm') as Record<string, { Properties: object }>,
    ).map((alarm) => JSON.stringify(alarm.Properties));
    expect(metrics.some((m) => m.includes('WriteThrottleEvents'))).toBe(true);
    expect(metrics.some((m) => m.includes('ProvisionedWriteCapacityUnits'))).toBe(false);
  });
});

describe('context validation', () => {
  it('rejects an unknown telemetry capacity mode', () => {
    expect(() =>
      readConfig(new App({ context: { mailFrom: 'a@b.example', telemetryCapacity: 'reserved' } })),
    ).toThrow(/telemetryCapacity must be "provisioned" or "on-demand"/);
    expect(readConfig(new App({ context: { mailFrom: 'a@b.example' } })).telemetryCapacity).toBe(
      'provisioned',
    );
  });

  it('rejects an unknown telemetry store and a malformed app origin', () => {
    expect(() => readConfig(new App({ context: { telemetryStore: 'influx' } }))).toThrow(/telemetryStore/);
    expect(() => readConfig(new App({ context: { appOrigin: 'https://x.example.com/' } }))).toThrow(
      /appOrigin/,
    );
  });
});

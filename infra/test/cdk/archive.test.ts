import { Match, Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { CfnBucket } from 'aws-cdk-lib/aws-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '@argentum/functions/environment';
import { ARCHIVE_PARTITION_KEYS, archiveDayPrefix } from '@argentum/functions/domain/telemetry/archive';
import { synthPlatform, type SynthesizedPlatform } from './synth';

type Resources = Record<string, { Properties: Record<string, unknown>; DeletionPolicy?: string }>;

describe('the long-term archive of raw readings', () => {
  let platform: SynthesizedPlatform;
  let stateful: Template;
  let stateless: Template;
  beforeAll(() => {
    platform = synthPlatform();
    stateful = Template.fromStack(platform.stateful);
    stateless = Template.fromStack(platform.stateless);
  });

  it('keeps a retained, private, encrypted, TLS-only bucket that outlives the stacks', () => {
    const archive = platform.stateful.readingArchive.bucket;
    const id = platform.stateful.getLogicalId(archive.node.defaultChild as CfnBucket);
    const bucket = (stateful.findResources('AWS::S3::Bucket') as Resources)[id];
    expect(bucket?.DeletionPolicy).toBe('Retain');
    expect(bucket?.Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
    });
    stateful.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: id },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('delivers through Firehose, partitioned by organization and day from the JSON, gzipped, in large buffers', () => {
    stateful.resourceCountIs('AWS::KinesisFirehose::DeliveryStream', 1);
    const [stream] = Object.values(
      stateful.findResources('AWS::KinesisFirehose::DeliveryStream') as Resources,
    );
    const destination = stream?.Properties.ExtendedS3DestinationConfiguration as Record<string, unknown>;
    expect(destination).toMatchObject({
      CompressionFormat: 'GZIP',
      Prefix: archiveDayPrefix('!{partitionKeyFromQuery:orgId}', '!{partitionKeyFromQuery:day}'),
      ErrorOutputPrefix: expect.stringContaining('!{firehose:error-output-type}'),
      BufferingHints: { IntervalInSeconds: 900, SizeInMBs: 128 },
      DynamicPartitioningConfiguration: { Enabled: true },
    });
    const processors = (
      destination.ProcessingConfiguration as {
        Processors: { Type: string; Parameters?: { ParameterName: string; ParameterValue: string }[] }[];
      }
    ).Processors;
    const extraction = processors.find((p) => p.Type === 'MetadataExtraction');
    const query = extraction?.Parameters?.find(
      (p) => p.ParameterName === 'MetadataExtractionQuery',
    )?.ParameterValue;
    for (const [key, jq] of Object.entries(ARCHIVE_PARTITION_KEYS)) expect(query).toContain(`"${key}":${jq}`);
    expect(extraction?.Parameters).toContainEqual({
      ParameterName: 'JsonParsingEngine',
      ParameterValue: 'JQ-1.6',
    });
    // Ingest's records hold a batch's lines: deaggregated first, then each line partitioned.
    expect(processors.map((p) => p.Type)).toEqual([
      'RecordDeAggregation',
      'MetadataExtraction',
      'AppendDelimiterToRecord',
    ]);
    expect(processors[0]?.Parameters).toContainEqual({
      ParameterName: 'SubRecordType',
      ParameterValue: 'JSON',
    });
  });

  it('is fed by ingest, one PutRecordBatch a batch, not by a rule action a message', () => {
    const rule = platform.stateful.telemetryIntake.topicRule;
    const payload = platform.stateful.resolve(rule.topicRulePayload) as {
      actions: Record<string, unknown>[];
    };
    expect(payload.actions.map((a) => Object.keys(a)[0])).toEqual(['sqs']);
    expect(JSON.stringify(Template.fromStack(platform.stateful).toJSON())).not.toContain(
      'firehose:PutRecord"',
    );
    const ingest = platform.stateless.ingest.function.node.defaultChild as CfnFunction;
    const env = platform.stateless.resolve(ingest.environment) as { variables: Record<string, unknown> };
    expect(JSON.stringify(env.variables[ENV.archiveStreamName])).toContain('ArchiveStreamName');
    stateless.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: 'firehose:PutRecordBatch',
            Resource: Match.objectLike({ 'Fn::ImportValue': Match.stringLikeRegexp('ArchiveStreamArn') }),
          }),
        ]),
      },
    });
  });

  it('lets only the data function read the archive, under readings/, and tells it the bucket', () => {
    const readers = Object.entries(stateless.findResources('AWS::IAM::Policy') as Resources).filter(
      ([, policy]) => JSON.stringify(policy.Properties.PolicyDocument).includes('ArchiveBucketName'),
    );
    expect(readers).toHaveLength(1);
    const statements = (
      readers[0]?.[1].Properties.PolicyDocument as { Statement: { Action: unknown; Resource: unknown }[] }
    ).Statement.filter((s) => JSON.stringify(s.Resource).includes('ArchiveBucketName'));
    expect(statements.map((s) => s.Action)).toEqual(['s3:ListBucket', 's3:GetObject']);
    expect(JSON.stringify(statements[1]?.Resource)).toContain('/readings/*');
    const dataFunction = platform.stateless.apiFunctions.data.function.node.defaultChild as CfnFunction;
    const env = platform.stateless.resolve(dataFunction.environment) as {
      variables: Record<string, unknown>;
    };
    expect(JSON.stringify(env.variables[ENV.archiveBucket])).toContain('ArchiveBucketName');
  });
});

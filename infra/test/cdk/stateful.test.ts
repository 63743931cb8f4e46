import { type CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  filesBucket,
  platformTable,
  tables,
  telemetryCapacity,
  telemetryTable,
  userPool,
} from '../../src/definitions';
import { synthPlatform } from './synth';

describe('stateful stack (DynamoDB telemetry store, the default)', () => {
  let template: Template;
  beforeAll(() => {
    template = Template.fromStack(synthPlatform().stateful);
  });

  it.each(tables.map((table) => [table.id, table] as const))(
    'builds %s from its definition: keys, GSIs, TTL, PITR, its billing, retained',
    (_id, definition) => {
      const keySchema = [
        { AttributeName: definition.partitionKey.name, KeyType: 'HASH' },
        ...(definition.sortKey ? [{ AttributeName: definition.sortKey.name, KeyType: 'RANGE' }] : []),
      ];
      const gsis = definition.globalIndexes.map((index) => ({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey.name, KeyType: 'HASH' },
          ...(index.sortKey ? [{ AttributeName: index.sortKey.name, KeyType: 'RANGE' }] : []),
        ],
        Projection:
          typeof index.projection === 'string'
            ? { ProjectionType: index.projection }
            : { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projection.include] },
      }));
      const found = template.findResources('AWS::DynamoDB::GlobalTable', {
        Properties: {
          KeySchema: keySchema,
          // The telemetry table is provisioned (below); the platform table stays on demand.
          BillingMode: definition === telemetryTable ? 'PROVISIONED' : 'PAY_PER_REQUEST',
          TimeToLiveSpecification: { AttributeName: definition.timeToLiveAttribute, Enabled: true },
          GlobalSecondaryIndexes: gsis.length ? Match.arrayEquals(gsis) : Match.absent(),
          Replicas: [
            Match.objectLike({
              PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
              DeletionProtectionEnabled: true,
            }),
          ],
        },
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
      });
      expect(Object.keys(found)).toEqual([expect.stringMatching(new RegExp(`^${definition.id}`))]);
    },
  );

  it('provisions the telemetry table with target tracking auto scaling of writes and reads', () => {
    const c = telemetryCapacity;
    const tracking = {
      TargetTrackingScalingPolicyConfiguration: { TargetValue: c.targetUtilizationPercent },
    };
    expect(c.targetUtilizationPercent).toBe(70);
    const found = template.findResources('AWS::DynamoDB::GlobalTable', {
      Properties: {
        BillingMode: 'PROVISIONED',
        WriteProvisionedThroughputSettings: {
          WriteCapacityAutoScalingSettings: {
            MinCapacity: c.minWrite,
            MaxCapacity: c.maxWrite,
            // Required to switch a deployed on-demand table to provisioned.
            SeedCapacity: c.seedWrite,
            ...tracking,
          },
        },
        Replicas: [
          Match.objectLike({
            ReadProvisionedThroughputSettings: {
              ReadCapacityAutoScalingSettings: {
                MinCapacity: c.minRead,
                MaxCapacity: c.maxRead,
                SeedCapacity: c.seedRead,
                ...tracking,
              },
            },
          }),
        ],
      },
    });
    expect(Object.keys(found)).toEqual([expect.stringMatching(/^TelemetryTable/)]);
    // Floors below ceilings, and ceilings inside DynamoDB's per-table quota (40,000 units each).
    expect(c.minWrite).toBeLessThan(c.maxWrite);
    expect(c.minRead).toBeLessThan(c.maxRead);
    expect(Math.max(c.maxWrite, c.maxRead)).toBeLessThanOrEqual(40_000);
  });

  it('gives the tables the streams their definitions name: the platform table streams new images', () => {
    expect(platformTable.stream).toBe('NEW_IMAGE');
    for (const definition of tables) {
      const found = template.findResources('AWS::DynamoDB::GlobalTable', {
        Properties: {
          StreamSpecification: definition.stream ? { StreamViewType: definition.stream } : Match.absent(),
        },
      });
      expect(Object.keys(found), definition.id).toEqual([
        expect.stringMatching(new RegExp(`^${definition.id}`)),
      ]);
    }
    const outputs = template.findOutputs('PlatformTableStreamArn') as Record<string, { Value: unknown }>;
    expect(Object.values(outputs)[0]?.Value).toEqual({
      'Fn::GetAtt': [expect.stringMatching(/^PlatformTable/), 'StreamArn'],
    });
  });

  it('lists devices in indexes of keys only (a reading updates none); -c deviceIndexStep=1 leaves the second out', () => {
    const indexesOf = (t: Template) =>
      Object.values(
        t.findResources('AWS::DynamoDB::GlobalTable', {
          Properties: { KeySchema: [{ AttributeName: 'pk' }, { AttributeName: 'sk' }] },
        }),
      ).flatMap((table) =>
        (table.Properties.GlobalSecondaryIndexes as { IndexName: string; Projection: unknown }[]).map(
          (index) => [index.IndexName, index.Projection],
        ),
      );
    const keysOnly = { ProjectionType: 'KEYS_ONLY' };
    expect(indexesOf(template)).toEqual([
      ['gsi1', { ProjectionType: 'ALL' }],
      ['gsi2', { ProjectionType: 'ALL' }],
      ['gsi3', keysOnly],
      ['gsi4', keysOnly],
    ]);
    // DynamoDB's limit: at most 100 projected non-key attributes over all of a table's INCLUDE indexes.
    for (const definition of tables)
      expect(
        definition.globalIndexes.reduce(
          (n, i) => n + (typeof i.projection === 'object' ? i.projection.include.length : 0),
          0,
        ),
      ).toBeLessThanOrEqual(100);
    // CloudFormation adds one index per update: an existing deployment adds gsi3 first.
    const firstStep = Template.fromStack(synthPlatform({ context: { deviceIndexStep: '1' } }).stateful);
    expect(indexesOf(firstStep).map(([name]) => name)).toEqual(['gsi1', 'gsi2', 'gsi3']);
    expect(() => synthPlatform({ context: { deviceIndexStep: '3' } })).toThrow(/deviceIndexStep/);
  });

  it('has exactly the defined tables and no Timestream', () => {
    template.resourceCountIs('AWS::DynamoDB::GlobalTable', tables.length);
    template.resourceCountIs('AWS::Timestream::Database', 0);
    template.resourceCountIs('AWS::Timestream::Table', 0);
  });

  it('hardens the files bucket: no public access, SSE, TLS only, versioned, retained', () => {
    const buckets = template.findResources('AWS::S3::Bucket', {
      Properties: {
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        },
        VersioningConfiguration: { Status: 'Enabled' },
      },
      DeletionPolicy: 'Retain',
    });
    expect(Object.keys(buckets)).toEqual([expect.stringMatching(new RegExp(`^${filesBucket.id}`))]);
    const [bucketId] = Object.keys(buckets);
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: bucketId },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Action: 's3:*',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
          // CloudFront (origin access control of this account's distributions) reads plans only.
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'cloudfront.amazonaws.com' },
            Action: 's3:GetObject',
            Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/floorplans/*']] },
            Condition: {
              StringEquals: { 'AWS:SourceAccount': { Ref: 'AWS::AccountId' } },
              ArnLike: {
                'AWS:SourceArn': {
                  'Fn::Join': [
                    '',
                    [
                      'arn:',
                      { Ref: 'AWS::Partition' },
                      ':cloudfront::',
                      { Ref: 'AWS::AccountId' },
                      ':distribution/*',
                    ],
                  ],
                },
              },
            },
          }),
        ]),
      },
    });
  });

  it('lets browsers post uploads to the files bucket and download exports (CORS), and expires what is left in staging', () => {
    const staging = filesBucket.staging;
    expect(staging).toEqual({ prefix: 'uploads/', expireAfterDays: 1 });
    template.hasResourceProperties('AWS::S3::Bucket', {
      CorsConfiguration: {
        CorsRules: [{ AllowedMethods: ['POST', 'GET'], AllowedOrigins: ['*'], MaxAge: 3600 }],
      },
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({ NoncurrentVersionExpiration: { NoncurrentDays: 90 }, Status: 'Enabled' }),
          {
            Id: 'StagedUploads',
            Prefix: 'uploads/',
            ExpirationInDays: 1,
            NoncurrentVersionExpiration: { NoncurrentDays: 1 },
            AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
            Status: 'Enabled',
          },
          {
            Id: 'StagedUploadDeleteMarkers',
            Prefix: 'uploads/',
            ExpiredObjectDeleteMarker: true,
            Status: 'Enabled',
          },
        ]),
      },
    });
    // Nothing of the files bucket but the staging prefix expires (its access logs do, after a year).
    type BucketResource = {
      Properties: {
        LifecycleConfiguration?: { Rules: Record<string, unknown>[] };
        CorsConfiguration?: unknown;
      };
    };
    const buckets = (Object.values(template.findResources('AWS::S3::Bucket')) as BucketResource[]).filter(
      (bucket) => bucket.Properties.CorsConfiguration !== undefined,
    );
    expect(buckets).toHaveLength(1);
    const rules = buckets.flatMap((bucket) => bucket.Properties.LifecycleConfiguration?.Rules ?? []);
    for (const rule of rules.filter((r) => 'ExpirationInDays' in r || 'ExpiredObjectDeleteMarker' in r)) {
      expect(rule.Prefix).toBe('uploads/');
    }
  });

  it('creates the user pool from the definitions: e-mail sign-in, no self sign-up, retained', () => {
    template.hasResource('AWS::Cognito::UserPool', {
      Properties: Match.objectLike({
        UsernameAttributes: ['email'],
        AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
        Policies: {
          PasswordPolicy: Match.objectLike({
            MinimumLength: userPool.passwordPolicy.minLength,
            RequireLowercase: userPool.passwordPolicy.requireLowercase,
            RequireUppercase: userPool.passwordPolicy.requireUppercase,
            RequireNumbers: userPool.passwordPolicy.requireDigits,
            RequireSymbols: userPool.passwordPolicy.requireSymbols,
          }),
        },
        AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'verified_email', Priority: 1 }] },
        DeletionProtection: 'ACTIVE',
      }),
      DeletionPolicy: 'Retain',
    });
  });

  it('creates a public client (no secret) with password + refresh auth and the defined token validity', () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      ExplicitAuthFlows: Match.arrayEquals(['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH']),
      AccessTokenValidity: userPool.accessTokenValidityMinutes,
      RefreshTokenValidity: userPool.refreshTokenValidityDays * 24 * 60,
      TokenValidityUnits: Match.objectLike({ AccessToken: 'minutes', RefreshToken: 'minutes' }),
      PreventUserExistenceErrors: 'ENABLED',
      EnableTokenRevocation: true,
    });
  });

  it('exports the names the stateless stack imports, under fixed export names', () => {
    const outputs = template.findOutputs('*');
    const exportNames = Object.values(outputs)
      .map((output: { Export?: { Name?: string } }) => output.Export?.Name)
      .filter((name) => name !== undefined);
    expect(exportNames.sort()).toEqual(
      [
        'ArgentumStateful-PlatformTableName',
        'ArgentumStateful-PlatformTableStreamArn',
        'ArgentumStateful-TelemetryTableName',
        'ArgentumStateful-TelemetryTableStreamArn',
        'ArgentumStateful-FilesBucketName',
        'ArgentumStateful-ArchiveBucketName',
        // The archive's stream, which the ingest function feeds.
        'ArgentumStateful-ArchiveStreamName',
        'ArgentumStateful-ArchiveStreamArn',
        'ArgentumStateful-UserPoolId',
        'ArgentumStateful-UserPoolClientId',
        'ArgentumStateful-RyseSecretArn',
        'ArgentumStateful-NestSecretArn',
        'ArgentumStateful-EcobeeSecretArn',
        'ArgentumStateful-TelemetryQueueArn',
        'ArgentumStateful-TelemetryQueueUrl',
        'ArgentumStateful-TelemetryDeadLettersArn',
        'ArgentumStateful-TelemetryDeadLettersUrl',
        'ArgentumStateful-AlarmTopicArn',
      ].sort(),
    );
  });

  it('creates one retained secret per vendor for its credentials, never with their values, under generated names', () => {
    const secrets = template.findResources('AWS::SecretsManager::Secret', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    }) as Record<string, { Properties: Record<string, unknown> }>;
    const properties = Object.values(secrets).map((secret) => secret.Properties);
    expect(properties).toHaveLength(3);
    for (const p of properties) {
      // A retained secret with a fixed name would block a redeploy after the stack was deleted.
      expect(p.Name).toBeUndefined();
      expect(p.SecretString).toBeUndefined();
      expect(p.GenerateSecretString).toEqual({});
    }
  });
});

describe('files bucket access record', () => {
  it('logs every request (browsers use presigned URLs) to a retained access-log bucket', () => {
    const platform = synthPlatform();
    const template = Template.fromStack(platform.stateful);
    const logs = platform.stateful.getLogicalId(
      platform.stateful.filesAccessLogs.node.defaultChild as CfnElement,
    );
    template.hasResourceProperties('AWS::S3::Bucket', {
      LoggingConfiguration: { DestinationBucketName: { Ref: logs }, LogFilePrefix: 'files/' },
    });
    template.hasResource('AWS::S3::Bucket', {
      Properties: Match.objectLike({
        LifecycleConfiguration: { Rules: [Match.objectLike({ ExpirationInDays: 365 })] },
      }),
      DeletionPolicy: 'Retain',
    });
  });
});

import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { filesBucket, tables, userPool } from '../../src/definitions';
import { synthPlatform } from './synth';

describe('stateful stack (DynamoDB telemetry store, the default)', () => {
  let template: Template;
  beforeAll(() => {
    template = Template.fromStack(synthPlatform().stateful);
  });

  it.each(tables.map((table) => [table.id, table] as const))(
    'builds %s from its definition: keys, GSIs, TTL, PITR, on demand, retained',
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
        Projection: { ProjectionType: 'ALL' },
      }));
      const found = template.findResources('AWS::DynamoDB::GlobalTable', {
        Properties: {
          KeySchema: keySchema,
          BillingMode: 'PAY_PER_REQUEST',
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
        ]),
      },
    });
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
    const exportNames = Object.values(outputs).map(
      (output: { Export?: { Name?: string } }) => output.Export?.Name,
    );
    expect(exportNames.sort()).toEqual(
      [
        'ArgentumStateful-PlatformTableName',
        'ArgentumStateful-TelemetryTableName',
        'ArgentumStateful-FilesBucketName',
        'ArgentumStateful-UserPoolId',
        'ArgentumStateful-UserPoolClientId',
      ].sort(),
    );
  });
});

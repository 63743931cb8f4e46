import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { type CfnElement, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { type IConstruct } from 'constructs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '@argentum/functions/environment';
import { apiDomains, routeKey, type ApiDomain } from '@argentum/functions/http/types';
import { routes } from '@argentum/functions/routes/index';
import { telemetryRuleSql } from '../../cdk/constructs/telemetry-intake';
import { TELEMETRY_RULE_NAME } from '../../src/definitions';
import { confirmationRuleSql } from '../../cdk/constructs/control-confirmations';
import { floorPlanKey, floorPlanRenditionKey } from '@argentum/functions/domain/files/keys';
import { flattenReference } from '../../cdk/nag';
import { repoRoot } from '../../cdk/paths';
import { contentSecurityPolicy, FLOOR_PLAN_CONTENT_SECURITY_POLICY } from '../../src/content-security-policy';
import {
  asyncInvocations,
  mailQueue,
  planRenditions,
  telemetryBatching,
  telemetryRollups,
  treeSweeps,
} from '../../src/definitions';
import { PlatformFunction } from '../../cdk/constructs/platform-function';
import {
  functionAccess,
  type QueueKind,
  secretActions as grantedSecretActions,
} from '../../src/function-access';
import {
  apiPathPatterns,
  floorPlanPathPattern,
  spaRewriteCode,
  viewerAddressCode,
} from '../../cdk/constructs/web-hosting';
import { synthPlatform, type SynthesizedPlatform } from './synth';

// CloudFront managed policy ids (documented, stable).
const cachingDisabled = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const allViewerExceptHostHeader = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

type Resources = Record<string, { Properties: Record<string, unknown> }>;

// One bundled synthesis for the whole file: esbuild runs once per Lambda (on a busy machine that
// takes more than two minutes).
let platform: SynthesizedPlatform;
let template: Template;
beforeAll(() => {
  platform = synthPlatform({ bundle: true, withSite: true });
  template = Template.fromStack(platform.stateless);
}, 300_000);

const logicalId = (construct: IConstruct) =>
  Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement);

interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: unknown;
}

/** Every IAM policy statement granted to a role through its inline policies. */
function statementsOf(roleConstruct: IConstruct): Statement[] {
  const roleId = logicalId(roleConstruct);
  const policies = template.findResources('AWS::IAM::Policy') as Resources;
  return Object.values(policies)
    .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(`"${roleId}"`))
    .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
}

/** Every IAM action granted to a role through its inline policies. */
const actionsOf = (roleConstruct: IConstruct): string[] =>
  statementsOf(roleConstruct).flatMap((statement) => [statement.Action].flat());

describe('Lambdas', () => {
  const functionIds = () => [
    ...apiDomains.map((domain) => platform.stateless.apiFunctions[domain]),
    platform.stateless.ingest,
    platform.stateless.realtimeAuthorizer,
    platform.stateless.treeSweeper,
    platform.stateless.mailJobs.mailer,
    platform.stateless.controlConfirmations,
    platform.stateless.realtimeSigningKeyMaker,
    platform.stateless.planRenditions,
    ...(platform.stateless.telemetryRollups ? [platform.stateless.telemetryRollups] : []),
  ];

  it('has one function per API domain, plus ingest, the realtime authorizer and its signing-key maker, the tree sweeper, the plan renditions, the mailer, the confirmation handler and the telemetry roll-ups, with the house defaults', () => {
    const resources = template.toJSON().Resources as Resources;
    expect(functionIds()).toHaveLength(apiDomains.length + 8);
    for (const fn of functionIds()) {
      expect(resources[logicalId(fn.function)]?.Properties).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        TracingConfig: { Mode: 'Active' },
        LoggingConfig: { LogGroup: { Ref: logicalId(fn.logGroup) } },
        MemorySize: expect.any(Number),
        Timeout: expect.any(Number),
      });
    }
    const retention = Object.values(template.findResources('AWS::Logs::LogGroup') as Resources).map(
      (group) => group.Properties.RetentionInDays,
    );
    expect(retention.every((days) => typeof days === 'number' && days > 0)).toBe(true);
  });

  it('runs every Node.js function on nodejs24.x, the helpers CDK adds included', () => {
    const functions = [platform.stateful, platform.stateless].flatMap((stack) =>
      Object.entries(Template.fromStack(stack).findResources('AWS::Lambda::Function') as Resources),
    );
    const runtimes = Object.fromEntries(functions.map(([id, fn]) => [id, fn.Properties.Runtime]));
    // The platform's own, and CDK's Node.js helpers (AwsCustomResource, S3 auto-delete), which CDK
    // puts on its latest Node.js runtime.
    for (const fn of functionIds()) expect(runtimes[logicalId(fn.function)]).toBe('nodejs24.x');
    const notNode = Object.entries(runtimes).filter(([, runtime]) => runtime !== 'nodejs24.x');
    // The exceptions, their runtimes fixed by CDK, run only while deploying: BucketDeployment's
    // singleton handler (it runs the AWS CLI) and the handler that sets the files bucket's event
    // notification (the plan renditions'), both Python.
    expect(notNode).toEqual(
      expect.arrayContaining([
        [expect.stringMatching(/^CustomCDKBucketDeployment/), expect.stringMatching(/^python/)],
        [expect.stringMatching(/^BucketNotificationsHandler/), expect.stringMatching(/^python/)],
      ]),
    );
    expect(notNode).toHaveLength(2);
    expect(functions.length).toBeGreaterThan(functionIds().length + 1);
  });

  it("tests on the Node version the Lambdas run: the major pinned in .node-version is the runtime's", () => {
    const pinned = readFileSync(path.join(repoRoot, '.node-version'), 'utf8').trim();
    expect(`nodejs${pinned.split('.')[0]}.x`).toBe('nodejs24.x');
  });

  it('gives every function the platform environment, APP_ORIGIN being the CloudFront URL', () => {
    const distributionId = logicalId(platform.stateless.web.distribution);
    for (const fn of functionIds()) {
      const variables = (
        template.toJSON().Resources[logicalId(fn.function)].Properties.Environment as {
          Variables: Record<string, unknown>;
        }
      ).Variables;
      expect(Object.keys(variables)).toEqual(
        expect.arrayContaining([
          'PLATFORM_TABLE',
          'TELEMETRY_TABLE',
          'FILES_BUCKET',
          'USER_POOL_ID',
          'USER_POOL_CLIENT_ID',
          'TOKEN_ISSUER',
          'MAIL_FROM',
          'APP_ORIGIN',
          'TELEMETRY_STORE',
          'REFRESH_TOKEN_VALIDITY_DAYS',
          'AWS_ACCOUNT_ID',
        ]),
      );
      expect(variables.REFRESH_TOKEN_VALIDITY_DAYS).toBe('30');
      expect(variables.PLATFORM_TABLE).toEqual({ 'Fn::ImportValue': 'ArgentumStateful-PlatformTableName' });
      expect(variables.TELEMETRY_STORE).toBe('dynamodb');
      // The key maker runs before the distribution exists (the distribution trusts the key it makes).
      if (fn === platform.stateless.realtimeSigningKeyMaker)
        expect(variables.APP_ORIGIN).toBe('https://key-maker.invalid');
      else expect(JSON.stringify(variables.APP_ORIGIN)).toContain(distributionId);
      expect(JSON.stringify(variables.TOKEN_ISSUER)).toContain('https://cognito-idp.');
    }
  });

  it('bundled every entry with the local esbuild into a minified ESM file with a source map', () => {
    const bundles = readdirSync(platform.app.outdir)
      .map((name) => path.join(platform.app.outdir, name))
      .filter((dir) => existsSync(path.join(dir, 'index.mjs')));
    expect(bundles.length).toBe(apiDomains.length + 10);
    for (const dir of bundles) expect(existsSync(path.join(dir, 'index.mjs.map'))).toBe(true);
    // sharp, native code, is installed beside the renditions bundle for Linux on ARM64.
    const withSharp = bundles.filter((dir) => existsSync(path.join(dir, 'node_modules', 'sharp')));
    expect(withSharp).toHaveLength(1);
    expect(existsSync(path.join(withSharp[0] ?? '', 'node_modules', '@img', 'sharp-linux-arm64'))).toBe(true);
  });

  it("bundles the AWS SDK clients into each Lambda instead of importing the runtime's", () => {
    const bundles = readdirSync(platform.app.outdir)
      .map((name) => path.join(platform.app.outdir, name, 'index.mjs'))
      .filter((file) => existsSync(file));
    // Minified imports of a package: `from"@aws-sdk/…"`, `import"@aws-sdk/…"`, `import("@aws-sdk/…")`.
    const sdkImports = bundles.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/(?:from|import\(?)"@aws-sdk\/[^"]+"/g)].map((m) => m[0]),
    );
    expect(sdkImports).toEqual([]);
    expect(bundles.some((file) => readFileSync(file, 'utf8').includes('DynamoDBDocumentClient'))).toBe(true);
  });

  it('uses its own roles, without AWS managed policies', () => {
    for (const fn of functionIds()) {
      const role = template.toJSON().Resources[logicalId(fn.role)];
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    }
  });
});

describe('least privilege per domain', () => {
  const actions = (domain: ApiDomain) => actionsOf(platform.stateless.apiFunctions[domain].role);
  const services = (list: string[]) => [...new Set(list.map((action) => action.split(':')[0]))].sort();

  it('grants each domain only the services it needs', () => {
    const expected: Record<ApiDomain, string[]> = {
      // Reads the real-time token-signing key.
      auth: ['cognito-idp', 'dynamodb', 'iot', 'logs', 'secretsmanager', 'sqs', 'xray'],
      users: ['cognito-idp', 'dynamodb', 'iot', 'logs', 's3', 'ses', 'xray'],
      // Deletes only commit; the tree sweeper removes the plans and memberships.
      tree: ['dynamodb', 'logs', 'xray'],
      // Both answer a plan's URL, signed with the plan signing key.
      floors: ['dynamodb', 'logs', 's3', 'secretsmanager', 'xray'],
      floorplans: ['dynamodb', 'logs', 's3', 'secretsmanager', 'xray'],
      devices: ['dynamodb', 'iot', 'logs', 'xray'],
      control: ['dynamodb', 'iot', 'logs', 'xray'],
      // Large exports are written to the files bucket and read back through presigned links.
      data: ['dynamodb', 'logs', 's3', 'xray'],
      notifications: ['dynamodb', 'logs', 'xray'],
      integrations: ['dynamodb', 'iot', 'logs', 'secretsmanager', 'xray'],
    };
    for (const domain of apiDomains) expect(services(actions(domain)), domain).toEqual(expected[domain]);
    expect(services(actionsOf(platform.stateless.ingest.role))).toEqual([
      'dynamodb',
      // The archive's stream, which ingest feeds (archive.test.ts).
      'firehose',
      'iot',
      'logs',
      'sqs',
      'xray',
    ]);
    expect(services(actionsOf(platform.stateless.realtimeAuthorizer.role))).toEqual([
      'dynamodb',
      'logs',
      'xray',
    ]);
    // The sweeper also closes the connections of an organization's members when it removes them.
    expect(services(actionsOf(platform.stateless.treeSweeper.role))).toEqual([
      'dynamodb',
      'iot',
      'logs',
      's3',
      'sqs',
      'xray',
    ]);
  });

  it('lets the tree sweeper delete floor plans and nothing else in the files bucket', () => {
    const granted = actionsOf(platform.stateless.treeSweeper.role);
    expect(granted.filter((action) => action.startsWith('s3:'))).toEqual(['s3:DeleteObject']);
    const policies = template.findResources('AWS::IAM::Policy') as Resources;
    const statements = Object.values(policies)
      .filter((p) =>
        JSON.stringify(p.Properties.Roles).includes(logicalId(platform.stateless.treeSweeper.role)),
      )
      .flatMap(
        (p) =>
          (p.Properties.PolicyDocument as { Statement: { Action: unknown; Resource: unknown }[] }).Statement,
      );
    const deletes = statements.find((statement) => statement.Action === 's3:DeleteObject');
    const resource = JSON.stringify(deletes?.Resource);
    expect(resource).toContain('ArgentumStateful-FilesBucketName');
    // The pattern covers the key a floor plan is stored under.
    expect(resource).toContain('"/floorplans/*"');
    expect(floorPlanKey('org', 'floor').startsWith('floorplans/')).toBe(true);
  });

  it('draws floor plan renditions off the request: the files bucket notifies one function of plans stored, which may read and write plans and delete only renditions', () => {
    const notifications = Object.values(template.findResources('Custom::S3BucketNotifications') as Resources);
    expect(notifications).toHaveLength(1);
    const configuration = notifications[0]?.Properties.NotificationConfiguration as {
      LambdaFunctionConfigurations: {
        Events: string[];
        LambdaFunctionArn: unknown;
        Filter: { Key: { FilterRules: { Name: string; Value: string }[] } };
      }[];
    };
    expect(configuration.LambdaFunctionConfigurations).toEqual([
      {
        Events: ['s3:ObjectCreated:*'],
        LambdaFunctionArn: { 'Fn::GetAtt': [logicalId(platform.stateless.planRenditions.function), 'Arn'] },
        Filter: {
          Key: {
            FilterRules: expect.arrayContaining([
              { Name: 'prefix', Value: 'floorplans/' },
              { Name: 'suffix', Value: '.svg' },
            ]),
          },
        },
      },
    ]);
    // Its renditions end in .webp: writing them notifies nothing.
    expect(floorPlanKey('org', 'floor').endsWith('.svg')).toBe(true);
    const granted = actionsOf(platform.stateless.planRenditions.role).filter((a) => a.startsWith('s3:'));
    // ListBucket: a missing plan is a 404 to HeadObject, not a 403.
    expect(granted.sort()).toEqual(['s3:DeleteObject', 's3:GetObject', 's3:ListBucket', 's3:PutObject']);
    // It withdraws renditions whose plan was removed or replaced while they were written; plans it
    // never deletes.
    const deletes = statementsOf(platform.stateless.planRenditions.role).filter((statement) =>
      [statement.Action].flat().includes('s3:DeleteObject'),
    );
    expect(deletes).toHaveLength(1);
    expect([deletes[0]?.Action].flat()).toEqual(['s3:DeleteObject']);
    const resource = JSON.stringify(deletes[0]?.Resource);
    expect(resource).toContain('ArgentumStateful-FilesBucketName');
    expect(resource).toContain('"/floorplans/*.webp"');
    expect(floorPlanRenditionKey('org', 'floor', 800)).toBe('floorplans/org/floor/800.webp');
    expect(actionsOf(platform.stateless.planRenditions.role).some((a) => a.startsWith('dynamodb:'))).toBe(
      false,
    );
    // The timeout and retries the local twin keeps to (infra/local/plan-renditions.ts).
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('floor plan renditions'),
      Timeout: planRenditions.timeoutSeconds,
      MemorySize: planRenditions.memoryMB,
    });
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: logicalId(platform.stateless.planRenditions.function) },
      MaximumRetryAttempts: asyncInvocations.retryAttempts,
    });
  });

  const writes = [
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
    'dynamodb:BatchWriteItem',
  ];

  it('keeps the data Lambda read-only on DynamoDB, but for the shared weather reading', () => {
    const granted = actionsOf(platform.stateless.apiFunctions.data.role);
    expect(granted).toContain('dynamodb:Query');
    const writing = statementsOf(platform.stateless.apiFunctions.data.role).filter((statement) =>
      [statement.Action].flat().some((action) => writes.includes(action)),
    );
    expect(writing).toEqual([
      {
        Effect: 'Allow',
        Action: 'dynamodb:PutItem',
        Resource: expect.objectContaining({ 'Fn::Join': expect.any(Array) }),
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['WEATHER#*'] } },
      },
    ]);
  });

  it('lets the realtime authorizer read, and write only the connection items it records', () => {
    const statements = statementsOf(platform.stateless.realtimeAuthorizer.role).filter((statement) =>
      [statement.Action].flat().some((action) => action.startsWith('dynamodb:')),
    );
    const writing = statements.filter((statement) =>
      [statement.Action].flat().some((action) => writes.includes(action)),
    );
    expect(writing).toEqual([
      {
        Effect: 'Allow',
        Action: 'dynamodb:PutItem',
        Resource: expect.objectContaining({ 'Fn::Join': expect.any(Array) }),
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['CONN#*'] } },
      },
    ]);
    expect(JSON.stringify(writing[0]?.Resource)).toContain('ArgentumStateful-PlatformTableName');
    expect(JSON.stringify(writing[0]?.Resource)).not.toContain('*');
    const reading = statements.filter((statement) => statement !== writing[0]);
    expect(reading.flatMap((statement) => [statement.Action].flat())).toContain('dynamodb:Query');
  });

  it('lets the Lambdas that reduce access close MQTT client connections, and only those', () => {
    const closing = { Effect: 'Allow', Action: 'iot:DeleteConnection', Resource: expect.anything() };
    const closers = {
      auth: platform.stateless.apiFunctions.auth,
      users: platform.stateless.apiFunctions.users,
      // An organization's members lose it when the sweeper removes the organization.
      sweeper: platform.stateless.treeSweeper,
    };
    for (const [name, fn] of Object.entries(closers)) {
      const statement = statementsOf(fn.role).find((s) => s.Action === 'iot:DeleteConnection');
      expect(statement, name).toMatchObject(closing);
      // Browser client ids (web-<uuid>) of this account and region only: never a device's connection.
      expect(flattenReference(statement?.Resource)).toBe(
        `arn:<AWS::Partition>:iot:${platform.stateless.region}:<AWS::AccountId>:client/web-*`,
      );
    }
    const others = [
      ...apiDomains
        .filter((d) => !['auth', 'users'].includes(d))
        .map((d) => platform.stateless.apiFunctions[d]),
      platform.stateless.ingest,
      platform.stateless.realtimeAuthorizer,
    ];
    for (const fn of others) expect(actionsOf(fn.role)).not.toContain('iot:DeleteConnection');
  });

  it('scopes file access by key prefix: logo uploads and logos for users, plan uploads and plans for floorplans, plans for floors', () => {
    const fileAccess = (domain: ApiDomain) => {
      const roleId = logicalId(platform.stateless.apiFunctions[domain].role);
      const policies = template.findResources('AWS::IAM::Policy') as Resources;
      return Object.values(policies)
        .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(`"${roleId}"`))
        .flatMap(
          (policy) =>
            (
              policy.Properties.PolicyDocument as {
                Statement: { Action: string | string[]; Resource: unknown }[];
              }
            ).Statement,
        )
        .filter((statement) => [statement.Action].flat().some((action) => action.startsWith('s3:')))
        .map((statement) => {
          const resource = JSON.stringify(statement.Resource);
          return {
            actions: [statement.Action].flat().sort(),
            // The part of the ARN after the (imported) bucket name.
            keys: /FilesBucketName"\},"(\/[^"]*)"/.exec(resource)?.[1] ?? 'bucket',
          };
        })
        .sort((a, b) => a.keys.localeCompare(b.keys));
    };
    expect(fileAccess('users')).toEqual([
      { actions: ['s3:GetObject', 's3:PutObject'], keys: '/logos/*' },
      { actions: ['s3:DeleteObject', 's3:GetObject', 's3:PutObject'], keys: '/uploads/logos/*' },
      { actions: ['s3:ListBucket'], keys: 'bucket' },
    ]);
    // Tree deletes only commit; the sweeper removes the plans (tested above).
    expect(fileAccess('tree')).toEqual([]);
    // Floors only read plans (presigned URLs); plan uploads are checked, sanitized and written apart.
    expect(fileAccess('floors')).toEqual([
      { actions: ['s3:GetObject'], keys: '/floorplans/*' },
      { actions: ['s3:ListBucket'], keys: 'bucket' },
    ]);
    // A commit that finds its floor deleted after writing removes the plan and its renditions.
    expect(fileAccess('floorplans')).toEqual([
      { actions: ['s3:DeleteObject', 's3:GetObject', 's3:PutObject'], keys: '/floorplans/*' },
      { actions: ['s3:DeleteObject', 's3:GetObject', 's3:PutObject'], keys: '/uploads/floorplans/*' },
      { actions: ['s3:ListBucket'], keys: 'bucket' },
    ]);
  });

  it('gives the plan upload function the memory and time to sanitize a 10 MB plan within the 30 s API limit', () => {
    const resources = template.toJSON().Resources as Resources;
    const uploads = resources[logicalId(platform.stateless.apiFunctions.floorplans.function)]?.Properties;
    expect(uploads).toMatchObject({ MemorySize: 2048, Timeout: 25 });
  });

  it('scopes IoT publishing to topic kinds and SES to the configured sender', () => {
    const policies = JSON.stringify(template.findResources('AWS::IAM::Policy'));
    expect(policies).toContain(':topic/*/controldata/*');
    expect(policies).toContain(':topic/*/live/*');
    expect(policies).toContain('"ses:FromAddress":"no-reply@example.com"');
    expect(policies).not.toContain('"iot:*"');
    expect(policies).not.toContain('"dynamodb:*"');
  });
});

describe('mail off the request path', () => {
  /** Every statement granted to a role through its inline policies. */
  function statementsOf(roleConstruct: IConstruct) {
    const roleId = logicalId(roleConstruct);
    return Object.values(template.findResources('AWS::IAM::Policy') as Resources)
      .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(`"${roleId}"`))
      .flatMap(
        (policy) =>
          (
            policy.Properties.PolicyDocument as {
              Statement: { Action: string | string[]; Resource: unknown; Condition?: unknown }[];
            }
          ).Statement,
      );
  }
  const mailJobs = () => platform.stateless.mailJobs;

  it('has a mail queue (encrypted, TLS only) with a dead-letter queue, worked by the mailer in batches', () => {
    const queue = logicalId(mailJobs().queue);
    const deadLetters = logicalId(mailJobs().deadLetters);
    const resources = template.toJSON().Resources as Resources;
    expect(resources[queue]?.Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      VisibilityTimeout: mailQueue.visibilityTimeoutSeconds,
      MessageRetentionPeriod: 3600,
      RedrivePolicy: {
        deadLetterTargetArn: { 'Fn::GetAtt': [deadLetters, 'Arn'] },
        maxReceiveCount: mailQueue.maxReceiveCount,
      },
    });
    expect(resources[deadLetters]?.Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: mailQueue.deadLetterRetentionDays * 86_400,
    });
    for (const id of [queue, deadLetters]) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          ]),
        },
      });
    }
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId(mailJobs().mailer.function) },
      EventSourceArn: { 'Fn::GetAtt': [queue, 'Arn'] },
      BatchSize: mailQueue.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(resources[logicalId(mailJobs().mailer.function)]?.Properties.Timeout).toBe(
      mailQueue.mailerTimeoutSeconds,
    );
  });

  it('lets the mailer look users up by e-mail, write reset tokens, alarm-mail claims, rates and digests, and send from the sender, nothing more', () => {
    const statements = statementsOf(mailJobs().mailer.role);
    const granted = [...new Set(statements.flatMap((statement) => [statement.Action].flat()))].sort();
    expect(granted).toEqual(
      [
        'dynamodb:BatchGetItem',
        'dynamodb:DeleteItem',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:Query',
        'dynamodb:UpdateItem',
        'logs:CreateLogStream',
        'logs:PutLogEvents',
        'ses:SendEmail',
        'ses:SendRawEmail',
        'sqs:ChangeMessageVisibility',
        'sqs:DeleteMessage',
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
        'sqs:ReceiveMessage',
        'xray:PutTelemetryRecords',
        'xray:PutTraceSegments',
      ].sort(),
    );
    // Every DynamoDB grant but the e-mail index lookup is limited to its key prefix.
    for (const statement of statements.filter((s) => JSON.stringify(s.Action).includes('dynamodb:'))) {
      if (JSON.stringify(statement).includes('/index/gsi1"')) continue;
      expect(JSON.stringify(statement)).toMatch(/"dynamodb:LeadingKeys":\["[A-Z]+#\*"\]/);
    }
    const writes = statements.filter((s) =>
      /dynamodb:(PutItem|DeleteItem|UpdateItem)/.test(JSON.stringify(s.Action)),
    );
    for (const statement of writes)
      expect(JSON.stringify(statement)).toMatch(
        /"dynamodb:LeadingKeys":\["(TOKEN|RESET|ALARMMAIL|ALARMRATE|ALARMDIGEST)#\*"\]/,
      );
    const statementWith = (action: string) =>
      JSON.stringify(statements.find((statement) => [statement.Action].flat().includes(action)));
    expect(statementWith('dynamodb:Query')).toContain('ArgentumStateful-PlatformTableName');
    expect(statementWith('dynamodb:Query')).toContain('/index/gsi1"');
    // Reset tokens (a new one, and the one it supersedes marked used) and the pointer to the latest.
    expect(statementWith('dynamodb:UpdateItem')).toContain(
      '"Condition":{"ForAllValues:StringLike":{"dynamodb:LeadingKeys":["TOKEN#*"]}}',
    );
    expect(statementWith('dynamodb:UpdateItem')).not.toContain('/index/');
    expect(statementWith('ses:SendEmail')).toContain('"ses:FromAddress":"no-reply@example.com"');
    expect(statementWith('sqs:ReceiveMessage')).toContain(logicalId(mailJobs().queue));
  });

  it('lets the auth Lambda only send to the mail queue, whose URL it is given, and no longer mail itself', () => {
    const auth = platform.stateless.apiFunctions.auth;
    const sqsStatements = statementsOf(auth.role).filter((statement) =>
      [statement.Action].flat().some((action) => action.startsWith('sqs:')),
    );
    expect(sqsStatements).toHaveLength(1);
    expect([sqsStatements[0]?.Action].flat().sort()).toEqual([
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
      'sqs:SendMessage',
    ]);
    expect(sqsStatements[0]?.Resource).toEqual({ 'Fn::GetAtt': [logicalId(mailJobs().queue), 'Arn'] });
    expect(actionsOf(auth.role).some((action) => action.startsWith('ses:'))).toBe(false);
    const variables = (
      template.toJSON().Resources[logicalId(auth.function)].Properties.Environment as {
        Variables: Record<string, unknown>;
      }
    ).Variables;
    expect(variables[ENV.mailQueueUrl]).toEqual({ Ref: logicalId(mailJobs().queue) });
    for (const domain of apiDomains.filter((d) => d !== 'auth')) {
      expect(actionsOf(platform.stateless.apiFunctions[domain].role).some((a) => a.startsWith('sqs:'))).toBe(
        false,
      );
    }
  });

  it('lets exactly the functions whose access names a queue send to it (what the local stack enforces)', () => {
    // Each queue's ARN as the template names it (the dead letters' is imported from the stateful stack).
    const arnOf = (queue: IQueue) => JSON.stringify(platform.stateless.resolve(queue.queueArn));
    const queues: Record<QueueKind, string> = {
      mail: arnOf(mailJobs().queue),
      telemetryDeadLetters: arnOf(platform.stateless.realtime.telemetryDeadLetters),
    };
    const functions = platform.stateless.node
      .findAll()
      .filter((c): c is PlatformFunction => c instanceof PlatformFunction);
    expect(functions.length).toBeGreaterThan(15);
    for (const fn of functions) {
      const sendsTo = (Object.keys(queues) as QueueKind[]).filter((kind) =>
        statementsOf(fn.role).some(
          (statement) =>
            [statement.Action].flat().includes('sqs:SendMessage') &&
            [statement.Resource].flat().some((resource) => JSON.stringify(resource) === queues[kind]),
        ),
      );
      expect({ [fn.entry]: sendsTo }).toEqual({ [fn.entry]: [...(functionAccess[fn.entry].sendsTo ?? [])] });
    }
  });
});

describe('vendor secrets', () => {
  const importOf = (name: string) => ({ 'Fn::ImportValue': `ArgentumStateful-${name}` });

  it('binds to each function exactly the secrets its access names, with what it may do (what the local stack enforces)', () => {
    const functions = platform.stateless.node
      .findAll()
      .filter((c): c is PlatformFunction => c instanceof PlatformFunction);
    expect(functions.length).toBeGreaterThan(15);
    for (const fn of functions) {
      const described = functionAccess[fn.entry].secrets ?? [];
      expect({ [fn.entry]: [...fn.secretsBound].sort() }).toEqual({
        [fn.entry]: described.map((grant) => grant.secret).sort(),
      });
      // Every Secrets Manager statement of its role is one of those, with the grant's actions.
      const secretStatements = statementsOf(fn.role).filter((s) =>
        [s.Action].flat().some((a) => a.startsWith('secretsmanager:')),
      );
      expect(secretStatements.map((s) => [s.Action].flat())).toEqual(
        described.map((grant) => grantedSecretActions(grant)),
      );
    }
  });

  it("lets only the integrations function read them, and write only Ecobee's (rotating refresh tokens)", () => {
    const statements = statementsOf(platform.stateless.apiFunctions.integrations.role).filter((s) =>
      [s.Action].flat().some((a) => a.startsWith('secretsmanager:')),
    );
    expect(statements.map((s) => ({ Action: s.Action, Resource: s.Resource }))).toEqual([
      {
        Action: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'],
        Resource: importOf('RyseSecretArn'),
      },
      {
        Action: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'],
        Resource: importOf('NestSecretArn'),
      },
      {
        Action: [
          'secretsmanager:GetSecretValue',
          'secretsmanager:DescribeSecret',
          'secretsmanager:PutSecretValue',
        ],
        Resource: importOf('EcobeeSecretArn'),
      },
    ]);
    const others = [
      ...apiDomains.filter((d) => d !== 'integrations').map((d) => platform.stateless.apiFunctions[d]),
      platform.stateless.ingest,
      platform.stateless.realtimeAuthorizer,
      platform.stateless.treeSweeper,
      platform.stateless.mailJobs.mailer,
    ];
    for (const fn of others) {
      // The auth function reads one secret only: the real-time signing key (tested with the authorizer);
      // the floors and floor plan functions the plan signing key (tested with the plans behaviour).
      const signingKeys = [platform.stateless.realtimeSigningKey, platform.stateless.planSigningKey].map(
        logicalId,
      );
      const vendorActions = statementsOf(fn.role)
        .filter((s) => !signingKeys.some((key) => JSON.stringify(s.Resource).includes(key)))
        .flatMap((s) => [s.Action].flat());
      expect(vendorActions.some((a) => a.startsWith('secretsmanager:'))).toBe(false);
    }
  });

  it("names the secrets (not their values) in the integrations function's environment only", () => {
    const variablesOf = (fn: PlatformFunction) =>
      (
        (template.toJSON() as { Resources: Resources }).Resources[logicalId(fn.function)]?.Properties
          .Environment as { Variables: Record<string, unknown> }
      ).Variables;
    expect(variablesOf(platform.stateless.apiFunctions.integrations)).toMatchObject({
      [ENV.ryseSecretId]: importOf('RyseSecretArn'),
      [ENV.nestSecretId]: importOf('NestSecretArn'),
      [ENV.ecobeeSecretId]: importOf('EcobeeSecretArn'),
    });
    for (const domain of apiDomains.filter((d) => d !== 'integrations')) {
      expect(variablesOf(platform.stateless.apiFunctions[domain])[ENV.nestSecretId]).toBeUndefined();
    }
  });
});

describe('HTTP API', () => {
  it('has exactly one route per route-table entry, with its method and path', () => {
    const routeKeys = Object.values(template.findResources('AWS::ApiGatewayV2::Route') as Resources).map(
      (r) => r.Properties.RouteKey,
    );
    expect(routeKeys.sort()).toEqual(routes.map(routeKey).sort());
  });

  it('puts the Cognito JWT authorizer on protected routes and none on public ones', () => {
    const [authorizerId] = Object.keys(template.findResources('AWS::ApiGatewayV2::Authorizer'));
    for (const route of routes) {
      template.hasResourceProperties('AWS::ApiGatewayV2::Route', {
        RouteKey: routeKey(route),
        ...(route.access === 'public'
          ? { AuthorizationType: 'NONE', AuthorizerId: Match.absent() }
          : { AuthorizationType: 'JWT', AuthorizerId: { Ref: authorizerId } }),
      });
    }
    expect(routes.some((route) => route.access === 'public')).toBe(true);
    expect(routes.some((route) => route.access !== 'public')).toBe(true);
  });

  it('validates tokens of the platform user pool and client', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'JWT',
      IdentitySource: ['$request.header.Authorization'],
      JwtConfiguration: {
        Audience: [{ 'Fn::ImportValue': 'ArgentumStateful-UserPoolClientId' }],
        Issuer: {
          'Fn::Join': [
            '',
            Match.arrayWith([
              Match.stringLikeRegexp('^https://cognito-idp\\.'),
              { 'Fn::ImportValue': 'ArgentumStateful-UserPoolId' },
            ]),
          ],
        },
      },
    });
  });

  it("sends each route to its domain's Lambda", () => {
    const resources = template.toJSON().Resources as Resources;
    const integrationTarget = (integrationId: string) =>
      (resources[integrationId]?.Properties.IntegrationUri as { 'Fn::GetAtt': [string, string] })[
        'Fn::GetAtt'
      ][0];
    const routesById = template.findResources('AWS::ApiGatewayV2::Route') as Resources;
    for (const route of routes) {
      const apiRoute = Object.values(routesById).find((r) => r.Properties.RouteKey === routeKey(route));
      const target = JSON.stringify(apiRoute?.Properties.Target);
      const integrationId = /"Ref":"([^"]+)"/.exec(target)?.[1] ?? '';
      expect(integrationTarget(integrationId), routeKey(route)).toBe(
        logicalId(platform.stateless.apiFunctions[route.domain].function),
      );
    }
  });

  it('deploys the $default stage with access logs and throttling', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
      DefaultRouteSettings: Match.objectLike({ ThrottlingRateLimit: Match.anyValue() }),
    });
  });
});

describe('IoT Core', () => {
  it('routes device telemetry through a queue to ingest in batches, with an error action and dead letters', () => {
    expect(telemetryRuleSql).toBe(
      "SELECT *, topic(1) AS orgId, topic(3) AS topicDevId, clientid() AS clientId, timestamp() AS receivedAt FROM '+/sensordata/+'",
    );
    // The rule (a fixed name devices publish to) and its queue live in the retained stateful stack.
    const stateful = Template.fromStack(platform.stateful);
    const intake = platform.stateful.telemetryIntake;
    const queue = platform.stateful.getLogicalId(intake.queue.node.defaultChild as CfnElement);
    stateful.hasResourceProperties('AWS::IoT::TopicRule', {
      RuleName: TELEMETRY_RULE_NAME,
      TopicRulePayload: {
        Sql: telemetryRuleSql,
        AwsIotSqlVersion: '2016-03-23',
        RuleDisabled: false,
        Actions: [
          // The only action: ingest feeds the long-term archive itself (archive.test.ts).
          { Sqs: { QueueUrl: { Ref: queue }, RoleArn: Match.anyValue(), UseBase64: false } },
        ],
        ErrorAction: { CloudwatchLogs: { LogGroupName: Match.anyValue(), RoleArn: Match.anyValue() } },
        Description: Match.anyValue(),
      },
    });
    stateful.hasResourceProperties('AWS::SQS::Queue', {
      SqsManagedSseEnabled: true,
      // Six times the ingest timeout (30 s), plus the batching window the event source holds messages for.
      VisibilityTimeout: 180 + telemetryBatching.maxBatchingWindowSeconds,
      RedrivePolicy: {
        deadLetterTargetArn: {
          'Fn::GetAtt': [
            platform.stateful.getLogicalId(intake.deadLetters.node.defaultChild as CfnElement),
            'Arn',
          ],
        },
        maxReceiveCount: 5,
      },
    });
    template.resourceCountIs('AWS::IoT::TopicRule', 1); // the confirmation rule only
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId(platform.stateless.ingest.function) },
      EventSourceArn: { 'Fn::ImportValue': 'ArgentumStateful-TelemetryQueueArn' },
      BatchSize: telemetryBatching.batchSize,
      MaximumBatchingWindowInSeconds: telemetryBatching.maxBatchingWindowSeconds,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('feeds the raw readings from the telemetry table stream to the roll-up function, and tells ingest its dead letters', () => {
    const rollups = platform.stateless.telemetryRollups;
    expect(rollups).toBeDefined();
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId(rollups?.function as IConstruct) },
      EventSourceArn: { 'Fn::ImportValue': 'ArgentumStateful-TelemetryTableStreamArn' },
      BatchSize: telemetryRollups.batchSize,
      MaximumBatchingWindowInSeconds: telemetryRollups.maxBatchingWindowSeconds,
      StartingPosition: 'TRIM_HORIZON',
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify(telemetryRollups.filter) }] },
    });
    const ingest =
      template.findResources('AWS::Lambda::Function')[logicalId(platform.stateless.ingest.function)];
    expect(ingest?.Properties.Environment.Variables.TELEMETRY_DEAD_LETTER_QUEUE_URL).toEqual({
      'Fn::ImportValue': 'ArgentumStateful-TelemetryDeadLettersUrl',
    });
  });

  it('has an active custom authorizer with token signing that IoT may invoke; the key pair is made at deploy', () => {
    const authorizerFn = logicalId(platform.stateless.realtimeAuthorizer.function);
    const keyMaker = logicalId(platform.stateless.realtimeSigningKeyMaker.function);
    const secret = logicalId(platform.stateless.realtimeSigningKey);
    const [keyResource] = Object.keys(
      template.findResources('AWS::CloudFormation::CustomResource', {
        Properties: { ServiceToken: { 'Fn::GetAtt': [keyMaker, 'Arn'] }, SecretId: { Ref: secret } },
      }),
    );
    expect(keyResource).toBeDefined();
    template.hasResourceProperties('AWS::IoT::Authorizer', {
      AuthorizerName: 'Argentum-realtime',
      AuthorizerFunctionArn: { 'Fn::GetAtt': [authorizerFn, 'Arn'] },
      SigningDisabled: false,
      TokenKeyName: 'token',
      TokenSigningPublicKeys: { realtime: { 'Fn::GetAtt': [keyResource, 'PublicKey'] } },
      Status: 'ACTIVE',
    });
    // The auth API function (which signs tokens) reads the private key; the key maker alone writes it.
    const secretActions = (fn: IConstruct) =>
      statementsOf(fn)
        .filter((s) => JSON.stringify(s.Resource).includes(secret))
        .flatMap((s) => [s.Action].flat());
    expect(secretActions(platform.stateless.apiFunctions.auth.role)).toContain(
      'secretsmanager:GetSecretValue',
    );
    expect(secretActions(platform.stateless.apiFunctions.auth.role)).not.toContain(
      'secretsmanager:PutSecretValue',
    );
    expect(secretActions(platform.stateless.realtimeSigningKeyMaker.role)).toContain(
      'secretsmanager:PutSecretValue',
    );
    expect(secretActions(platform.stateless.realtimeAuthorizer.role)).toEqual([]);
    expect(
      (template.findResources('AWS::Lambda::Function') as Resources)[
        logicalId(platform.stateless.apiFunctions.auth.function)
      ]?.Properties,
    ).toMatchObject({ Environment: { Variables: { REALTIME_SIGNING_SECRET_ID: { Ref: secret } } } });
    template.hasResourceProperties('AWS::Lambda::Permission', {
      FunctionName: { 'Fn::GetAtt': [authorizerFn, 'Arn'] },
      Principal: 'iot.amazonaws.com',
      SourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('RealtimeAuthorizer'), 'Arn'] },
    });
  });
  it('routes device confirmations (success and fail only) to the confirmation Lambda, with an error action', () => {
    expect(confirmationRuleSql).toBe(
      'SELECT *, topic(1) AS orgId, topic(3) AS outcome, clientid() AS clientId, timestamp() AS receivedAt ' +
        "FROM '+/controldata/+' " +
        "WHERE (topic(3) = 'success' OR topic(3) = 'fail') AND devID = clientid()",
    );
    const handler = logicalId(platform.stateless.controlConfirmations.function);
    template.hasResourceProperties('AWS::IoT::TopicRule', {
      TopicRulePayload: {
        Sql: confirmationRuleSql,
        AwsIotSqlVersion: '2016-03-23',
        RuleDisabled: false,
        Actions: [{ Lambda: { FunctionArn: { 'Fn::GetAtt': [handler, 'Arn'] } } }],
        ErrorAction: { CloudwatchLogs: { LogGroupName: Match.anyValue(), RoleArn: Match.anyValue() } },
        Description: Match.anyValue(),
      },
    });
    template.hasResourceProperties('AWS::Lambda::Permission', {
      FunctionName: { 'Fn::GetAtt': [handler, 'Arn'] },
      Principal: 'iot.amazonaws.com',
      SourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('ConfirmationRule'), 'Arn'] },
    });
  });

  it('lets control write only command items and publish only commands; confirmations settle, tell and raise alarms', () => {
    const writtenKeys = (fn: PlatformFunction) =>
      statementsOf(fn.role)
        .filter((statement) =>
          [statement.Action]
            .flat()
            .some((action) => action === 'dynamodb:UpdateItem' || action === 'dynamodb:PutItem'),
        )
        .map(
          (statement) =>
            (statement.Condition as { 'ForAllValues:StringLike'?: Record<string, string[]> } | undefined)?.[
              'ForAllValues:StringLike'
            ]?.['dynamodb:LeadingKeys'],
        );
    expect(writtenKeys(platform.stateless.apiFunctions.control)).toEqual([['COMMANDS#*']]);
    expect(writtenKeys(platform.stateless.controlConfirmations)).toEqual([
      ['COMMANDS#*'],
      ['NOTIF#*'],
      // Each alarm episode's claim of its one notification.
      ['EPISODE#*'],
      ['INBOX#*'],
      ['ALARMS#*'],
      // What a device reports about itself (pairing mode, power node ports), and its presence.
      ['DEVICE#*'],
      // The presence sweep's watch list.
      ['PRESENCEWATCH#*'],
      // A reported change of a linked thermostat lists it for the vendor poller.
      ['VENDORPOLL*'],
    ]);
    const published = (fn: PlatformFunction) =>
      statementsOf(fn.role)
        .filter((statement) => statement.Action === 'iot:Publish')
        .map((statement) => JSON.stringify(statement.Resource));
    expect(published(platform.stateless.apiFunctions.control).join()).toContain(':topic/*/controldata/*');
    expect(published(platform.stateless.controlConfirmations).join()).toContain(':topic/*/commandstatus/*');
    expect(published(platform.stateless.controlConfirmations).join()).toContain(':topic/*/notification');
    // A presence change goes to the device's floor.
    expect(published(platform.stateless.controlConfirmations).join()).toContain(':topic/*/live/*');
    const granted = actionsOf(platform.stateless.controlConfirmations.role);
    // Alarm mail goes to the mail queue; nothing else beyond the table, IoT and telemetry of itself.
    expect([...new Set(granted.map((action) => action.split(':')[0]))].sort()).toEqual([
      'dynamodb',
      'iot',
      'logs',
      'sqs',
      'xray',
    ]);
  });
});

describe('tree sweeps', () => {
  it("feeds the tree sweeper from the platform table's stream: committed deletes only, retried, then dead letters", () => {
    const failures = logicalId(platform.stateless.treeSweepFailures);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId(platform.stateless.treeSweeper.function) },
      EventSourceArn: { 'Fn::ImportValue': 'ArgentumStateful-PlatformTableStreamArn' },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: treeSweeps.batchSize,
      MaximumRetryAttempts: treeSweeps.retryAttempts,
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [failures, 'Arn'] } } },
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify(treeSweeps.filter) }] },
    });
    expect(treeSweeps.filter).toEqual({
      eventName: ['INSERT', 'MODIFY'],
      dynamodb: {
        NewImage: { entity: { S: ['org', 'building', 'floor'] }, deletedAt: { S: [{ exists: true }] } },
      },
    });
    template.hasResourceProperties('AWS::SQS::Queue', {
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 14 * 24 * 3600,
    });
    const resources = template.toJSON().Resources as Resources;
    expect(resources[logicalId(platform.stateless.treeSweeper.function)]?.Properties.Timeout).toBe(
      treeSweeps.timeoutSeconds,
    );
  });

  it('lets the sweeper read the stream and send to its dead-letter queue, and nothing more of either', () => {
    const granted = actionsOf(platform.stateless.treeSweeper.role);
    expect(granted.filter((action) => action.startsWith('sqs:')).sort()).toEqual([
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
      'sqs:SendMessage',
    ]);
    expect(granted).toEqual(
      expect.arrayContaining([
        'dynamodb:DescribeStream',
        'dynamodb:GetRecords',
        'dynamodb:GetShardIterator',
        'dynamodb:ListStreams',
      ]),
    );
    const policies = JSON.stringify(template.findResources('AWS::IAM::Policy'));
    expect(policies).not.toContain('"sqs:*"');
  });
});

describe('web app on CloudFront', () => {
  const distributionConfig = () =>
    (Object.values(template.findResources('AWS::CloudFront::Distribution') as Resources)[0]?.Properties
      .DistributionConfig ?? {}) as {
      Origins: {
        Id: string;
        DomainName: unknown;
        OriginAccessControlId?: unknown;
        S3OriginConfig?: unknown;
        OriginCustomHeaders?: { HeaderName: string; HeaderValue: unknown }[];
      }[];
      DefaultCacheBehavior: Record<string, unknown>;
      CacheBehaviors: Record<string, unknown>[];
    };

  it('serves /api/* and /integrations/* from the HTTP API on the same domain, uncached, all methods', () => {
    const config = distributionConfig();
    const apiOrigin = config.Origins.find((origin) =>
      JSON.stringify(origin.DomainName).includes('execute-api'),
    );
    expect(apiOrigin).toBeDefined();
    expect(config.CacheBehaviors.map((behavior) => behavior.PathPattern).sort()).toEqual(
      [...apiPathPatterns, floorPlanPathPattern].sort(),
    );
    const apiBehaviors = config.CacheBehaviors.filter((behavior) =>
      (apiPathPatterns as readonly unknown[]).includes(behavior.PathPattern),
    );
    expect(apiBehaviors).toHaveLength(apiPathPatterns.length);
    for (const behavior of apiBehaviors) {
      expect(behavior).toMatchObject({
        TargetOriginId: apiOrigin?.Id,
        CachePolicyId: cachingDisabled,
        OriginRequestPolicyId: allViewerExceptHostHeader,
        AllowedMethods: expect.arrayContaining(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']),
        ViewerProtocolPolicy: 'https-only',
      });
    }
  });

  it('serves floor plans from the files bucket only on signed URLs, uncached, with nosniff and a sandboxing CSP', () => {
    const config = distributionConfig();
    const plans = config.CacheBehaviors.find((behavior) => behavior.PathPattern === floorPlanPathPattern);
    expect(floorPlanPathPattern).toBe(`/${floorPlanKey('org', 'floor').split('/')[0]}/*`);
    const filesOrigin = config.Origins.find((origin) => origin.Id === plans?.TargetOriginId);
    // The files bucket, by its regional name, through an origin access control of its own.
    expect(JSON.stringify(filesOrigin?.DomainName)).toContain('ArgentumStateful-FilesBucketName');
    const controls = template.findResources('AWS::CloudFront::OriginAccessControl') as Resources;
    expect(filesOrigin?.OriginAccessControlId).toEqual({
      'Fn::GetAtt': [
        Object.keys(controls).find((id) => JSON.stringify(controls[id]?.Properties).includes('-files')),
        'Id',
      ],
    });
    // Only with a signature of the plan key group's key.
    const keyGroupId = logicalId(platform.stateless.planKeyGroup);
    const publicKeyId = logicalId(platform.stateless.planPublicKey);
    expect(plans).toMatchObject({
      TrustedKeyGroups: [{ Ref: keyGroupId }],
      CachePolicyId: cachingDisabled,
      AllowedMethods: ['GET', 'HEAD'],
      ViewerProtocolPolicy: 'https-only',
    });
    expect(plans?.OriginRequestPolicyId).toBeUndefined();
    template.hasResourceProperties('AWS::CloudFront::KeyGroup', {
      KeyGroupConfig: Match.objectLike({ Items: [{ Ref: publicKeyId }] }),
    });
    // The public key is the one the key maker put the private half of into the plan secret.
    const keyMaker = logicalId(platform.stateless.realtimeSigningKeyMaker.function);
    const secret = logicalId(platform.stateless.planSigningKey);
    const [keyResource] = Object.keys(
      template.findResources('AWS::CloudFormation::CustomResource', {
        Properties: { ServiceToken: { 'Fn::GetAtt': [keyMaker, 'Arn'] }, SecretId: { Ref: secret } },
      }),
    );
    expect(keyResource).toBeDefined();
    template.hasResourceProperties('AWS::CloudFront::PublicKey', {
      PublicKeyConfig: Match.objectLike({ EncodedKey: { 'Fn::GetAtt': [keyResource, 'PublicKey'] } }),
    });
    // Headers S3 cannot send.
    const policies = template.findResources('AWS::CloudFront::ResponseHeadersPolicy') as Resources;
    const planPolicy = policies[String((plans?.ResponseHeadersPolicyId as { Ref: string }).Ref)]?.Properties
      .ResponseHeadersPolicyConfig as { SecurityHeadersConfig: Record<string, unknown> };
    expect(planPolicy.SecurityHeadersConfig).toMatchObject({
      ContentTypeOptions: { Override: true },
      ContentSecurityPolicy: { ContentSecurityPolicy: FLOOR_PLAN_CONTENT_SECURITY_POLICY, Override: true },
    });
    expect(FLOOR_PLAN_CONTENT_SECURITY_POLICY).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
    );
  });

  it('lets only the functions that answer a plan URL read the plan signing key, and tells them its id', () => {
    const secret = logicalId(platform.stateless.planSigningKey);
    const secretActions = (role: IConstruct) =>
      statementsOf(role)
        .filter((statement) => JSON.stringify(statement.Resource).includes(secret))
        .flatMap((statement) => [statement.Action].flat());
    const lambdas = template.findResources('AWS::Lambda::Function') as Resources;
    for (const domain of apiDomains) {
      const fn = platform.stateless.apiFunctions[domain];
      const signs = domain === 'floors' || domain === 'floorplans';
      const actions = secretActions(fn.role);
      expect(actions.includes('secretsmanager:GetSecretValue'), domain).toBe(signs);
      expect(actions, domain).not.toContain('secretsmanager:PutSecretValue');
      const variables = (
        lambdas[logicalId(fn.function)]?.Properties.Environment as {
          Variables: Record<string, unknown>;
        }
      ).Variables;
      if (signs) {
        expect(variables[ENV.planSigningSecretId], domain).toEqual({ Ref: secret });
        expect(variables[ENV.planKeyPairId], domain).toEqual({
          Ref: logicalId(platform.stateless.planPublicKey),
        });
      } else {
        expect(variables[ENV.planSigningSecretId], domain).toBeUndefined();
      }
    }
    expect(secretActions(platform.stateless.realtimeSigningKeyMaker.role)).toContain(
      'secretsmanager:PutSecretValue',
    );
  });

  it('reads the site bucket through origin access control; the bucket stays private', () => {
    const config = distributionConfig();
    const s3Origin = config.Origins.find(
      (origin) => origin.Id === config.DefaultCacheBehavior.TargetOriginId,
    );
    expect(s3Origin?.OriginAccessControlId).toBeDefined();
    expect(config.DefaultCacheBehavior.TargetOriginId).toBe(s3Origin?.Id);
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({
        OriginAccessControlOriginType: 's3',
        SigningBehavior: 'always',
      }),
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Principal: { Service: 'cloudfront.amazonaws.com' }, Action: 's3:GetObject' }),
        ]),
      },
    });
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: Match.objectLike({
        BlockPublicAcls: true,
        RestrictPublicBuckets: true,
      }),
      LoggingConfiguration: Match.anyValue(),
    });
  });

  it('adds security headers to every response', () => {
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: {
          StrictTransportSecurity: Match.objectLike({
            AccessControlMaxAgeSec: 63072000,
            IncludeSubdomains: true,
          }),
          ContentTypeOptions: { Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
          ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
          ContentSecurityPolicy: {
            ContentSecurityPolicy: Match.anyValue(),
            Override: true,
          },
        },
      }),
    });
    const policy = JSON.stringify(template.findResources('AWS::CloudFront::ResponseHeadersPolicy'));
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("connect-src 'self' wss://");
    // Uploads are posted to, and logos loaded from, the files bucket's virtual-hosted address.
    expect(policy).toMatch(
      /connect-src 'self' wss:\/\/[^;]+ https:\/\/",\{"Fn::ImportValue":"ArgentumStateful-FilesBucketName"\},"\.s3\.[a-z0-9-]+\./,
    );
    expect(policy).toMatch(
      /img-src 'self' data: blob: https:\/\/",\{"Fn::ImportValue":"ArgentumStateful-FilesBucketName"\}/,
    );
    // The very policy the local server sends (one function), with IoT Core's WebSocket and the bucket.
    const [headers] = Object.values(
      template.findResources('AWS::CloudFront::ResponseHeadersPolicy') as Record<
        string,
        {
          Properties: {
            ResponseHeadersPolicyConfig: {
              SecurityHeadersConfig: {
                ContentSecurityPolicy: { ContentSecurityPolicy: { 'Fn::Join': [string, unknown[]] } };
              };
            };
          };
        }
      >,
    );
    const parts =
      headers?.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy
        .ContentSecurityPolicy['Fn::Join'][1] ?? [];
    const written = parts.map((part) => (typeof part === 'string' ? part : '§')).join('');
    const realtime = /connect-src 'self' (wss:\/\/\S+) /.exec(written)?.[1];
    const files = /img-src 'self' data: blob: (\S+?);/.exec(written)?.[1];
    expect(realtime).toMatch(/^wss:\/\//);
    expect(files).toMatch(/^https:\/\/§\.s3\./);
    expect(written).toBe(contentSecurityPolicy({ realtime: realtime ?? '', files: files ?? '' }));
    expect(written).not.toMatch(/worker-src|blob: .*script|'unsafe-eval'/);
    const config = distributionConfig();
    const headerPolicies = [config.DefaultCacheBehavior, ...config.CacheBehaviors].map(
      (behavior) => behavior.ResponseHeadersPolicyId,
    );
    expect(headerPolicies.every((id) => id !== undefined)).toBe(true);
  });

  it('rewrites extension-less SPA routes to /index.html on the default behavior only', () => {
    const rewrite = new Function('event', `${spaRewriteCode}\nreturn handler(event);`) as (event: {
      request: { uri: string };
    }) => { uri: string };
    const uriFor = (uri: string) => rewrite({ request: { uri } }).uri;
    expect(uriFor('/')).toBe('/index.html');
    expect(uriFor('/home')).toBe('/index.html');
    expect(uriFor('/login')).toBe('/index.html');
    expect(uriFor('/register/abc')).toBe('/index.html');
    expect(uriFor('/forgetPassword/tok.en-1')).toBe('/forgetPassword/tok.en-1');
    expect(uriFor('/assets/index-abc.js')).toBe('/assets/index-abc.js');
    expect(uriFor('/config.json')).toBe('/config.json');

    template.hasResourceProperties('AWS::CloudFront::Function', {
      FunctionCode: spaRewriteCode,
      FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-2.0' }),
    });
    const config = distributionConfig();
    expect(config.DefaultCacheBehavior.FunctionAssociations).toEqual([
      expect.objectContaining({ EventType: 'viewer-request' }),
    ]);
    for (const behavior of config.CacheBehaviors)
      expect(JSON.stringify(behavior.FunctionAssociations ?? [])).not.toContain(
        logicalId(platform.stateless.node.findChild('Web').node.findChild('SpaRewrite')),
      );
  });

  it('passes the viewer address to the API, believed only with the secret CloudFront adds', () => {
    const passOn = new Function('event', `${viewerAddressCode}\nreturn handler(event);`) as (event: {
      viewer: { ip: string };
      request: { headers: Record<string, { value: string }> };
    }) => { headers: Record<string, { value: string }> };
    const forwarded = passOn({
      viewer: { ip: '2001:db8::7' },
      request: { headers: { 'x-viewer-address': { value: '198.51.100.1' }, accept: { value: '*/*' } } },
    });
    expect(forwarded.headers).toEqual({
      'x-viewer-address': { value: '2001:db8::7' },
      accept: { value: '*/*' },
    });
    const web = platform.stateless.web;
    const functionId = logicalId(web.node.findChild('ViewerAddress'));
    template.hasResourceProperties('AWS::CloudFront::Function', {
      FunctionCode: viewerAddressCode,
      FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-2.0' }),
    });
    const config = distributionConfig();
    const apiBehaviors = config.CacheBehaviors.filter((behavior) =>
      (apiPathPatterns as readonly unknown[]).includes(behavior.PathPattern),
    );
    expect(apiBehaviors).toHaveLength(apiPathPatterns.length);
    for (const behavior of apiBehaviors) {
      expect(behavior.FunctionAssociations).toEqual([
        { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } },
      ]);
    }
    // The origin header and every API function's ORIGIN_SECRET are the same generated secret.
    const secretId = logicalId(web.originSecret);
    const secretReference = (value: unknown) => {
      const flat = JSON.stringify(value);
      return flat.includes('{{resolve:secretsmanager:') && flat.includes(`"Ref":"${secretId}"`);
    };
    const apiOrigin = config.Origins.find((origin) =>
      JSON.stringify(origin.DomainName).includes('execute-api'),
    );
    expect(apiOrigin?.OriginCustomHeaders?.map((header) => header.HeaderName)).toEqual(['x-origin-verify']);
    expect(secretReference(apiOrigin?.OriginCustomHeaders?.[0]?.HeaderValue)).toBe(true);
    const variablesOf = (fn: PlatformFunction) =>
      (
        (template.toJSON() as { Resources: Resources }).Resources[logicalId(fn.function)]?.Properties
          .Environment as { Variables: Record<string, unknown> }
      ).Variables;
    for (const domain of apiDomains) {
      const variables = variablesOf(platform.stateless.apiFunctions[domain]);
      expect(secretReference(variables[ENV.originSecret])).toBe(true);
      // ... and each refuses a request without it (the execute-api endpoint bypasses CloudFront and WAF).
      expect(variables[ENV.originRequired]).toBe('true');
    }
    for (const fn of [
      platform.stateless.ingest,
      platform.stateless.realtimeAuthorizer,
      platform.stateless.treeSweeper,
      platform.stateless.mailJobs.mailer,
      platform.stateless.controlConfirmations,
    ])
      expect(variablesOf(fn)[ENV.originSecret]).toBeUndefined();
  });

  it('deploys the built app and its runtime config, then invalidates the distribution', () => {
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      DistributionPaths: ['/*'],
      DistributionId: { Ref: logicalId(platform.stateless.web.distribution) },
    });
  });

  it('outputs the site URL, API URL, user pool, client and IoT authorizer name', () => {
    const outputs = Object.keys(template.findOutputs('*'));
    expect(outputs).toEqual(
      expect.arrayContaining(['SiteUrl', 'ApiUrl', 'UserPoolId', 'UserPoolClientId', 'IotAuthorizerName']),
    );
  });
});

describe('presence sweep', () => {
  it('runs every minute from an EventBridge schedule, with access only to presence, alarms and the live and notification topics', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: Match.arrayWith([
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [logicalId(platform.stateless.presenceSweep.function), 'Arn'] },
          RetryPolicy: { MaximumRetryAttempts: 0 },
        }),
      ]),
    });
    const published = statementsOf(platform.stateless.presenceSweep.role)
      .filter((statement) => statement.Action === 'iot:Publish')
      .map((statement) => JSON.stringify(statement.Resource))
      .join();
    expect(published).toContain(':topic/*/live/*');
    expect(published).toContain(':topic/*/notification');
    expect(published).not.toContain('controldata');
  });
});

/** A platform function's environment variables, as synthesized. */
function environmentOf(fn: PlatformFunction): Record<string, unknown> {
  const resources = template.toJSON().Resources as Resources;
  const environment = resources[logicalId(fn.function)]?.Properties.Environment as
    { Variables: Record<string, unknown> } | undefined;
  return environment?.Variables ?? {};
}

describe('vendor poller', () => {
  it('runs every 5 minutes, reads devices, keeps its list, publishes only telemetry to Basic Ingest, and reads the vendor secrets', () => {
    const poller = platform.stateless.vendorPoller;
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(5 minutes)',
      Targets: Match.arrayWith([
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [logicalId(poller.function), 'Arn'] },
          RetryPolicy: { MaximumRetryAttempts: 0 },
        }),
      ]),
    });
    const statements = statementsOf(poller.role);
    const published = statements
      .filter((statement) => statement.Action === 'iot:Publish')
      .map((statement) => JSON.stringify(statement.Resource));
    expect(published).toHaveLength(1);
    expect(published[0]).toContain(':topic/$aws/rules/argentum_telemetry/*/sensordata/*');
    const tableKeys = statements
      .filter((statement) => [statement.Action].flat().some((action) => action.startsWith('dynamodb:')))
      .map((statement) => ({
        actions: [statement.Action].flat().sort(),
        keys: (statement.Condition as { 'ForAllValues:StringLike'?: Record<string, string[]> } | undefined)?.[
          'ForAllValues:StringLike'
        ]?.['dynamodb:LeadingKeys'],
      }));
    expect(tableKeys).toEqual([
      { actions: ['dynamodb:BatchGetItem', 'dynamodb:GetItem'], keys: ['DEVICE#*'] },
      { actions: ['dynamodb:DeleteItem', 'dynamodb:Query'], keys: ['VENDORPOLL*'] },
    ]);
    const secrets = JSON.stringify(
      statements.filter((statement) =>
        [statement.Action].flat().some((a) => a.startsWith('secretsmanager:')),
      ),
    );
    expect(secrets).toContain('NestSecret');
    expect(secrets).toContain('EcobeeSecret');
    expect(secrets).toContain('RyseSecret');
    expect(environmentOf(poller).TELEMETRY_RULE_NAME).toBe('argentum_telemetry');
    // Room for a run's 40 Ecobee requests at the vendor limit, 2 at once; ended before the next run.
    const resources = template.toJSON().Resources as Resources;
    const timeout = resources[logicalId(poller.function)]?.Properties.Timeout as number;
    expect(timeout).toBeGreaterThanOrEqual((40 / 2) * 5);
    expect(timeout).toBeLessThan(5 * 60);
  });

  it("lets the confirmations function hand on a confirmed value as the device's reading (Basic Ingest)", () => {
    const confirmations = platform.stateless.controlConfirmations;
    const published = statementsOf(confirmations.role)
      .filter((statement) => statement.Action === 'iot:Publish')
      .map((statement) => JSON.stringify(statement.Resource))
      .join();
    expect(published).toContain(':topic/$aws/rules/argentum_telemetry/*/sensordata/*');
    expect(environmentOf(confirmations).TELEMETRY_RULE_NAME).toBe('argentum_telemetry');
  });

  it("lets the integrations function hand on what the panels read, as the devices' readings (Basic Ingest)", () => {
    const integrations = platform.stateless.apiFunctions.integrations;
    const published = statementsOf(integrations.role)
      .filter((statement) => statement.Action === 'iot:Publish')
      .map((statement) => JSON.stringify(statement.Resource))
      .join();
    expect(published).toContain(':topic/$aws/rules/argentum_telemetry/*/sensordata/*');
    expect(environmentOf(integrations).TELEMETRY_RULE_NAME).toBe('argentum_telemetry');
  });
});

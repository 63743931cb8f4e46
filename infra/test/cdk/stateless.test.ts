import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { type CfnElement, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { type IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiDomains, routeKey, type ApiDomain } from '@argentum/functions/http/types';
import { routes } from '@argentum/functions/routes/index';
import { telemetryRuleSql } from '../../cdk/constructs/realtime';
import { flattenReference } from '../../cdk/nag';
import { telemetryBatching } from '../../src/definitions';
import { apiPathPatterns, contentSecurityPolicy, spaRewriteCode } from '../../cdk/constructs/web-hosting';
import { synthPlatform, type SynthesizedPlatform } from './synth';

// CloudFront managed policy ids (documented, stable).
const cachingDisabled = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const allViewerExceptHostHeader = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

type Resources = Record<string, { Properties: Record<string, unknown> }>;

// One bundled synthesis for the whole file: esbuild runs once per Lambda.
let platform: SynthesizedPlatform;
let template: Template;
beforeAll(() => {
  platform = synthPlatform({ bundle: true, withSite: true });
  template = Template.fromStack(platform.stateless);
}, 120_000);

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

describe('Lambdas', () => {
  const platformFunctions = () => ({
    ...Object.fromEntries(apiDomains.map((domain) => [domain, platform.stateless.apiFunctions[domain]])),
    ingest: platform.stateless.ingest,
    realtimeAuthorizer: platform.stateless.realtimeAuthorizer,
  });
  const functionIds = () => Object.values(platformFunctions());

  it('runs every platform function on Node.js 22 on ARM with the house defaults and its sizing', () => {
    const resources = template.toJSON().Resources as Resources;
    // [memory in MB, timeout in seconds]
    const sizing: Record<string, [number, number]> = {
      auth: [512, 10],
      users: [512, 10],
      tree: [512, 10],
      floors: [512, 10],
      devices: [512, 10],
      data: [1024, 25],
      notifications: [512, 10],
      integrations: [512, 25],
      ingest: [512, 30],
      realtimeAuthorizer: [256, 5],
    };
    expect(Object.keys(platformFunctions()).sort()).toEqual(Object.keys(sizing).sort());
    for (const [name, fn] of Object.entries(platformFunctions())) {
      expect(resources[logicalId(fn.function)]?.Properties, name).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        TracingConfig: { Mode: 'Active' },
        LoggingConfig: { LogGroup: { Ref: logicalId(fn.logGroup) } },
        MemorySize: sizing[name]?.[0],
        Timeout: sizing[name]?.[1],
        Role: { 'Fn::GetAtt': [logicalId(fn.role), 'Arn'] },
      });
    }
  });

  it('has no other Lambda functions than the platform ones and three CDK deployment helpers', () => {
    const runtimes = Object.fromEntries(
      Object.entries(template.findResources('AWS::Lambda::Function') as Resources).map(([id, fn]) => [
        id,
        fn.Properties.Runtime,
      ]),
    );
    const platformIds = functionIds().map((fn) => logicalId(fn.function));
    expect(platformIds.map((id) => runtimes[id])).toEqual(platformIds.map(() => 'nodejs22.x'));
    // Helpers of aws-cdk-lib (pinned): the IoT endpoint lookup, the web app deployment, and the
    // emptying of the site buckets on deletion.
    const helpers = Object.entries(runtimes)
      .filter(([id]) => !platformIds.includes(id))
      .sort(([a], [b]) => a.localeCompare(b));
    expect(helpers).toEqual([
      [expect.stringMatching(/^AWS679f53fac002430cb0da5b7982bd2287/), 'nodejs24.x'],
      [expect.stringMatching(/^CustomCDKBucketDeployment/), 'python3.13'],
      [expect.stringMatching(/^CustomS3AutoDeleteObjects/), 'nodejs24.x'],
    ]);
  });

  it('keeps function logs 30 days and API access logs 90 days', () => {
    const retention = Object.fromEntries(
      Object.entries(template.findResources('AWS::Logs::LogGroup') as Resources).map(([id, group]) => [
        id,
        group.Properties.RetentionInDays,
      ]),
    );
    const expected: Record<string, number> = Object.fromEntries(
      functionIds().map((fn) => [logicalId(fn.logGroup), 30]),
    );
    const [accessLogs, ruleErrors] = Object.keys(retention)
      .filter((id) => !(id in expected))
      .sort();
    expect([accessLogs, ruleErrors]).toEqual([
      expect.stringMatching(/^ApiAccessLogs/),
      expect.stringMatching(/^RealtimeTelemetryRuleErrors/),
    ]);
    expect(retention).toEqual({ ...expected, [accessLogs ?? '']: 90, [ruleErrors ?? '']: 30 });
  });

  it('gives every function the platform environment, APP_ORIGIN being the CloudFront URL', () => {
    const distributionId = logicalId(platform.stateless.web.distribution);
    for (const fn of functionIds()) {
      const variables = (
        template.toJSON().Resources[logicalId(fn.function)].Properties.Environment as {
          Variables: Record<string, unknown>;
        }
      ).Variables;
      expect(Object.keys(variables).sort()).toEqual(
        [
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
          'AWS_ENDPOINT_URL_IOT_DATA_PLANE',
          'AWS_ACCOUNT_ID',
          'NODE_OPTIONS',
        ].sort(),
      );
      expect(variables).toMatchObject({
        PLATFORM_TABLE: { 'Fn::ImportValue': 'ArgentumStateful-PlatformTableName' },
        TELEMETRY_TABLE: { 'Fn::ImportValue': 'ArgentumStateful-TelemetryTableName' },
        FILES_BUCKET: { 'Fn::ImportValue': 'ArgentumStateful-FilesBucketName' },
        USER_POOL_ID: { 'Fn::ImportValue': 'ArgentumStateful-UserPoolId' },
        USER_POOL_CLIENT_ID: { 'Fn::ImportValue': 'ArgentumStateful-UserPoolClientId' },
        TELEMETRY_STORE: 'dynamodb',
        REFRESH_TOKEN_VALIDITY_DAYS: '30',
        AWS_ACCOUNT_ID: { Ref: 'AWS::AccountId' },
        NODE_OPTIONS: '--enable-source-maps',
      });
      expect(flattenReference(variables.APP_ORIGIN)).toBe(`https://<${distributionId}.DomainName>`);
      expect(flattenReference(variables.TOKEN_ISSUER)).toBe(
        'https://cognito-idp.eu-west-1.<AWS::URLSuffix>/ArgentumStateful-UserPoolId',
      );
    }
  });

  it('bundled every entry with the local esbuild into a minified ESM file with a source map', () => {
    const bundles = readdirSync(platform.app.outdir)
      .map((name) => path.join(platform.app.outdir, name))
      .filter((dir) => existsSync(path.join(dir, 'index.mjs')));
    expect(bundles.length).toBe(apiDomains.length + 2);
    for (const dir of bundles) expect(existsSync(path.join(dir, 'index.mjs.map'))).toBe(true);
  });

  it('uses its own roles, assumed by Lambda only, without AWS managed policies', () => {
    for (const fn of functionIds()) {
      const role = template.toJSON().Resources[logicalId(fn.role)];
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
      expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
        { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' } },
      ]);
    }
  });
});

describe('least privilege per function', () => {
  /** A role's statements with references flattened, e.g. `arn:<AWS::Partition>:dynamodb:...`. */
  const grants = (roleConstruct: IConstruct) =>
    statementsOf(roleConstruct).map((statement) => ({
      actions: [statement.Action].flat(),
      resources: [statement.Resource].flat().map(flattenReference),
      ...(statement.Effect === 'Allow' ? {} : { effect: statement.Effect }),
      ...(statement.Condition ? { condition: statement.Condition } : {}),
    }));

  const arn = (service: string, resource: string) =>
    `arn:<AWS::Partition>:${service}:eu-west-1:<AWS::AccountId>:${resource}`;
  const dynamoRead = [
    'dynamodb:GetItem',
    'dynamodb:BatchGetItem',
    'dynamodb:Query',
    'dynamodb:Scan',
    'dynamodb:ConditionCheckItem',
    'dynamodb:DescribeTable',
  ];
  const dynamoWrite = [
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
    'dynamodb:BatchWriteItem',
  ];
  const table = (name: 'PlatformTableName' | 'TelemetryTableName', level: 'read' | 'readWrite') => ({
    actions: level === 'read' ? dynamoRead : [...dynamoRead, ...dynamoWrite],
    resources: [
      arn('dynamodb', `table/ArgentumStateful-${name}`),
      arn('dynamodb', `table/ArgentumStateful-${name}/index/*`),
    ],
  });
  const base = (fn: { logGroup: IConstruct }) => [
    {
      actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
      resources: [`<${logicalId(fn.logGroup)}.Arn>`],
    },
    { actions: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'], resources: ['*'] },
  ];
  const closeConnections = { actions: ['iot:DeleteConnection'], resources: [arn('iot', 'client/*')] };
  const files = [
    { actions: ['s3:ListBucket'], resources: ['arn:<AWS::Partition>:s3:::ArgentumStateful-FilesBucketName'] },
    {
      actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
      resources: ['arn:<AWS::Partition>:s3:::ArgentumStateful-FilesBucketName/*'],
    },
  ];
  const userPoolAdmin = {
    actions: [
      'cognito-idp:AdminCreateUser',
      'cognito-idp:AdminDeleteUser',
      'cognito-idp:AdminDisableUser',
      'cognito-idp:AdminEnableUser',
      'cognito-idp:AdminGetUser',
      'cognito-idp:AdminInitiateAuth',
      'cognito-idp:AdminResetUserPassword',
      'cognito-idp:AdminSetUserPassword',
      'cognito-idp:AdminUpdateUserAttributes',
      'cognito-idp:AdminUserGlobalSignOut',
      'cognito-idp:DescribeUserPool',
      'cognito-idp:ListUsers',
    ],
    resources: [arn('cognito-idp', 'userpool/ArgentumStateful-UserPoolId')],
  };
  const sendMail = {
    actions: ['ses:SendEmail', 'ses:SendRawEmail'],
    resources: [arn('ses', 'identity/*')],
    condition: { StringEquals: { 'ses:FromAddress': 'no-reply@example.com' } },
  };
  const publish = (...topicPatterns: string[]) => ({
    actions: ['iot:Publish'],
    resources: topicPatterns.map((topic) => arn('iot', `topic/${topic}`)),
  });

  it.each(apiDomains.map((domain) => [domain]))(
    'grants the %s API exactly what its use cases need',
    (domain) => {
      const fn = platform.stateless.apiFunctions[domain];
      const platformTable = table('PlatformTableName', 'readWrite');
      const expected: Record<ApiDomain, object[]> = {
        auth: [platformTable, closeConnections, userPoolAdmin, sendMail],
        users: [platformTable, closeConnections, ...files, userPoolAdmin, sendMail],
        tree: [platformTable, closeConnections, ...files],
        floors: [platformTable, ...files],
        devices: [platformTable, publish('*/controldata/*')],
        // Read-only on both tables.
        data: [table('PlatformTableName', 'read'), table('TelemetryTableName', 'read')],
        notifications: [platformTable],
        integrations: [platformTable, publish('*/controldata/*', '*/live/*')],
      };
      expect(grants(fn.role)).toEqual([...base(fn), ...expected[domain]]);
    },
  );

  it('grants ingest the tables, live and notification publishing, and its queue', () => {
    const fn = platform.stateless.ingest;
    expect(grants(fn.role)).toEqual([
      ...base(fn),
      table('PlatformTableName', 'readWrite'),
      table('TelemetryTableName', 'readWrite'),
      publish('*/live/*', '*/notification'),
      {
        actions: [
          'sqs:ReceiveMessage',
          'sqs:ChangeMessageVisibility',
          'sqs:GetQueueUrl',
          'sqs:DeleteMessage',
          'sqs:GetQueueAttributes',
        ],
        resources: [`<${logicalId(platform.stateless.realtime.telemetryQueue)}.Arn>`],
      },
    ]);
  });

  it('lets the realtime authorizer read, and write only the connection items it records', () => {
    const fn = platform.stateless.realtimeAuthorizer;
    expect(grants(fn.role)).toEqual([
      ...base(fn),
      table('PlatformTableName', 'read'),
      {
        actions: ['dynamodb:PutItem'],
        resources: [arn('dynamodb', 'table/ArgentumStateful-PlatformTableName')],
        condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['CONN#*'] } },
      },
    ]);
  });

  it('grants no whole service anywhere in the stack', () => {
    const actions = Object.values(template.findResources('AWS::IAM::Policy') as Resources).flatMap((policy) =>
      (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement.flatMap((statement) =>
        [statement.Action].flat(),
      ),
    );
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'iot:Publish', 's3:GetObject']));
    expect(actions.filter((action) => action.endsWith(':*') || action === '*')).toEqual([]);
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
    const authorizerIds = Object.keys(template.findResources('AWS::ApiGatewayV2::Authorizer'));
    expect(authorizerIds).toHaveLength(1);
    const [authorizerId] = authorizerIds;
    for (const route of routes) {
      template.hasResourceProperties('AWS::ApiGatewayV2::Route', {
        RouteKey: routeKey(route),
        ...(route.access === 'public'
          ? { AuthorizationType: 'NONE', AuthorizerId: Match.absent() }
          : { AuthorizationType: 'JWT', AuthorizerId: { Ref: authorizerId } }),
      });
    }
    template.resourcePropertiesCountIs('AWS::ApiGatewayV2::Route', { AuthorizationType: 'NONE' }, 7);
    template.resourcePropertiesCountIs(
      'AWS::ApiGatewayV2::Route',
      { AuthorizationType: 'JWT' },
      routes.length - 7,
    );
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
    expect(telemetryRuleSql).toBe("SELECT *, topic(1) AS orgId FROM '+/sensordata/+'");
    const queue = logicalId(platform.stateless.realtime.telemetryQueue);
    template.hasResourceProperties('AWS::IoT::TopicRule', {
      TopicRulePayload: {
        Sql: telemetryRuleSql,
        AwsIotSqlVersion: '2016-03-23',
        RuleDisabled: false,
        Actions: [{ Sqs: { QueueUrl: { Ref: queue }, RoleArn: Match.anyValue(), UseBase64: false } }],
        ErrorAction: { CloudwatchLogs: { LogGroupName: Match.anyValue(), RoleArn: Match.anyValue() } },
        Description: Match.anyValue(),
      },
    });
    template.hasResourceProperties('AWS::SQS::Queue', {
      SqsManagedSseEnabled: true,
      VisibilityTimeout: 180,
      RedrivePolicy: {
        deadLetterTargetArn: {
          'Fn::GetAtt': [logicalId(platform.stateless.realtime.telemetryDeadLetters), 'Arn'],
        },
        maxReceiveCount: 5,
      },
    });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId(platform.stateless.ingest.function) },
      EventSourceArn: { 'Fn::GetAtt': [queue, 'Arn'] },
      BatchSize: telemetryBatching.batchSize,
      MaximumBatchingWindowInSeconds: telemetryBatching.maxBatchingWindowSeconds,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('has an active custom authorizer (signing disabled) that IoT may invoke', () => {
    const authorizerFn = logicalId(platform.stateless.realtimeAuthorizer.function);
    template.hasResourceProperties('AWS::IoT::Authorizer', {
      AuthorizerName: 'Argentum-realtime',
      AuthorizerFunctionArn: { 'Fn::GetAtt': [authorizerFn, 'Arn'] },
      SigningDisabled: true,
      Status: 'ACTIVE',
    });
    template.hasResourceProperties('AWS::Lambda::Permission', {
      FunctionName: { 'Fn::GetAtt': [authorizerFn, 'Arn'] },
      Principal: 'iot.amazonaws.com',
      SourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('RealtimeAuthorizer'), 'Arn'] },
    });
  });
});

describe('web app on CloudFront', () => {
  const distributionConfig = () => {
    const distributions = Object.values(template.findResources('AWS::CloudFront::Distribution') as Resources);
    expect(distributions).toHaveLength(1);
    return distributions[0]?.Properties.DistributionConfig as {
      Origins: {
        Id: string;
        DomainName: unknown;
        OriginAccessControlId?: unknown;
        S3OriginConfig?: unknown;
      }[];
      DefaultCacheBehavior: Record<string, unknown>;
      CacheBehaviors: Record<string, unknown>[];
    };
  };

  /** The two origins: the HTTP API, and the site bucket read through origin access control. */
  const origins = () => {
    const config = distributionConfig();
    expect(config.Origins).toHaveLength(2);
    const api = config.Origins.filter((origin) => JSON.stringify(origin.DomainName).includes('execute-api'));
    const site = config.Origins.filter((origin) => origin.OriginAccessControlId !== undefined);
    expect([api.length, site.length]).toEqual([1, 1]);
    expect(api[0]?.Id).not.toBe(site[0]?.Id);
    return { api: api[0]?.Id ?? '', site: site[0]?.Id ?? '' };
  };

  it('serves /api/* and /integrations/* from the HTTP API on the same domain, uncached, all methods', () => {
    const config = distributionConfig();
    const apiOrigin = origins().api;
    expect(config.CacheBehaviors.map((behavior) => behavior.PathPattern).sort()).toEqual(
      [...apiPathPatterns].sort(),
    );
    for (const behavior of config.CacheBehaviors) {
      expect(behavior).toMatchObject({
        TargetOriginId: apiOrigin,
        CachePolicyId: cachingDisabled,
        OriginRequestPolicyId: allViewerExceptHostHeader,
        AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
        ViewerProtocolPolicy: 'https-only',
      });
    }
  });

  it('reads the site bucket through origin access control; the bucket stays private', () => {
    const config = distributionConfig();
    expect(config.DefaultCacheBehavior.TargetOriginId).toBe(origins().site);
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
    const policies = template.findResources('AWS::CloudFront::ResponseHeadersPolicy') as Resources;
    const [policyId, ...more] = Object.keys(policies);
    expect(more).toEqual([]);
    const csp = flattenReference(
      (
        policies[policyId ?? '']?.Properties.ResponseHeadersPolicyConfig as {
          SecurityHeadersConfig: { ContentSecurityPolicy: { ContentSecurityPolicy: unknown } };
        }
      ).SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy,
    );
    // The IoT endpoint is looked up at deploy time (a custom resource's attribute).
    const iotEndpoint = flattenReference(platform.stateless.resolve(platform.stateless.iotEndpoint));
    expect(iotEndpoint).toMatch(/^<IotEndpointLookup\w+\.endpointAddress>$/);
    expect(csp).toBe(contentSecurityPolicy(iotEndpoint));
    expect(csp).toContain("frame-ancestors 'none'");
    const config = distributionConfig();
    const headerPolicies = [config.DefaultCacheBehavior, ...config.CacheBehaviors].map(
      (behavior) => behavior.ResponseHeadersPolicyId,
    );
    expect(headerPolicies).toEqual([{ Ref: policyId }, { Ref: policyId }, { Ref: policyId }]);
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
    for (const behavior of config.CacheBehaviors) expect(behavior.FunctionAssociations).toBeUndefined();
  });

  it('deploys the built app and its runtime config, then invalidates the distribution', () => {
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      DistributionPaths: ['/*'],
      DistributionId: { Ref: logicalId(platform.stateless.web.distribution) },
    });
  });

  it('outputs the site URL, API URL, user pool, client and IoT authorizer name', () => {
    const outputs = Object.keys(template.findOutputs('*'));
    expect(outputs.sort()).toEqual(
      [
        'SiteUrl',
        'ApiUrl',
        'HttpApiEndpoint',
        'UserPoolId',
        'UserPoolClientId',
        'IotEndpoint',
        'IotAuthorizerName',
      ].sort(),
    );
  });
});

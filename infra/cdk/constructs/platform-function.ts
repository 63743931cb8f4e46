import path from 'node:path';
import { AssetHashType, DockerImage, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import {
  functionEnvironment,
  type FunctionSettings,
  type IntegrationSettings,
  lambdaEnvironment,
  type PlatformSettings,
} from '@argentum/functions/environment';
import { ARCHIVE_ROOT } from '@argentum/functions/domain/telemetry/archive';
import { userPool } from '../../src/definitions';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { lambdaNodeOptions, lambdaRuntime } from '../lambda-bundling';
import { acknowledgeWildcards } from '../nag';
import { functionDefaults } from '../../src/definitions';
import {
  ARCHIVE_OBJECTS,
  CLOSABLE_CLIENTS,
  fileActions,
  senderAddress,
  USER_POOL_ADMIN_ACTIONS,
  type FunctionName,
  functionAccess,
  type RoleAccess,
  secretActions,
  type SecretKind,
  tableGrants,
} from '../../src/function-access';
import { lambdaEntry, repoRoot } from '../paths';

const bundleLambdaScript = path.join(repoRoot, 'infra/cdk/bundle-lambda.ts');

export type TelemetryStoreKind = 'dynamodb' | 'timestream';

/** The names and settings every platform Lambda is configured with (tokens from the stateful stack). */
export interface PlatformResources {
  platformTableName: string;
  telemetryTableName: string;
  filesBucketName: string;
  /** The archive of raw readings (reading-archive.ts). */
  archiveBucketName: string;
  userPoolId: string;
  userPoolClientId: string;
  telemetryStore: TelemetryStoreKind;
  timestream?: { databaseName: string; tableName: string };
  mailFrom: string;
  appOrigin: string;
  /** Host name of the account's IoT data endpoint (iot:Data-ATS). */
  iotDataEndpoint: string;
}

/**
 * What a function may touch besides the tables, the IoT data plane and the buckets (`functionAccess`
 * in infra/src/function-access.ts, by its entry). Each entry becomes one narrowly scoped policy
 * statement.
 */
export interface FunctionAccess {
  /** Timestream access, only granted when Timestream is the selected telemetry store. */
  timestream?: 'query' | 'write';
}

export interface PlatformFunctionProps {
  /** Entry file name in functions/src/lambda, without extension; it names the function's table access. */
  entry: FunctionName;
  description: string;
  resources: PlatformResources;
  access: FunctionAccess;
  memorySize?: number;
  timeout?: Duration;
  /**
   * Packages with native code, installed beside the bundle rather than bundled: npm installs them for
   * the function's platform (Linux on ARM64), whatever the machine that synthesizes.
   */
  nodeModules?: readonly string[];
  /** The mail job queue's URL, for a function that queues mail jobs (grant it SendMessage too). */
  mailQueueUrl?: string;
  /** For the API functions: the secret CloudFront's origin header carries (ORIGIN_SECRET). */
  originSecret?: string;
  /** For the integrations function: its vendor secrets (bind each with `useSecret`). */
  integrations?: IntegrationSettings;
}

/**
 * A platform Lambda with the house defaults: Node.js 24 on ARM, a minified ESM bundle built by the
 * local esbuild as lambda-bundling.ts says (AWS SDK clients included), source maps, active X-Ray
 * tracing and a log group with a retention. It sets the platform environment and grants exactly the
 * access it is given, in one place, on its own role (no AWS managed policies).
 */
export class PlatformFunction extends Construct {
  readonly function: LambdaFunction;
  readonly role: Role;
  /** Its entry in functions/src/lambda, which names its access (infra/src/function-access.ts). */
  readonly entry: FunctionName;
  readonly logGroup: LogGroup;
  /** The secrets bound to it (`useSecret`), each with what its access says of it. */
  readonly secretsBound: SecretKind[] = [];

  constructor(scope: Construct, id: string, props: PlatformFunctionProps) {
    super(scope, id);
    const { resources, access } = props;

    this.logGroup = new LogGroup(this, 'LogGroup', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.entry = props.entry;
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${props.entry}`,
    });
    this.logGroup.grantWrite(this.role);

    const entry = lambdaEntry(props.entry);
    this.function = new LambdaFunction(this, 'Function', {
      // Bundled here with esbuild (infra/cdk/lambda-bundling.ts): index.mjs and its lazily loaded chunks.
      code: Code.fromAsset(path.dirname(entry), {
        assetHashType: AssetHashType.OUTPUT,
        bundling: {
          image: DockerImage.fromRegistry('unused-local-bundling-only'),
          // CDK caches a bundle by its source and options, not by the local bundler: the entry must
          // appear in the options, or every function in this folder would get the first one's bundle.
          environment: { LAMBDA_ENTRY: props.entry, NODE_MODULES: (props.nodeModules ?? []).join(',') },
          local: {
            tryBundle(outputDir) {
              const native = props.nodeModules ?? [];
              // esbuild's plugins run only in its asynchronous build, and CDK bundles synchronously.
              execFileSync(
                process.execPath,
                ['--import', 'tsx', bundleLambdaScript, entry, outputDir, ...native],
                { cwd: repoRoot, stdio: 'inherit' },
              );
              if (native.length > 0) installForLambda(outputDir, native);
              return true;
            },
          },
        },
      }),
      handler: 'index.handler',
      description: props.description,
      runtime: lambdaRuntime,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? functionDefaults.memoryMB,
      timeout: props.timeout ?? Duration.seconds(functionDefaults.timeoutSeconds),
      tracing: Tracing.ACTIVE,
      role: this.role,
      logGroup: this.logGroup,
      environment: platformEnvironment(Stack.of(this), resources, {
        mailQueueUrl: props.mailQueueUrl,
        originSecret: props.originSecret,
        // With the secret, the API refuses requests that did not come through CloudFront (and WAF).
        originRequired: props.originSecret !== undefined,
        integrations: props.integrations,
      }),
    });

    acknowledgeWildcards(
      this.role,
      new PolicyStatement({ actions: ['xray:PutTraceSegments'], resources: ['*'] }),
      'Active X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords do not support resource-level permissions, so AWS requires Resource "*".',
    );

    this.grant(Stack.of(this), resources, access, functionAccess[props.entry]);
  }

  private allow(statement: PolicyStatement, wildcardReason?: string): void {
    this.role.addToPrincipalPolicy(statement);
    if (wildcardReason) acknowledgeWildcards(this.role, statement, wildcardReason);
  }

  private grant(stack: Stack, resources: PlatformResources, access: FunctionAccess, role: RoleAccess): void {
    const tableNames = { platform: resources.platformTableName, telemetry: resources.telemetryTableName };
    for (const grant of tableGrants(role)) {
      const tableArn = stack.formatArn({
        service: 'dynamodb',
        resource: 'table',
        resourceName: tableNames[grant.table],
      });
      const statement = new PolicyStatement({
        actions: [...grant.actions],
        resources: grant.withIndexes
          ? [tableArn, `${tableArn}/index/*`]
          : [grant.index ? `${tableArn}/index/${grant.index}` : tableArn],
        ...(grant.leadingKeysPrefix
          ? {
              conditions: {
                'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${grant.leadingKeysPrefix}*`] },
              },
            }
          : {}),
      });
      this.allow(
        statement,
        grant.withIndexes
          ? 'Queries on the global secondary indexes of this one table: the index ARN pattern is table/<name>/index/*.'
          : undefined,
      );
    }

    if (role.closeConnections) {
      this.allow(
        new PolicyStatement({
          actions: ['iot:DeleteConnection'],
          // Browser client ids only (`web-<uuid>`, the only ids the realtime authorizer admits): a device's
          // connection (its thing name) can never be closed this way.
          resources: [
            stack.formatArn({
              service: 'iot',
              resource: 'client',
              resourceName: CLOSABLE_CLIENTS,
            }),
          ],
        }),
        'Browsers make their client id (web-<uuid>) per page; revoking a user closes the connections the realtime authorizer recorded for them, and only browser ids.',
      );
    }

    if (role.files?.length) {
      const bucketArn = stack.formatArn({
        service: 's3',
        region: '',
        account: '',
        resource: resources.filesBucketName,
      });
      // Without ListBucket, reading a missing object is answered 403 instead of 404.
      if (role.files.some((grant) => grant.read)) {
        this.allow(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucketArn] }));
      }
      for (const grant of role.files) {
        const actions = fileActions(grant);
        if (!actions.length) continue;
        this.allow(
          new PolicyStatement({ actions, resources: [`${bucketArn}/${grant.prefix}*${grant.suffix ?? ''}`] }),
          `Object keys under ${grant.prefix} carry organization, floor or upload ids created at run time; access is limited to that prefix of the one files bucket.`,
        );
      }
    }

    if (role.readingArchive) {
      const archiveArn = stack.formatArn({
        service: 's3',
        region: '',
        account: '',
        resource: resources.archiveBucketName,
      });
      this.allow(
        new PolicyStatement({
          actions: ['s3:ListBucket'],
          resources: [archiveArn],
          conditions: { StringLike: { 's3:prefix': [ARCHIVE_OBJECTS] } },
        }),
      );
      this.allow(
        new PolicyStatement({ actions: ['s3:GetObject'], resources: [`${archiveArn}/${ARCHIVE_OBJECTS}`] }),
        `Archived readings are keyed by organization and day (${ARCHIVE_ROOT}org=.../day=.../), known only at run time; read only, and only under that prefix of the one archive bucket.`,
      );
    }

    if (role.userPoolAdmin) {
      this.allow(
        new PolicyStatement({
          actions: [...USER_POOL_ADMIN_ACTIONS],
          resources: [
            stack.formatArn({
              service: 'cognito-idp',
              resource: 'userpool',
              resourceName: resources.userPoolId,
            }),
          ],
        }),
      );
    }

    if (role.sendMail) {
      this.allow(
        new PolicyStatement({
          actions: ['ses:SendEmail', 'ses:SendRawEmail'],
          resources: [stack.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' })],
          conditions: { StringEquals: { 'ses:FromAddress': senderAddress(resources.mailFrom) } },
        }),
        'SES authorizes against the sender and (in the sandbox) every recipient identity, and recipients are arbitrary invitees; the ses:FromAddress condition pins the sender.',
      );
    }

    if (role.publishTopics?.length) {
      this.allow(
        new PolicyStatement({
          actions: ['iot:Publish'],
          resources: role.publishTopics.map((topic) =>
            stack.formatArn({ service: 'iot', resource: 'topic', resourceName: topic }),
          ),
        }),
        'MQTT topics start with organization and device ids known only at run time; the pattern fixes the topic kind (contracts/src/messaging/topics.ts).',
      );
    }

    if (access.timestream && resources.timestream) {
      const { databaseName, tableName } = resources.timestream;
      this.allow(
        new PolicyStatement({
          actions: access.timestream === 'write' ? ['timestream:WriteRecords'] : ['timestream:Select'],
          resources: [
            stack.formatArn({
              service: 'timestream',
              resource: 'database',
              resourceName: `${databaseName}/table/${tableName}`,
            }),
          ],
        }),
      );
      this.allow(
        new PolicyStatement({ actions: ['timestream:DescribeEndpoints'], resources: ['*'] }),
        'timestream:DescribeEndpoints (endpoint discovery, required by the Timestream SDK) does not support resource-level permissions.',
      );
    }
  }

  /**
   * Binds the secret of `kind` (at `arn`) to the function: its role may do with it what its access
   * says (infra/src/function-access.ts), read it, or read and store new values. A secret its access
   * does not name is a mistake of the stack's, refused here.
   */
  useSecret(kind: SecretKind, arn: string): void {
    const grant = functionAccess[this.entry].secrets?.find((candidate) => candidate.secret === kind);
    if (!grant)
      throw new Error(`${this.entry} has no access to the ${kind} secret (infra/src/function-access.ts)`);
    this.allow(new PolicyStatement({ actions: secretActions(grant), resources: [arn] }));
    this.secretsBound.push(kind);
  }

  /**
   * Settings only this function gets, known once other resources exist (a queue, a key, a secret),
   * as the one environment builder names them (functions/src/environment.ts). Grant the access too.
   */
  addSettings(settings: FunctionSettings): void {
    for (const [name, value] of Object.entries(functionEnvironment(settings)))
      this.function.addEnvironment(name, value);
  }
}

/**
 * The environment every platform Lambda reads (functions/src/config.ts), plus the settings only some
 * functions get.
 */
function platformEnvironment(
  stack: Stack,
  resources: PlatformResources,
  only: Pick<PlatformSettings, 'mailQueueUrl' | 'originSecret' | 'originRequired' | 'integrations'> = {},
): Record<string, string> {
  return {
    ...lambdaEnvironment({
      platformTableName: resources.platformTableName,
      telemetryTableName: resources.telemetryTableName,
      filesBucketName: resources.filesBucketName,
      archiveBucketName: resources.archiveBucketName,
      userPoolId: resources.userPoolId,
      userPoolClientId: resources.userPoolClientId,
      tokenIssuer: `https://cognito-idp.${stack.region}.${stack.urlSuffix}/${resources.userPoolId}`,
      mailFrom: resources.mailFrom,
      appOrigin: resources.appOrigin,
      telemetryStore: resources.telemetryStore,
      timestream: resources.timestream,
      // The refresh cookie lives as long as the client's refresh tokens.
      refreshTokenValidityDays: userPool.refreshTokenValidityDays,
      iotDataEndpointUrl: `https://${resources.iotDataEndpoint}`,
      // The realtime authorizer names the account in the IoT policies it returns.
      accountId: stack.account,
      // `cdk deploy -c allDeviceExportOrgId=<org id>`: the organization offered 'All device Data'.
      allDeviceExportOrgId: stringContext(stack, 'allDeviceExportOrgId'),
      ...only,
    }),
    NODE_OPTIONS: lambdaNodeOptions,
  };
}

function stringContext(stack: Stack, name: string): string | undefined {
  const value: unknown = stack.node.tryGetContext(name);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Installs packages with native code beside a bundle, at the versions the functions workspace pins,
 * for the Lambda's platform (Linux, ARM64, glibc) whatever the machine that synthesizes: npm picks
 * their prebuilt binaries by these settings.
 */
function installForLambda(outputDir: string, packages: readonly string[]) {
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'functions', 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  const dependencies = Object.fromEntries(
    packages.map((name) => {
      const version = manifest.dependencies?.[name];
      if (!version) throw new Error(`${name} is not a dependency of the functions workspace`);
      return [name, version];
    }),
  );
  writeFileSync(path.join(outputDir, 'package.json'), JSON.stringify({ private: true, dependencies }));
  execFileSync('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--no-package-lock'], {
    cwd: outputDir,
    stdio: 'ignore',
    env: { ...process.env, npm_config_os: 'linux', npm_config_cpu: 'arm64', npm_config_libc: 'glibc' },
  });
}

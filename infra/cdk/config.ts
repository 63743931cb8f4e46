import { type App } from 'aws-cdk-lib';
import { iotLogLevels, type IotLogLevel } from './constructs/iot-logging';
import { type TelemetryStoreKind } from './constructs/platform-function';
import { telemetryCapacity, type TelemetryCapacityMode } from '../src/definitions';

/** Deployment settings, read once from the CDK context (cdk.json or `-c key=value`). */
export interface PlatformConfig {
  /** `dynamodb` (default) or `timestream` (only for accounts that still have Timestream). */
  telemetryStore: TelemetryStoreKind;
  /** Public origin of the web app for e-mail links; defaults to the CloudFront URL. */
  appOrigin?: string;
  /** Sender of platform e-mail; must be an SES-verified identity. Required: there is no default. */
  mailFrom: string;
  /** Address subscribed to the alarm topic (confirmed by the subscriber); no subscription when not given. */
  alarmEmail?: string;
  /** IoT Core's log level (AWS::IoT::Logging); ERROR when not given. */
  iotLogLevel: IotLogLevel;
  /** The account's IoT data endpoint host; looked up at deploy time when not given. */
  iotEndpoint?: string;
  /** Prefix of the stack names. */
  stackPrefix: string;
  region: string;
  account?: string;
  /** The city whose outdoor pressure the app shows (GET /api/weather), and the provider's API key. */
  weatherCity: string;
  weatherApiKey?: string;
  /** Seconds the telemetry queue gathers messages before ingest runs (docs/cost.md); 10 when not given. */
  telemetryBatchingWindowSeconds?: number;
  /** How the telemetry table pays for throughput: provisioned with auto scaling (default) or on demand. */
  telemetryCapacity: TelemetryCapacityMode;
  /**
   * 1: the platform table gets only the first of the two device indexes (an existing deployment's
   * first step: CloudFormation adds one index per update, docs/deploy.md); both when not given.
   */
  deviceIndexStep?: 1;
}

const defaultRegion = 'eu-west-1';

function optionalString(app: App, key: string): string | undefined {
  const value: unknown = app.node.tryGetContext(key);
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new Error(`Context ${key} must be a string`);
  return value;
}

function batchingWindow(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > 300)
    throw new Error(`Context telemetryBatchingWindow must be whole seconds from 0 to 300, not "${value}"`);
  return seconds;
}

function capacityMode(value: string | undefined): TelemetryCapacityMode {
  if (value === undefined) return telemetryCapacity.defaultMode;
  if (value !== 'provisioned' && value !== 'on-demand')
    throw new Error(`Context telemetryCapacity must be "provisioned" or "on-demand", not "${value}"`);
  return value;
}

function indexStep(value: string | undefined): 1 | undefined {
  if (value === undefined || value === '2') return undefined;
  if (value === '1') return 1;
  throw new Error(`Context deviceIndexStep must be 1 or 2, not "${value}"`);
}

const mailbox = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

/**
 * The sender of invites, password resets and alarm mail. No default: SES refuses mail from an
 * unverified identity, so a made-up default would deploy a platform that silently sends nothing.
 */
function sender(value: string | undefined): string {
  if (value === undefined) {
    throw new Error(
      'Context mailFrom is required: the SES-verified sender of platform e-mail, e.g. ' +
        '`-c mailFrom=no-reply@your-domain.example` or `-c "mailFrom=Argentum <no-reply@your-domain.example>"` ' +
        '(docs/deploy.md, "Mail").',
    );
  }
  const address = /<([^>]+)>\s*$/.exec(value)?.[1] ?? value.trim();
  if (!mailbox.test(address))
    throw new Error(`Context mailFrom must be an e-mail address or "Name <address>", not "${value}"`);
  return value;
}

function alarmAddress(value: string | undefined): string | undefined {
  if (value !== undefined && !mailbox.test(value))
    throw new Error(`Context alarmEmail must be an e-mail address, not "${value}"`);
  return value;
}

function logLevel(value: string | undefined): IotLogLevel {
  if (value === undefined) return 'ERROR';
  const level = iotLogLevels.find((candidate) => candidate === value);
  if (!level)
    throw new Error(`Context iotLogLevel must be one of ${iotLogLevels.join(', ')}, not "${value}"`);
  return level;
}

export function readConfig(app: App): PlatformConfig {
  const telemetryStore = optionalString(app, 'telemetryStore') ?? 'dynamodb';
  if (telemetryStore !== 'dynamodb' && telemetryStore !== 'timestream') {
    throw new Error(`Context telemetryStore must be "dynamodb" or "timestream", not "${telemetryStore}"`);
  }
  const appOrigin = optionalString(app, 'appOrigin');
  if (appOrigin && !/^https:\/\/[^/]+$/.test(appOrigin)) {
    throw new Error(`Context appOrigin must look like https://host (no trailing slash), not "${appOrigin}"`);
  }
  return {
    telemetryStore,
    appOrigin,
    mailFrom: sender(optionalString(app, 'mailFrom')),
    alarmEmail: alarmAddress(optionalString(app, 'alarmEmail')),
    iotLogLevel: logLevel(optionalString(app, 'iotLogLevel')),
    iotEndpoint: optionalString(app, 'iotEndpoint'),
    stackPrefix: optionalString(app, 'stackPrefix') ?? 'Argentum',
    region: optionalString(app, 'region') ?? process.env.CDK_DEFAULT_REGION ?? defaultRegion,
    account: process.env.CDK_DEFAULT_ACCOUNT,
    weatherCity: optionalString(app, 'weatherCity') ?? 'Toronto',
    weatherApiKey: optionalString(app, 'weatherApiKey'),
    telemetryBatchingWindowSeconds: batchingWindow(optionalString(app, 'telemetryBatchingWindow')),
    telemetryCapacity: capacityMode(optionalString(app, 'telemetryCapacity')),
    deviceIndexStep: indexStep(optionalString(app, 'deviceIndexStep')),
  };
}

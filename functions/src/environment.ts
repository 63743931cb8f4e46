import type { ThrottlePolicy } from './domain/auth/ports';

/**
 * The Lambda environment: the one place that names each variable the functions read (config.ts) and
 * builds it from the platform's settings. CDK (platform-function.ts) and the local stack
 * (infra/local/stack.ts) both build it here, so they cannot drift apart.
 */
export const ENV = {
  platformTable: 'PLATFORM_TABLE',
  telemetryTable: 'TELEMETRY_TABLE',
  filesBucket: 'FILES_BUCKET',
  /** The long-term archive of raw readings (gzipped JSON lines by organization and day). */
  archiveBucket: 'ARCHIVE_BUCKET',
  userPoolId: 'USER_POOL_ID',
  userPoolClientId: 'USER_POOL_CLIENT_ID',
  tokenIssuer: 'TOKEN_ISSUER',
  mailFrom: 'MAIL_FROM',
  appOrigin: 'APP_ORIGIN',
  telemetryStore: 'TELEMETRY_STORE',
  refreshTokenValidityDays: 'REFRESH_TOKEN_VALIDITY_DAYS',
  timestreamDatabase: 'TIMESTREAM_DATABASE',
  timestreamTable: 'TIMESTREAM_TABLE',
  s3ForcePathStyle: 'S3_FORCE_PATH_STYLE',
  cookieSecure: 'COOKIE_SECURE',
  accountId: 'AWS_ACCOUNT_ID',
  /** Only where mail jobs are queued (the auth Lambda). */
  mailQueueUrl: 'MAIL_QUEUE_URL',
  /** Only in the auth Lambda: the secret holding the private key that signs real-time connection tokens (PEM). */
  realtimeSigningSecretId: 'REALTIME_SIGNING_SECRET_ID',
  /**
   * Only in the functions that answer a plan's URL (floors, floor plans): the secret holding the
   * private key (PEM) that signs plan URLs, and the id of its public key in the distribution's key group.
   */
  planSigningSecretId: 'PLAN_SIGNING_SECRET_ID',
  planKeyPairId: 'PLAN_KEY_PAIR_ID',
  /** Only in the ingest Lambda: the Firehose stream of the archive of raw readings it feeds. */
  archiveStreamName: 'ARCHIVE_STREAM_NAME',
  /** Only in the vendor poller: the telemetry rule whose Basic Ingest topics it publishes readings to. */
  telemetryRuleName: 'TELEMETRY_RULE_NAME',
  /** Only in the ingest Lambda: where telemetry that cannot be stored goes, with its reason. */
  telemetryDeadLetterQueueUrl: 'TELEMETRY_DEAD_LETTER_QUEUE_URL',
  /** Only in the data Lambda: the city of the outdoor weather, and its provider's API key (if any). */
  weatherCity: 'WEATHER_CITY',
  weatherApiUrl: 'WEATHER_API_URL',
  weatherApiKey: 'WEATHER_API_KEY',
  /** Sign-in and reset-mail limits other than production's (JSON; the local test stack's short locks). */
  throttlePolicy: 'THROTTLE_POLICY',
  /** Only in the API functions: the value CloudFront's origin header carries (http/client-address.ts). */
  originSecret: 'ORIGIN_SECRET',
  /** Only on AWS, in the API functions: refuse requests without the origin secret ('true'). */
  originRequired: 'ORIGIN_REQUIRED',
  /** The one organization whose users may export every device's data ('All device Data'); none when unset. */
  allDeviceExportOrgId: 'ALL_DEVICE_EXPORT_ORG_ID',
  /** Only in the integrations function: the vendor secrets (ARNs or names) and, locally, the vendors' stand-ins. */
  ryseSecretId: 'RYSE_SECRET_ID',
  nestSecretId: 'NEST_SECRET_ID',
  ecobeeSecretId: 'ECOBEE_SECRET_ID',
  ryseApiUrl: 'RYSE_API_URL',
  nestApiUrl: 'NEST_API_URL',
  googleOauthUrl: 'GOOGLE_OAUTH_URL',
  ecobeeApiUrl: 'ECOBEE_API_URL',
  vendorTimeoutMs: 'VENDOR_TIMEOUT_MS',
  /** Read by the AWS SDK itself: the IoT data plane has an endpoint of the account's own. */
  iotDataEndpoint: 'AWS_ENDPOINT_URL_IOT_DATA_PLANE',
} as const;

export interface PlatformSettings {
  platformTableName: string;
  telemetryTableName: string;
  filesBucketName: string;
  /** The archive of raw readings older than the hot store keeps (read by exports). */
  archiveBucketName?: string | undefined;
  userPoolId: string;
  userPoolClientId: string;
  /** The user pool's URL, the issuer of its access tokens. */
  tokenIssuer: string;
  mailFrom: string;
  appOrigin: string;
  telemetryStore: 'dynamodb' | 'timestream';
  timestream?: { databaseName: string; tableName: string } | undefined;
  /** Lifetime of the refresh cookie: the user pool client's refresh-token validity. */
  refreshTokenValidityDays: number;
  /** URL of the account's IoT data endpoint. */
  iotDataEndpointUrl: string;
  accountId?: string | undefined;
  /** URL of the queue of mail jobs, for the functions that queue them. */
  mailQueueUrl?: string | undefined;
  /** URL of the telemetry dead-letter queue, for the ingest function. */
  telemetryDeadLetterQueueUrl?: string | undefined;
  /** The archive's Firehose stream, for the ingest function. */
  archiveStreamName?: string | undefined;
  /** The telemetry rule, for the vendor poller (it publishes readings to the rule's Basic Ingest topics). */
  telemetryRuleName?: string | undefined;
  /** The outdoor weather's city and provider (OpenWeatherMap's when not given), for the data function. */
  weather?: { city: string; apiUrl?: string | undefined; apiKey?: string | undefined } | undefined;
  /** Limits of the sign-in and reset-mail throttle; production's (`defaultThrottlePolicy`) when not set. */
  throttlePolicy?: ThrottlePolicy | undefined;
  /** The secret CloudFront adds to API requests, so the API believes the viewer address it sends. */
  originSecret?: string | undefined;
  /** Refuse API requests that lack the origin secret (AWS, where the execute-api endpoint is public). */
  originRequired?: boolean | undefined;
  /** The organization offered 'All device Data' in the export popover. */
  allDeviceExportOrgId?: string | undefined;
  /** The secret (ARN or name) holding the real-time connection token signing key (the auth Lambda). */
  realtimeSigningSecretId?: string | undefined;
  /** The plan URL signing key: its secret and its public key's id (the floors and floor plan Lambdas). */
  planSigning?: { secretId: string; keyPairId: string } | undefined;
  /** Only for the integrations function: vendor secrets and base URLs. */
  integrations?: IntegrationSettings | undefined;
}

/** The third-party clouds (integrations function only). */
export interface IntegrationSettings {
  /** The Secrets Manager secret (ARN or name) of each vendor's credentials. */
  secretIds: { ryse: string; nest: string; ecobee: string };
  /** Base URLs; the vendors' production APIs when not given (Ryse has none: its bridge's URL). */
  urls?: { ryse?: string; nest?: string; googleOauth?: string; ecobee?: string };
  /** Hard limit of one vendor request (ms); 5000 when not given. */
  timeoutMs?: number;
}

export function integrationEnvironment(settings: IntegrationSettings): Record<string, string> {
  const { urls = {} } = settings;
  return {
    [ENV.ryseSecretId]: settings.secretIds.ryse,
    [ENV.nestSecretId]: settings.secretIds.nest,
    [ENV.ecobeeSecretId]: settings.secretIds.ecobee,
    ...(urls.ryse ? { [ENV.ryseApiUrl]: urls.ryse } : {}),
    ...(urls.nest ? { [ENV.nestApiUrl]: urls.nest } : {}),
    ...(urls.googleOauth ? { [ENV.googleOauthUrl]: urls.googleOauth } : {}),
    ...(urls.ecobee ? { [ENV.ecobeeApiUrl]: urls.ecobee } : {}),
    ...(settings.timeoutMs ? { [ENV.vendorTimeoutMs]: String(settings.timeoutMs) } : {}),
  };
}

/** The settings only some functions get (a function's own queue, secrets, keys or providers). */
export type FunctionSettings = Pick<
  PlatformSettings,
  | 'mailQueueUrl'
  | 'realtimeSigningSecretId'
  | 'planSigning'
  | 'telemetryDeadLetterQueueUrl'
  | 'archiveStreamName'
  | 'telemetryRuleName'
  | 'weather'
  | 'originSecret'
  | 'originRequired'
  | 'integrations'
>;

/** The variables of the settings only some functions get (CDK adds them to those functions). */
export function functionEnvironment(settings: FunctionSettings): Record<string, string> {
  return {
    ...(settings.mailQueueUrl ? { [ENV.mailQueueUrl]: settings.mailQueueUrl } : {}),
    ...(settings.realtimeSigningSecretId
      ? { [ENV.realtimeSigningSecretId]: settings.realtimeSigningSecretId }
      : {}),
    ...(settings.planSigning
      ? {
          [ENV.planSigningSecretId]: settings.planSigning.secretId,
          [ENV.planKeyPairId]: settings.planSigning.keyPairId,
        }
      : {}),
    ...(settings.telemetryDeadLetterQueueUrl
      ? { [ENV.telemetryDeadLetterQueueUrl]: settings.telemetryDeadLetterQueueUrl }
      : {}),
    ...(settings.archiveStreamName ? { [ENV.archiveStreamName]: settings.archiveStreamName } : {}),
    ...(settings.telemetryRuleName ? { [ENV.telemetryRuleName]: settings.telemetryRuleName } : {}),
    ...(settings.weather
      ? {
          [ENV.weatherCity]: settings.weather.city,
          ...(settings.weather.apiUrl ? { [ENV.weatherApiUrl]: settings.weather.apiUrl } : {}),
          ...(settings.weather.apiKey ? { [ENV.weatherApiKey]: settings.weather.apiKey } : {}),
        }
      : {}),
    ...(settings.originSecret ? { [ENV.originSecret]: settings.originSecret } : {}),
    ...(settings.originRequired ? { [ENV.originRequired]: 'true' } : {}),
    ...(settings.integrations ? integrationEnvironment(settings.integrations) : {}),
  };
}

/** The environment every platform Lambda gets. */
export function lambdaEnvironment(settings: PlatformSettings): Record<string, string> {
  return {
    [ENV.platformTable]: settings.platformTableName,
    [ENV.telemetryTable]: settings.telemetryTableName,
    [ENV.filesBucket]: settings.filesBucketName,
    ...(settings.archiveBucketName ? { [ENV.archiveBucket]: settings.archiveBucketName } : {}),
    [ENV.userPoolId]: settings.userPoolId,
    [ENV.userPoolClientId]: settings.userPoolClientId,
    [ENV.tokenIssuer]: settings.tokenIssuer,
    [ENV.mailFrom]: settings.mailFrom,
    [ENV.appOrigin]: settings.appOrigin,
    [ENV.telemetryStore]: settings.telemetryStore,
    [ENV.refreshTokenValidityDays]: String(settings.refreshTokenValidityDays),
    [ENV.iotDataEndpoint]: settings.iotDataEndpointUrl,
    ...(settings.accountId ? { [ENV.accountId]: settings.accountId } : {}),
    ...functionEnvironment(settings),
    ...(settings.throttlePolicy ? { [ENV.throttlePolicy]: JSON.stringify(settings.throttlePolicy) } : {}),
    ...(settings.allDeviceExportOrgId ? { [ENV.allDeviceExportOrgId]: settings.allDeviceExportOrgId } : {}),
    ...(settings.timestream
      ? {
          [ENV.timestreamDatabase]: settings.timestream.databaseName,
          [ENV.timestreamTable]: settings.timestream.tableName,
        }
      : {}),
  };
}

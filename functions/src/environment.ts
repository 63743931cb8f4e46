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
  /** Read by the AWS SDK itself: the IoT data plane has an endpoint of the account's own. */
  iotDataEndpoint: 'AWS_ENDPOINT_URL_IOT_DATA_PLANE',
} as const;

export interface PlatformSettings {
  platformTableName: string;
  telemetryTableName: string;
  filesBucketName: string;
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
  /** The outdoor weather's city and provider, for the data function. */
  weather?: { city: string; apiUrl: string; apiKey?: string | undefined } | undefined;
  /** Limits of the sign-in and reset-mail throttle; production's (`defaultThrottlePolicy`) when not set. */
  throttlePolicy?: ThrottlePolicy | undefined;
  /** The secret CloudFront adds to API requests, so the API believes the viewer address it sends. */
  originSecret?: string | undefined;
}

/** The environment every platform Lambda gets. */
export function lambdaEnvironment(settings: PlatformSettings): Record<string, string> {
  return {
    [ENV.platformTable]: settings.platformTableName,
    [ENV.telemetryTable]: settings.telemetryTableName,
    [ENV.filesBucket]: settings.filesBucketName,
    [ENV.userPoolId]: settings.userPoolId,
    [ENV.userPoolClientId]: settings.userPoolClientId,
    [ENV.tokenIssuer]: settings.tokenIssuer,
    [ENV.mailFrom]: settings.mailFrom,
    [ENV.appOrigin]: settings.appOrigin,
    [ENV.telemetryStore]: settings.telemetryStore,
    [ENV.refreshTokenValidityDays]: String(settings.refreshTokenValidityDays),
    [ENV.iotDataEndpoint]: settings.iotDataEndpointUrl,
    ...(settings.accountId ? { [ENV.accountId]: settings.accountId } : {}),
    ...(settings.mailQueueUrl ? { [ENV.mailQueueUrl]: settings.mailQueueUrl } : {}),
    ...(settings.telemetryDeadLetterQueueUrl
      ? { [ENV.telemetryDeadLetterQueueUrl]: settings.telemetryDeadLetterQueueUrl }
      : {}),
    ...(settings.weather
      ? {
          [ENV.weatherCity]: settings.weather.city,
          [ENV.weatherApiUrl]: settings.weather.apiUrl,
          ...(settings.weather.apiKey ? { [ENV.weatherApiKey]: settings.weather.apiKey } : {}),
        }
      : {}),
    ...(settings.throttlePolicy ? { [ENV.throttlePolicy]: JSON.stringify(settings.throttlePolicy) } : {}),
    ...(settings.originSecret ? { [ENV.originSecret]: settings.originSecret } : {}),
    ...(settings.timestream
      ? {
          [ENV.timestreamDatabase]: settings.timestream.databaseName,
          [ENV.timestreamTable]: settings.timestream.tableName,
        }
      : {}),
  };
}

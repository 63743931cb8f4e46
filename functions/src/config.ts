import type { ThrottlePolicy } from './domain/auth/ports';
import { ENV } from './environment';

/**
 * Everything a handler learns from its environment, read in one place (the variables are named in
 * environment.ts). Endpoints are not here: the AWS SDK reads AWS_ENDPOINT_URL_<SERVICE> itself, so
 * the local stack only sets those variables.
 */
function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
}

/** The variables a platform Lambda cannot work without. */
const REQUIRED = [
  ENV.platformTable,
  ENV.telemetryTable,
  ENV.filesBucket,
  ENV.userPoolId,
  ENV.userPoolClientId,
  ENV.tokenIssuer,
] as const;

/**
 * Fails at once, naming every missing variable (the platform's, and `also` those an entry point needs
 * besides): each Lambda entry point calls it when it loads, so a misconfigured function fails its cold
 * start instead of the first request that needs the value. A malformed throttle policy fails too.
 */
export function assertConfigured(env: NodeJS.ProcessEnv = process.env, also: readonly string[] = []): void {
  const missing = [...REQUIRED, ...also].filter((name) => !env[name]);
  if (missing.length > 0) throw new Error(`Missing environment variables: ${missing.join(', ')}`);
  parseThrottlePolicy(env[ENV.throttlePolicy]);
}

const LIMIT_FIELDS = ['maxAttempts', 'windowSeconds', 'lockSeconds', 'maxLockSeconds'] as const;

const notAPolicy = (problem: string): never => {
  throw new Error(`${ENV.throttlePolicy} is not a throttle policy: ${problem}`);
};

/** The value as an object with exactly these keys, or the first problem thrown. */
function withKeys(value: unknown, keys: readonly string[], at: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return notAPolicy(`${at} is not an object`);
  const extra = Object.keys(value).filter((key) => !keys.includes(key));
  if (extra.length > 0) notAPolicy(`${at} has unknown keys ${extra.join(', ')}`);
  const missing = keys.find((key) => !(key in value));
  if (missing) notAPolicy(`${at}.${missing} is missing`);
  return value as Record<string, unknown>;
}

/**
 * A throttle policy from its variable (set by the local stack and tests; production's when unset).
 * Checked by hand, not with zod: every Lambda reads this module at cold start, and most need no zod.
 */
export function parseThrottlePolicy(value: string | undefined): ThrottlePolicy | undefined {
  if (!value) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    throw new Error(`${ENV.throttlePolicy} is not JSON`);
  }
  const policy = withKeys(json, ['signIn', 'resetMail'], 'policy');
  for (const kind of ['signIn', 'resetMail'] as const) {
    const perKey = withKeys(policy[kind], ['account', 'address'], kind);
    for (const key of ['account', 'address'] as const) {
      const limit = withKeys(perKey[key], LIMIT_FIELDS, `${kind}.${key}`);
      for (const field of LIMIT_FIELDS) {
        const n = limit[field];
        const integer = field === 'maxAttempts';
        if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))
          notAPolicy(`${kind}.${key}.${field} is not a positive ${integer ? 'integer' : 'number'}`);
      }
    }
  }
  return json as ThrottlePolicy;
}

export const config = {
  /** The secret holding the key that signs real-time connection tokens (the auth Lambda). */
  get realtimeSigningSecretId() {
    return required(ENV.realtimeSigningSecretId);
  },
  /** The secret holding the key that signs floor plan URLs, and its public key's id. */
  get planSigning() {
    return { secretId: required(ENV.planSigningSecretId), keyPairId: required(ENV.planKeyPairId) };
  },
  /** The organization offered 'All device Data' exports; undefined: none. */
  get allDeviceExportOrgId(): string | undefined {
    return process.env[ENV.allDeviceExportOrgId] || undefined;
  },
  get platformTable() {
    return required(ENV.platformTable);
  },
  get telemetryTable() {
    return required(ENV.telemetryTable);
  },
  get filesBucket() {
    return required(ENV.filesBucket);
  },
  /** The long-term archive of raw readings (exports of ranges older than the hot store). */
  get archiveBucket() {
    return required(ENV.archiveBucket);
  },
  /** The Firehose stream ingest sends accepted readings to (the archive's writer). */
  get archiveStreamName() {
    return required(ENV.archiveStreamName);
  },
  /** The telemetry rule: the vendor poller publishes readings to its Basic Ingest topics. */
  get telemetryRuleName() {
    return required(ENV.telemetryRuleName);
  },
  get userPoolId() {
    return required(ENV.userPoolId);
  },
  get userPoolClientId() {
    return required(ENV.userPoolClientId);
  },
  /** Issuer of the access tokens (the user pool's URL); used by the realtime authorizer. */
  get tokenIssuer() {
    return required(ENV.tokenIssuer);
  },
  /** Sender of platform e-mail (invites, password resets). */
  get mailFrom() {
    return process.env[ENV.mailFrom] ?? 'no-reply@example.com';
  },
  /** The queue of mail jobs (password-reset mail), consumed by the mailer Lambda. */
  get mailQueueUrl() {
    return required(ENV.mailQueueUrl);
  },
  /** The queue where telemetry that cannot be stored goes, with its reason (the ingest Lambda). */
  get telemetryDeadLetterQueueUrl() {
    return required(ENV.telemetryDeadLetterQueueUrl);
  },
  /** Which telemetry store the functions use: DynamoDB unless the deployment selected Timestream. */
  get telemetryStore(): 'dynamodb' | 'timestream' {
    return process.env[ENV.telemetryStore] === 'timestream' ? 'timestream' : 'dynamodb';
  },
  get timestreamDatabase() {
    return required(ENV.timestreamDatabase);
  },
  get timestreamTable() {
    return required(ENV.timestreamTable);
  },
  /** The city of the outdoor weather, and where its provider answers (OpenWeatherMap's API shape). */
  get weather() {
    return {
      city: process.env[ENV.weatherCity] ?? 'Toronto',
      apiUrl: process.env[ENV.weatherApiUrl] ?? 'https://api.openweathermap.org/data/2.5/weather',
      apiKey: process.env[ENV.weatherApiKey] || undefined,
    };
  },
  /** The secret of CloudFront's origin header; without it no viewer address is believed. */
  get originSecret(): string | undefined {
    return process.env[ENV.originSecret] || undefined;
  },
  /** Whether API requests without the origin secret are refused (on AWS; docs/deploy.md). */
  get originRequired(): boolean {
    return process.env[ENV.originRequired] === 'true';
  },
  /** Limits of the sign-in and reset-mail throttle, when they are not production's. */
  get throttlePolicy(): ThrottlePolicy | undefined {
    return parseThrottlePolicy(process.env[ENV.throttlePolicy]);
  },
  /** Public origin of the web app, for links in e-mail. */
  get appOrigin() {
    return process.env[ENV.appOrigin] ?? 'http://localhost:3000';
  },
  /** Path-style S3 addressing, needed by the local S3 emulator. */
  get s3ForcePathStyle() {
    return process.env[ENV.s3ForcePathStyle] === 'true';
  },
  /** Lifetime of the refresh cookie; matches the user pool client's refresh-token validity. */
  get refreshTokenValidityDays() {
    return Number(process.env[ENV.refreshTokenValidityDays] ?? '30');
  },
  /** The integrations function's vendor secrets, base URLs and request timeout. */
  get integrations() {
    return {
      secretIds: {
        ryse: required(ENV.ryseSecretId),
        nest: required(ENV.nestSecretId),
        ecobee: required(ENV.ecobeeSecretId),
      },
      ryseApiUrl: process.env[ENV.ryseApiUrl] || undefined,
      nestApiUrl: process.env[ENV.nestApiUrl] || undefined,
      googleOauthUrl: process.env[ENV.googleOauthUrl] || undefined,
      ecobeeApiUrl: process.env[ENV.ecobeeApiUrl] || undefined,
      timeoutMs: Number(process.env[ENV.vendorTimeoutMs] || 5000),
    };
  },
  /** Refresh cookies are Secure everywhere; browsers accept Secure cookies on http://localhost. */
  get cookieSecure() {
    return process.env[ENV.cookieSecure] !== 'false';
  },
};

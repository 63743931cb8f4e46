/**
 * Everything a handler learns from its environment, read in one place. Endpoints are not here: the
 * AWS SDK reads AWS_ENDPOINT_URL_<SERVICE> itself, so the local stack only sets those variables.
 */
function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
}

export const config = {
  get platformTable() {
    return required('PLATFORM_TABLE');
  },
  get telemetryTable() {
    return required('TELEMETRY_TABLE');
  },
  get filesBucket() {
    return required('FILES_BUCKET');
  },
  get userPoolId() {
    return required('USER_POOL_ID');
  },
  get userPoolClientId() {
    return required('USER_POOL_CLIENT_ID');
  },
  /** Issuer of the access tokens (the user pool's URL); used by the realtime authorizer. */
  get tokenIssuer() {
    return required('TOKEN_ISSUER');
  },
  /** Sender of platform e-mail (invites, password resets). */
  get mailFrom() {
    return process.env.MAIL_FROM ?? 'no-reply@example.com';
  },
  /** Public origin of the web app, for links in e-mail. */
  get appOrigin() {
    return process.env.APP_ORIGIN ?? 'http://localhost:3000';
  },
  /** Path-style S3 addressing, needed by the local S3 emulator. */
  get s3ForcePathStyle() {
    return process.env.S3_FORCE_PATH_STYLE === 'true';
  },
  /** Lifetime of the refresh cookie; matches the user pool client's refresh-token validity. */
  get refreshTokenValidityDays() {
    return Number(process.env.REFRESH_TOKEN_VALIDITY_DAYS ?? '30');
  },
  /** Refresh cookies are Secure everywhere; browsers accept Secure cookies on http://localhost. */
  get cookieSecure() {
    return process.env.COOKIE_SECURE !== 'false';
  },
};

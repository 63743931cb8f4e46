/** Accounts: identity, mail, invite and reset tokens, throttling. */
import { poolAccessTokens } from '../../adapters/access-token';
import { identity } from '../../adapters/identity';
import { sqsMailQueue } from '../../adapters/job-queue';
import { mail } from '../../adapters/mail';
import { config } from '../../config';
import { defaultThrottlePolicy } from '../../domain/auth/throttle';
import { dynamoAccountTokenStore } from '../../stores/account-tokens';
import { dynamoAlarmMailLedger, dynamoAlarmMailRate } from '../../stores/alarms';
import { dynamoAttemptCounter } from '../../stores/attempts';
import { dynamoNotificationStore } from '../../stores/notifications';
import { dynamoTreeStore } from '../../stores/tree';
import { clock, users } from './core';
import { realtimeRevocation } from './realtime';
import { secretKeySigner } from '../../adapters/connection-token-signer';
import { secretsManagerStore } from '../../adapters/vendors/secrets';

/** Signs real-time connection tokens with the key in its secret (read once per warm Lambda). */
const realtimeTokenSigner = secretKeySigner(
  secretsManagerStore(async () => (await import('../../aws/secrets-manager')).secretsManager(), clock),
  () => config.realtimeSigningSecretId,
);

/** The names of organizations that exist (deleted ones are left out). */
export const organizations = {
  async namesOf(orgIds: readonly string[]) {
    const { trees } = await dynamoTreeStore.readOrganizationTrees(orgIds);
    return new Map(trees.map((t) => [t.org.orgId, t.org.orgName]));
  },
};

export const accountPorts = () => ({
  users,
  identity,
  mailer: mail,
  tokens: dynamoAccountTokenStore,
  clock,
  settings: { appOrigin: config.appOrigin },
  realtime: realtimeRevocation,
  organizations,
  accessTokens: poolAccessTokens,
  signer: realtimeTokenSigner,
  cookies: { refreshTokenValidityDays: config.refreshTokenValidityDays, secure: config.cookieSecure },
  attempts: dynamoAttemptCounter,
  throttlePolicy: config.throttlePolicy ?? defaultThrottlePolicy,
  mailJobs: sqsMailQueue,
});

/** What the mailer (lambda/mailer.ts) needs to work off mail jobs. */
export const mailerPorts = () => ({
  users,
  tokens: dynamoAccountTokenStore,
  mailer: mail,
  clock,
  settings: { appOrigin: config.appOrigin },
  notifications: dynamoNotificationStore,
  alarmMails: dynamoAlarmMailLedger,
  alarmMailRate: dynamoAlarmMailRate,
  organizations,
});

export { identity };

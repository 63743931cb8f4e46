/** Accounts: identity, mail, invite and reset tokens, throttling. */
import { sqsMailQueue } from '../../adapters/job-queue';
import { mail } from '../../adapters/mail';
import { config } from '../../config';
import type { Identity } from '../../domain/auth/ports';
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
const realtimeTokenSigner = secretKeySigner(secretsManagerStore(clock), () => config.realtimeSigningSecretId);

let loadedIdentity: Promise<Identity> | undefined;
const loadIdentity = () => (loadedIdentity ??= import('../../adapters/identity').then((m) => m.identity));

/**
 * Cognito (adapters/identity.ts and its SDK client), read on first use. The users Lambda needs it only
 * to delete a user and the mailer never. The auth Lambda needs it for sign-in, refresh, sign-out,
 * registration and passwords, not for the real-time token, the theme, the user name or an invite
 * lookup: a cold start serving one of those does not load it; one serving sign-in or refresh loads it
 * with its first request, so that call's cold start costs what it did, not less.
 */
export const identityOnFirstUse: Identity = {
  signIn: async (...args) => (await loadIdentity()).signIn(...args),
  refresh: async (...args) => (await loadIdentity()).refresh(...args),
  revoke: async (...args) => (await loadIdentity()).revoke(...args),
  signOutEverywhere: async (...args) => (await loadIdentity()).signOutEverywhere(...args),
  verifyPassword: async (...args) => (await loadIdentity()).verifyPassword(...args),
  subjectOfEmail: async (...args) => (await loadIdentity()).subjectOfEmail(...args),
  createUser: async (...args) => (await loadIdentity()).createUser(...args),
  setPassword: async (...args) => (await loadIdentity()).setPassword(...args),
  deleteUser: async (...args) => (await loadIdentity()).deleteUser(...args),
  passwordPolicy: async () => (await loadIdentity()).passwordPolicy(),
};

/**
 * The names of organizations that exist (deleted ones are left out). The mailer's role may not write
 * the table: an organization without its summary is read, and its summary left to readers that may.
 */
export const organizations = {
  async namesOf(orgIds: readonly string[]) {
    const { trees } = await dynamoTreeStore.readOrganizationTrees(orgIds, { rebuild: false });
    return new Map(trees.map((t) => [t.org.orgId, t.org.orgName]));
  },
};

export const accountPorts = (identity: Identity = identityOnFirstUse) => ({
  users,
  identity,
  mailer: mail,
  tokens: dynamoAccountTokenStore,
  clock,
  settings: { appOrigin: config.appOrigin },
  realtime: realtimeRevocation,
  organizations,
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

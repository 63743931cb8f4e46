/**
 * The adapters the Lambda entry points wire into the domain's ports. Each entry point (the composition
 * root of its Lambda) picks what its routes need; an adapter's AWS client is created on first use.
 */
import { poolAccessTokens } from '../adapters/access-token';
import { identity } from '../adapters/identity';
import { sqsMailQueue } from '../adapters/job-queue';
import { mail } from '../adapters/mail';
import { assertConfigured, config } from '../config';
import { defaultThrottlePolicy } from '../domain/auth/throttle';
import type { Clock, Logger } from '../domain/ports';
import { systemClock } from '../domain/ports';
import { log } from '../http/log';
import { dynamoAccountTokenStore } from '../stores/account-tokens';
import { dynamoAttemptCounter } from '../stores/attempts';
import { dynamoDevices } from '../stores/devices';
import { s3FileStore } from '../stores/files';
import { dynamoTreeStore } from '../stores/tree';
import { dynamoUserStore } from '../stores/users';
import { iotConnectionCloser } from '../adapters/iot-connections';
import { revokeRealtimeAccess } from '../domain/realtime/revocation';
import { leaveOrganization } from '../domain/users/membership';
import { dynamoConnectionRegistry } from '../stores/connections';

// A misconfigured function fails its cold start, naming what is missing.
assertConfigured();

export const clock: Clock = systemClock;
export const logger: Logger = { log };

export const users = dynamoUserStore;
export const tree = dynamoTreeStore;
export const connections = dynamoConnectionRegistry;

/** Closes a user's open real-time connections to organizations whose access they lose. */
export const realtimeRevocation = {
  revoke: (userId: string, orgIds: readonly string[]) =>
    revokeRealtimeAccess({ connections, broker: iotConnectionCloser, clock, logger }, userId, orgIds),
};

/** The files bucket: logos, their uploads and floor plans. */
export const files = s3FileStore;

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
});

export const sweepPorts = () => ({
  tree,
  devices: dynamoDevices,
  files,
  members: {
    memberIds: (orgId: string) => users.memberIds(orgId),
    leaveOrganization: (userId: string, orgId: string) =>
      leaveOrganization({ users, clock, realtime: realtimeRevocation }, userId, orgId),
  },
  clock,
  logger,
});

export { identity };

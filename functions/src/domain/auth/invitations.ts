import { randomUUID } from 'node:crypto';
import { identity } from '../../adapters/identity';
import { mail } from '../../adapters/mail';
import { config } from '../../config';
import {
  type AccountTokenRecord,
  claimAccountToken,
  getAccountToken,
  putAccountToken,
  releaseAccountToken,
} from '../../stores/account-tokens';
import { getOrganizationTrees } from '../../stores/tree';
import { findUserByEmail, getUser, putUser } from '../../stores/users';
import { conflict, DomainError, forbidden, notFound, validationError } from '../errors';
import { Role } from '@argentum/events/contracts';
import { type AuthUser, normalizeEmail, type UserRecord } from '../users/user';
import { inviteMail } from './mail-templates';
import {
  EMAIL_NOT_INVITED,
  EXISTING_ACCOUNT_PASSWORD_WRONG,
  INVITE_LINK_EXPIRED,
  RESET_LINK_EXPIRED,
  USER_ALREADY_EXISTS,
} from './messages';
import { assertAcceptablePassword, withPasswordPolicy } from './password-policy';
import { epochSeconds, hashToken, INVITE_VALIDITY_SECONDS, newToken } from './tokens';

export const linkExpired = (message = INVITE_LINK_EXPIRED) => new DomainError('gone', message);

/** Whether a stored token can still be used at `now`. */
export const isUsable = (record: AccountTokenRecord, now: Date) =>
  record.usedAt === undefined && record.expiresAt > epochSeconds(now);

/**
 * An admin invites an e-mail address to organizations the admin belongs to. The invitee receives a
 * single-use link valid for 7 days; only the token's hash is stored.
 */
export async function inviteUser(
  admin: AuthUser,
  input: { email: string; organizationIds: readonly string[] },
  now = new Date(),
): Promise<void> {
  const email = normalizeEmail(input.email);
  const orgIds = [...new Set(input.organizationIds)];
  if (orgIds.length === 0) throw validationError('Please select at least one organization.');
  if (orgIds.some((orgId) => !admin.orgIds.includes(orgId))) throw forbidden();

  const trees = await getOrganizationTrees(orgIds);
  const names = new Map(trees.map((tree) => [tree.org.orgId, tree.org.orgName]));
  if (orgIds.some((orgId) => !names.has(orgId))) throw notFound('Organization not found.');

  const existing = await findUserByEmail(email);
  if (existing && orgIds.some((orgId) => existing.orgIds.includes(orgId)))
    throw conflict(USER_ALREADY_EXISTS);

  const token = newToken();
  const orgNames = orgIds.map((orgId) => names.get(orgId) ?? orgId);
  await putAccountToken({
    tokenHash: hashToken(token),
    kind: 'invite',
    email,
    orgIds,
    orgNames,
    createdBy: admin.userId,
    createdAt: now.toISOString(),
    expiresAt: epochSeconds(now) + INVITE_VALIDITY_SECONDS,
  });
  await mail.send(
    inviteMail({
      to: email,
      organizationNames: orgNames,
      link: `${config.appOrigin}/register/${encodeURIComponent(token)}`,
      validDays: INVITE_VALIDITY_SECONDS / 86_400,
    }),
  );
}

/** What the registration (or reset) screen learns from its link (specification: token lookup result). */
export interface TokenLookup {
  email: string;
  organizationId: string[];
  organizationName: string;
}

/** Looks up an invite or reset token; an unknown, used or expired one is gone (410). */
export async function lookUpToken(token: string, now = new Date()): Promise<TokenLookup> {
  const record = await getAccountToken(hashToken(token));
  if (!record || !isUsable(record, now)) {
    throw linkExpired(record?.kind === 'reset' ? RESET_LINK_EXPIRED : undefined);
  }
  return { email: record.email, organizationId: record.orgIds, organizationName: record.orgNames.join(', ') };
}

export interface Registration {
  token: string;
  userName: string;
  email: string;
  password: string;
}

/**
 * Registers an invitee: creates the identity and the user record (read-only, in the invited
 * organizations, which come from the token and never from the client), consuming the token. The token
 * is claimed atomically first, so a reused or concurrently used token is refused; if the registration
 * then fails, the claim is given back so the link can be tried again.
 * An e-mail that already has an account accepts the invitation with that account's password instead.
 */
export async function registerInvitedUser(input: Registration, now = new Date()): Promise<UserRecord> {
  const tokenHash = hashToken(input.token);
  const record = await getAccountToken(tokenHash);
  if (!record || !isUsable(record, now) || record.kind !== 'invite') throw linkExpired();
  const email = record.email;
  if (normalizeEmail(input.email) !== email) throw validationError(EMAIL_NOT_INVITED);

  const existing = await findUserByEmail(email);
  if (!existing) await assertAcceptablePassword(input.password);

  const claimId = randomUUID();
  const claimed = await claimAccountToken(tokenHash, 'invite', claimId, now);
  if (!claimed) throw linkExpired();
  try {
    return existing
      ? await joinOrganizations(existing, input.password, claimed.orgIds, now)
      : await createAccount(email, input.userName.trim(), input.password, claimed.orgIds, now);
  } catch (error) {
    await releaseAccountToken(tokenHash, claimId);
    throw error;
  }
}

async function createAccount(
  email: string,
  userName: string,
  password: string,
  orgIds: string[],
  now: Date,
): Promise<UserRecord> {
  let subject = await withPasswordPolicy(() => identity.createUser(email, password));
  if (!subject) {
    // An identity without a platform user (one whose record was deleted): the invite revives it.
    await withPasswordPolicy(() => identity.setPassword(email, password));
    subject = await identity.subjectOfEmail(email);
    if (!subject) throw new Error('The identity store lost an identity during registration');
  }
  const user: UserRecord = {
    userId: subject,
    email,
    userName,
    role: Role.readOnly,
    orgIds,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    // A revived identity's earlier sessions (from before its deletion) do not come back with it.
    sessionsValidAfter: epochSeconds(now),
  };
  await putUser(user);
  return user;
}

async function joinOrganizations(
  existing: UserRecord,
  password: string,
  orgIds: string[],
  now: Date,
): Promise<UserRecord> {
  if (!(await identity.verifyPassword(existing.email, password))) {
    throw validationError(EXISTING_ACCOUNT_PASSWORD_WRONG);
  }
  // The e-mail index is eventually consistent: decide on the record itself.
  const current = await getUser(existing.userId);
  if (!current) throw linkExpired();
  const next: UserRecord = {
    ...current,
    orgIds: [...new Set([...current.orgIds, ...orgIds])],
    updatedAt: now.toISOString(),
  };
  await putUser(next);
  return next;
}

import { randomUUID } from 'node:crypto';
import { checkName, hasRole, Role, type RoleNumber } from '@argentum/contracts';
import { conflict, DomainError, forbidden, notFound, validationError } from '../errors';
import { nextVersionOf, updateUser } from '../users/update';
import { type AuthUser, normalizeEmail, type UserRecord } from '../users/user';
import { inviteMail } from './mail-templates';
import {
  EMAIL_NOT_INVITED,
  EXISTING_ACCOUNT_PASSWORD_WRONG,
  INVITE_LINK_EXPIRED,
  RESET_LINK_EXPIRED,
  USER_ALREADY_EXISTS,
  USERNAME_EMPTY,
} from './texts';
import { assertAcceptablePassword, withPasswordPolicy } from './password-policy';
import type { AccountPorts, AccountTokenRecord } from './ports';
import { throttledPasswordVerify } from './throttle';
import { epochSeconds, hashToken, INVITE_VALIDITY_SECONDS, newToken } from './tokens';

export const ORGANIZATION_NOT_FOUND = 'Organization not found.';

/** What invitations need besides the accounts ports: the names of organizations that still exist. */
export interface InvitationPorts extends AccountPorts {
  organizations: { namesOf(orgIds: readonly string[]): Promise<Map<string, string>> };
}

export const linkExpired = (message = INVITE_LINK_EXPIRED) => new DomainError('gone', message);

/** Whether a stored token can still be used at `now`. */
export const isUsable = (record: AccountTokenRecord, now: Date) =>
  record.usedAt === undefined && record.expiresAt > epochSeconds(now);

/**
 * An admin invites an e-mail address to organizations the admin belongs to. The invitee receives a
 * single-use link valid for 7 days; only the token's hash is stored.
 */
export async function inviteUser(
  deps: InvitationPorts,
  admin: AuthUser,
  input: { email: string; organizationIds: readonly string[] },
): Promise<void> {
  const now = deps.clock.now();
  const email = normalizeEmail(input.email);
  const orgIds = [...new Set(input.organizationIds)];
  if (orgIds.length === 0) throw validationError('Please select at least one organization.');
  // An organization the admin is not in is answered like one that does not exist.
  if (orgIds.some((orgId) => !hasRole(admin.orgRoles, orgId, Role.readOnly)))
    throw notFound(ORGANIZATION_NOT_FOUND);
  if (orgIds.some((orgId) => !hasRole(admin.orgRoles, orgId, Role.admin))) throw forbidden();

  const names = await deps.organizations.namesOf(orgIds);
  if (orgIds.some((orgId) => !names.has(orgId))) throw notFound(ORGANIZATION_NOT_FOUND);

  const existing = await deps.users.findByEmail(email);
  if (existing && orgIds.some((orgId) => Object.hasOwn(existing.orgRoles, orgId)))
    throw conflict(USER_ALREADY_EXISTS);

  const token = newToken();
  const orgNames = orgIds.map((orgId) => names.get(orgId) ?? orgId);
  await deps.tokens.put({
    tokenHash: hashToken(token),
    kind: 'invite',
    email,
    orgIds,
    orgNames,
    createdBy: admin.userId,
    createdAt: now.toISOString(),
    expiresAt: epochSeconds(now) + INVITE_VALIDITY_SECONDS,
  });
  await deps.mailer.send(
    inviteMail({
      to: email,
      organizationNames: orgNames,
      link: `${deps.settings.appOrigin}/register/${encodeURIComponent(token)}`,
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

/**
 * An invite is void when any organization it names was deleted since, or when its sender no longer
 * administers one of them: whoever sent it has lost the right to let people in there.
 */
async function assertInviteStillValid(deps: InvitationPorts, record: AccountTokenRecord): Promise<void> {
  if (record.kind !== 'invite') return;
  const sender = record.createdBy ? await deps.users.get(record.createdBy) : undefined;
  if (!sender || record.orgIds.some((orgId) => !hasRole(sender.orgRoles, orgId, Role.admin)))
    throw linkExpired();
  const names = await deps.organizations.namesOf(record.orgIds);
  if (record.orgIds.some((orgId) => !names.has(orgId))) throw linkExpired();
}

/** Looks up an invite or reset token; an unknown, used, expired or void one is gone (410). */
export async function lookUpToken(deps: InvitationPorts, token: string): Promise<TokenLookup> {
  const record = await deps.tokens.get(hashToken(token));
  if (!record || !isUsable(record, deps.clock.now())) {
    throw linkExpired(record?.kind === 'reset' ? RESET_LINK_EXPIRED : undefined);
  }
  await assertInviteStillValid(deps, record);
  return { email: record.email, organizationId: record.orgIds, organizationName: record.orgNames.join(', ') };
}

export interface Registration {
  token: string;
  userName: string;
  email: string;
  password: string;
  /** The client's address: an existing account's password check is throttled like a sign-in. */
  address: string;
}

/**
 * Registers an invitee: creates the identity and the user record (read-only, in the invited
 * organizations, which come from the token and never from the client), consuming the token. The token
 * is claimed atomically first, so a reused or concurrently used token is refused; if the registration
 * then fails, the claim is given back so the link can be tried again.
 * An e-mail that already has an account accepts the invitation with that account's password instead.
 */
export async function registerInvitedUser(deps: InvitationPorts, input: Registration): Promise<UserRecord> {
  const now = deps.clock.now();
  const tokenHash = hashToken(input.token);
  const record = await deps.tokens.get(tokenHash);
  if (!record || !isUsable(record, now) || record.kind !== 'invite') throw linkExpired();
  await assertInviteStillValid(deps, record);
  const email = record.email;
  if (normalizeEmail(input.email) !== email) throw validationError(EMAIL_NOT_INVITED);

  const existing = await deps.users.findByEmail(email);
  if (!existing) await assertAcceptablePassword(deps, input.password);

  const claimId = randomUUID();
  const claimed = await deps.tokens.claim(tokenHash, 'invite', claimId, now);
  if (!claimed) throw linkExpired();
  try {
    return existing
      ? await joinOrganizations(deps, existing, input, claimed.orgIds, now)
      : await createAccount(deps, email, input.userName, input.password, claimed.orgIds, now);
  } catch (error) {
    await deps.tokens.release(tokenHash, claimId);
    throw error;
  }
}

/** Invitees join read-only; an admin raises their role afterwards. */
const INVITED_ROLE: RoleNumber = Role.readOnly;

async function createAccount(
  deps: InvitationPorts,
  email: string,
  userNameInput: string,
  password: string,
  orgIds: string[],
  now: Date,
): Promise<UserRecord> {
  const checked = checkName(userNameInput);
  if (!checked.ok) throw validationError(checked.reason === 'empty' ? USERNAME_EMPTY : checked.reason);
  let subject = await withPasswordPolicy(() => deps.identity.createUser(email, password));
  if (!subject) {
    // An identity without a platform user (one whose record was deleted): the invite revives it.
    await withPasswordPolicy(() => deps.identity.setPassword(email, password));
    subject = await deps.identity.subjectOfEmail(email);
    if (!subject) throw new Error('The identity store lost an identity during registration');
  }
  const user: UserRecord = {
    userId: subject,
    email,
    userName: checked.name,
    orgRoles: Object.fromEntries(orgIds.map((orgId) => [orgId, INVITED_ROLE])),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    version: 1,
    // A revived identity's earlier sessions (from before its deletion) do not come back with it.
    sessionsValidAfter: epochSeconds(now) - 1,
  };
  if ((await deps.users.saveIfUnchanged(user, undefined)) === 'changed-meanwhile') throw linkExpired();
  return user;
}

async function joinOrganizations(
  deps: InvitationPorts,
  existing: UserRecord,
  { password, address }: Pick<Registration, 'password' | 'address'>,
  orgIds: string[],
  now: Date,
): Promise<UserRecord> {
  const right = await throttledPasswordVerify(deps, { email: existing.email, address }, () =>
    deps.identity.verifyPassword(existing.email, password),
  );
  if (!right) throw validationError(EXISTING_ACCOUNT_PASSWORD_WRONG);
  // The e-mail index is eventually consistent: decide on the record itself. Roles the user already
  // has in an organization stay as they are.
  const joined = await updateUser(deps.users, existing.userId, (current) =>
    nextVersionOf(
      current,
      {
        orgRoles: {
          ...Object.fromEntries(orgIds.map((orgId) => [orgId, INVITED_ROLE])),
          ...current.orgRoles,
        },
      },
      now,
    ),
  );
  if (!joined) throw linkExpired();
  return joined;
}

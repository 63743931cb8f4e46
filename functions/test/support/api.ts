import { randomUUID } from 'node:crypto';
import { inject, vi } from 'vitest';
import type { BuildingView, FloorView, OrgRoles, RoleNumber } from '@argentum/contracts';
import { type CapturedMail, readMailbox } from '../../../infra/local/ses-capture';
import { identity } from '../../src/adapters/identity';
import { systemClock } from '../../src/domain/ports';
import { createPlatformUser } from '../../src/domain/users/create-user';
import { dynamoTreeStore } from '../../src/stores/tree';
import { dynamoUserStore } from '../../src/stores/users';
import { checkAnswer } from './contract';
import './provided';

export const stack = inject('stack');

export interface CallResult<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * Calls the local API exactly as the browser does: HTTP through the API Gateway emulation. Every
 * answer of a call of the contract is checked against its schema (support/contract.ts).
 */
export async function call<T = Record<string, unknown>>(
  path: string,
  body: unknown = {},
  options: {
    token?: string;
    cookie?: string;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    raw?: string;
  } = {},
): Promise<CallResult<T>> {
  const method = options.method ?? 'POST';
  const response = await fetch(`${stack.url}${path}`, {
    method,
    headers: {
      ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...options.headers,
    },
    ...(method === 'POST' ? { body: options.raw ?? JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  const parsed: unknown = text ? JSON.parse(text) : {};
  checkAnswer(method, path, response.status, parsed);
  return { status: response.status, body: parsed as T, headers: response.headers };
}

/** The refresh cookie a response set, as a Cookie request header value. */
export function refreshCookieOf(headers: Headers): string | undefined {
  const cookie = headers.getSetCookie().find((c) => c.startsWith('refreshToken='));
  return cookie?.split(';')[0];
}

export interface SignedIn {
  accessToken: string;
  cookie: string;
  user: { id: string; userName: string; email: string; roles: number; org: string[]; theme: string };
}

export async function signIn(email: string, password = stack.demoPassword): Promise<SignedIn> {
  const result = await call<SignedIn>('/api/login', { user: { email, password } });
  if (result.status !== 200)
    throw new Error(`Sign-in of ${email} failed: ${result.status} ${JSON.stringify(result.body)}`);
  const cookie = refreshCookieOf(result.headers);
  if (!cookie) throw new Error('No refresh cookie');
  return { ...result.body, cookie };
}

export interface TestUser {
  userId: string;
  email: string;
  password: string;
}

/**
 * Gives a user a fresh organization of their own (named `name`, no buildings) with `role` in it,
 * as if they had created it: an admin needs a membership with role 2 or more somewhere to create
 * organizations. Answers its id.
 */
export async function createOwnOrganization(
  userId: string,
  role: RoleNumber,
  name = 'Home Org',
): Promise<string> {
  const orgId = randomUUID();
  const outcome = await dynamoTreeStore.createOrganization(
    { orgId, orgName: name, version: 0 },
    { userId, role },
    new Date().toISOString(),
  );
  if (outcome !== 'created') throw new Error(`Organization not created: ${outcome}`);
  return orgId;
}

/** The user store the handlers use (DynamoDB Local), for tests that look at records directly. */
export const users = dynamoUserStore;

/** A user's organization ids, sorted. */
export const orgIdsOf = async (userId: string) =>
  Object.keys((await users.get(userId))?.orgRoles ?? {}).sort();

/**
 * A fresh platform user (Cognito identity plus user record), so tests never share mutable users:
 * `role` in each of `orgIds`, or the roles of `orgRoles` when that is given instead.
 */
export async function createUser(
  role: RoleNumber | OrgRoles,
  orgIds: string[] = [],
  userName = 'Test User',
): Promise<TestUser> {
  const email = `test-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'Test-Passw0rd!';
  const orgRoles: OrgRoles =
    typeof role === 'number' ? Object.fromEntries(orgIds.map((orgId) => [orgId, role])) : role;
  const { userId } = await createPlatformUser(
    { users: dynamoUserStore, identity, clock: systemClock },
    { email, password, userName, orgRoles },
  );
  return { userId, email, password };
}

/** The identity of a test user, for `signIn`. */
export const signInAs = (user: TestUser) => signIn(user.email, user.password);

/** Mail captured so far to this address, newest first. */
export function mailsTo(email: string): Promise<CapturedMail[]> {
  // Another test file's mail may be half written: read again until the mailbox parses.
  return vi.waitFor(() => readMailbox(stack.mailDir).filter((m) => m.to.includes(email)), {
    timeout: 5_000,
    interval: 50,
  });
}

/** Waits until `count` mails to this address have been captured, and answers the newest. */
export function waitForMail(email: string, count = 1): Promise<CapturedMail> {
  return vi.waitFor(
    () => {
      const mails = readMailbox(stack.mailDir).filter((m) => m.to.includes(email));
      const [newest] = mails;
      if (!newest || mails.length < count)
        throw new Error(`${mails.length} of ${count} mail(s) to ${email} captured`);
      return newest;
    },
    { timeout: 15_000, interval: 100 },
  );
}

/** The account link (`/register/<token>` or `/forgetPassword/<token>`) a mail carries in its text. */
export function linkIn(
  mail: CapturedMail,
  route: 'register' | 'forgetPassword',
): { url: string; token: string } {
  const match = new RegExp(`(\\S+/${route}/([A-Za-z0-9_-]+))`).exec(mail.text ?? '');
  if (!match?.[1] || !match[2]) throw new Error(`No ${route} link in ${mail.text}`);
  return { url: match[1], token: match[2] };
}

/** A call that must succeed: its body, or an error naming the path, the status and the answer. */
export async function callOk<T>(token: string, path: string, body: Record<string, unknown>): Promise<T> {
  const result = await call<T>(path, body, { token });
  if (result.status >= 300) throw new Error(`${path}: ${result.status} ${JSON.stringify(result.body)}`);
  return result.body;
}

export interface AdminFloor {
  orgId: string;
  buildId: string;
  floorId: string;
  userId: string;
  token: string;
}

/** A fresh organization with one building and one floor, made through the API by its admin. */
export async function newAdminFloor(label: string): Promise<AdminFloor> {
  const admin = await createUser(2, [], `${label} Admin`);
  const orgId = await createOwnOrganization(admin.userId, 2, `${label} Org`);
  const token = (await signInAs(admin)).accessToken;
  const { building } = await callOk<{ building: BuildingView }>(
    token,
    '/api/dashboard/createOrUpdateOrgBuild',
    {
      orgID: orgId,
      buildName: `${label} Building`,
    },
  );
  const { floor } = await callOk<{ floor: FloorView }>(token, '/api/dashboard/createOrUpdateFloor', {
    buildID: building._id,
    floorName: 'Level 1',
  });
  return { orgId, buildId: building._id, floorId: floor._id, userId: admin.userId, token };
}

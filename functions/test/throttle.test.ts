import { randomInt, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { tooManyAttemptsText } from '@argentum/contracts';
import type { Limit, ThrottlePorts } from '../src/domain/auth/ports';
import { throttledPasswordCheck } from '../src/domain/auth/throttle';
import { unauthenticated } from '../src/domain/errors';
import { systemClock } from '../src/domain/ports';
import { ORIGIN_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from '../src/http/client-address';
import { dynamoAttemptCounter } from '../src/stores/attempts';
import {
  call,
  type CallResult,
  createUser,
  linkIn,
  mailsTo,
  signInAs,
  stack,
  waitForMail,
} from './support/api';

const SIGN_IN_FAILED = 'The password and/or email entered is incorrect. Please try again';
const RESET_MAIL_SENT = 'Please check your email. Forget password Link has been sent.';
const WRONG = 'Wrong-Passw0rd!';
const policy = stack.throttlePolicy;

const freshEmail = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
const login = (email: string, password: string) => call('/api/login', { user: { email, password } });
const forgot = (email: string) => call('/api/dashboard/forgetPasswordEmail', { user: { email } });

const retryAfter = (result: CallResult) => Number(result.headers.get('retry-after'));

/** A 429 as the API answers it: the wait in Retry-After and, in words, in the message. */
function expectTooMany(result: CallResult, maxSeconds: number) {
  expect(result.status).toBe(429);
  const wait = retryAfter(result);
  expect(Number.isInteger(wait)).toBe(true);
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(maxSeconds);
  expect(result.body).toEqual({ message: tooManyAttemptsText(wait) });
  return wait;
}

/** Calls until the answer is no 429 (a refused call is not counted), within `seconds`. */
async function whenUnlocked(attempt: () => Promise<CallResult>, seconds: number): Promise<CallResult> {
  const deadline = Date.now() + seconds * 1000 + 5000;
  for (;;) {
    const result = await attempt();
    if (result.status !== 429 || Date.now() > deadline) return result;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const accountKey = (email: string) => ({ kind: 'sign-in:account', subject: email });

const addressCount = async (subject: string) =>
  (await dynamoAttemptCounter.read({ kind: 'sign-in:address', subject }, new Date()))?.count ?? 0;

/**
 * A loopback address of a test's own: every other request of the run comes from 127.0.0.1, so only
 * that test's requests count against it, even with other files running side by side.
 */
const ownLoopbackAddress = () => `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

/** A sign-in sent from `localAddress` (the API sees it as the client's address); answers the status. */
function loginFrom(
  localAddress: string,
  credentials: { email: string; password: string },
  headers: Record<string, string> = {},
): Promise<number> {
  const url = new URL('/api/login', stack.url);
  const body = JSON.stringify({ user: credentials });
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      { method: 'POST', localAddress, headers: { 'content-type': 'application/json', ...headers } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

describe('sign-in throttling per account', () => {
  it('refuses the 6th attempt after 5 failures with 429 and Retry-After, even with the right password', async () => {
    const { account } = policy.signIn;
    const user = await createUser(0, ['org-demo']);
    for (let i = 0; i < account.maxAttempts; i++) {
      expect(await login(user.email, WRONG)).toMatchObject({
        status: 401,
        body: { message: SIGN_IN_FAILED },
      });
    }
    // The account is the normalized e-mail.
    expectTooMany(await login(`  ${user.email.toUpperCase()} `, WRONG), account.lockSeconds);
    // No oracle: the right password gets the same answer while the lock lasts.
    const locked = await login(user.email, user.password);
    expectTooMany(locked, account.lockSeconds);
    expect(locked.headers.getSetCookie()).toEqual([]);

    // Refused attempts were not counted; when the lock has passed, the right password signs in ...
    const after = await whenUnlocked(() => login(user.email, user.password), account.lockSeconds);
    expect(after.status).toBe(200);
    // ... and clears the account's count: the next failure is the first again.
    expect(await dynamoAttemptCounter.read(accountKey(user.email), new Date())).toBeUndefined();
    expect((await login(user.email, WRONG)).status).toBe(401);
    expect(await dynamoAttemptCounter.read(accountKey(user.email), new Date())).toMatchObject({ count: 1 });
  });

  it('doubles the lock with every failure after it, up to the ceiling', async () => {
    const { account } = policy.signIn;
    const user = await createUser(0, ['org-demo']);
    for (let i = 0; i < account.maxAttempts; i++) expect((await login(user.email, WRONG)).status).toBe(401);
    const waits = [expectTooMany(await login(user.email, WRONG), account.lockSeconds)];
    for (let lock = 2; lock <= 3; lock++) {
      const failed = await whenUnlocked(() => login(user.email, WRONG), account.maxLockSeconds);
      expect(failed).toMatchObject({ status: 401, body: { message: SIGN_IN_FAILED } });
      waits.push(expectTooMany(await login(user.email, WRONG), account.maxLockSeconds));
    }
    // 1 s, then 2 s, then 4 s (the ceiling of this run's policy, not 4 s doubled).
    expect(waits[0]).toBe(account.lockSeconds);
    expect(waits[1]).toBeGreaterThanOrEqual(account.lockSeconds * 2 - 1);
    expect(waits[1]).toBeLessThanOrEqual(account.lockSeconds * 2);
    expect(waits[2]).toBeGreaterThanOrEqual(account.maxLockSeconds - 1);
    const failed = await whenUnlocked(() => login(user.email, WRONG), account.maxLockSeconds);
    expect(failed.status).toBe(401);
    expect(expectTooMany(await login(user.email, WRONG), account.maxLockSeconds)).toBeGreaterThanOrEqual(
      account.maxLockSeconds - 1,
    );
  });

  it('counts every one of 20 concurrent failures (atomic increments), and none fails with a 500', async () => {
    const user = await createUser(0, ['org-demo']);
    const results = await Promise.all(Array.from({ length: 20 }, () => login(user.email, WRONG)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    const failures = statuses.filter((s) => s === 401).length;
    // Nothing is locked before the 5th failure is counted, so at least that many were checked.
    expect(failures).toBeGreaterThanOrEqual(policy.signIn.account.maxAttempts);
    expect(await dynamoAttemptCounter.read(accountKey(user.email), new Date())).toMatchObject({
      count: failures,
    });
    expectTooMany(await login(user.email, user.password), policy.signIn.account.maxLockSeconds);
  });

  it('counts a failure against the address the request came from too', async () => {
    const address = ownLoopbackAddress();
    const user = await createUser(0, ['org-demo']);
    expect(await loginFrom(address, { email: freshEmail('nobody'), password: WRONG })).toBe(401);
    expect(await addressCount(address)).toBe(1);
    // A success does not clear the address's count.
    expect(await loginFrom(address, { email: user.email, password: user.password })).toBe(200);
    expect(await addressCount(address)).toBe(1);
  });

  it("counts by the viewer address CloudFront passes on only when the request carries CloudFront's secret", async () => {
    const address = ownLoopbackAddress();
    const viewer = `198.51.100.${randomInt(1, 255)}`;
    const secret = stack.env.ORIGIN_SECRET ?? '';
    expect(secret).not.toBe('');
    const fail = (headers: Record<string, string>) =>
      loginFrom(address, { email: freshEmail('edge'), password: WRONG }, headers);

    // Through CloudFront: the origin secret and the viewer's address.
    expect(await fail({ [ORIGIN_SECRET_HEADER]: secret, [VIEWER_ADDRESS_HEADER]: viewer })).toBe(401);
    expect([await addressCount(viewer), await addressCount(address)]).toEqual([1, 0]);
    // A viewer address without the secret, or with a wrong one, is not believed.
    expect(await fail({ [VIEWER_ADDRESS_HEADER]: viewer })).toBe(401);
    expect(await fail({ [ORIGIN_SECRET_HEADER]: `${secret}x`, [VIEWER_ADDRESS_HEADER]: viewer })).toBe(401);
    expect([await addressCount(viewer), await addressCount(address)]).toEqual([1, 2]);
    // With the secret but no usable address, the request counts by where it came from.
    expect(await fail({ [ORIGIN_SECRET_HEADER]: secret, [VIEWER_ADDRESS_HEADER]: 'not an address' })).toBe(
      401,
    );
    expect([await addressCount(viewer), await addressCount(address)]).toEqual([1, 3]);
  });
});

describe('password checks of other calls', () => {
  it('throttles accepting an invitation with an existing account like a sign-in', async () => {
    const { account } = policy.signIn;
    const existing = await createUser(1, ['org-other']);
    const { accessToken } = await signInAs(await createUser(2, ['org-demo']));
    const invited = await call(
      '/api/dashboard/sendInviteUserEmail',
      { email: existing.email, organizationId: 'org-demo' },
      { token: accessToken },
    );
    expect(invited.status).toBe(200);
    const { token } = linkIn(await waitForMail(existing.email), 'register');
    const register = (password: string) =>
      call('/api/registerUser', {
        user: { userName: 'Existing', password, email: existing.email, orgIds: [], token },
      });
    for (let i = 0; i < account.maxAttempts; i++) {
      expect(await register(WRONG)).toMatchObject({
        status: 400,
        body: {
          message: 'This e-mail already has an account: enter its current password to accept the invitation.',
        },
      });
    }
    expectTooMany(await register(existing.password), account.lockSeconds);
    // The invitation is still there once the lock has passed.
    expect((await whenUnlocked(() => register(existing.password), account.lockSeconds)).status).toBe(200);
  });

  it('throttles the old-password check of a password change like a sign-in', async () => {
    const { account } = policy.signIn;
    const user = await createUser(0, ['org-demo']);
    const { accessToken } = await signInAs(user);
    const change = (oldpassword: string) =>
      call('/api/changepassword', { oldpassword, password: 'Next-Passw0rd!' }, { token: accessToken });
    for (let i = 0; i < account.maxAttempts; i++) {
      expect(await change(WRONG)).toMatchObject({
        status: 400,
        body: { message: 'The old password is incorrect.' },
      });
    }
    expectTooMany(await change(user.password), account.lockSeconds);
    expectTooMany(await login(user.email, user.password), account.lockSeconds);
  });
});

describe('sign-in throttling per address (domain, against DynamoDB Local)', () => {
  const limit: Limit = { maxAttempts: 10, windowSeconds: 60, lockSeconds: 30, maxLockSeconds: 60 };
  const deps: ThrottlePorts = {
    attempts: dynamoAttemptCounter,
    clock: systemClock,
    throttlePolicy: {
      ...policy,
      signIn: { account: { ...limit, maxAttempts: 5 }, address: limit },
    },
  };
  const wrongPassword = () => Promise.reject(unauthenticated(SIGN_IN_FAILED));
  const attempt = (email: string, address: string, check: () => Promise<string> = wrongPassword) =>
    throttledPasswordCheck(deps, { email, address }, check).then(
      (value) => ({ ok: value }),
      (error: unknown) => ({ error }),
    );

  it('locks an address after failures for many accounts, and only that address', async () => {
    // Addresses of their own (16 million each): no other test of the run has counted failures for them.
    const octet = () => randomInt(0, 256);
    const address = `10.${octet()}.${octet()}.${randomInt(1, 255)}`;
    const other = `172.${randomInt(16, 32)}.${octet()}.${randomInt(1, 255)}`;
    for (let i = 0; i < limit.maxAttempts; i++) {
      const result = await attempt(freshEmail('many'), address);
      expect(result).toMatchObject({ error: { kind: 'unauthenticated' } });
    }
    // An account that never failed, from the locked address: refused before its password is checked.
    let checked = false;
    const refused = await attempt(freshEmail('fresh'), `::ffff:${address}`, () => {
      checked = true;
      return Promise.resolve('signed in');
    });
    expect(refused).toMatchObject({
      error: { kind: 'too-many-requests', details: { retryAfterSeconds: limit.lockSeconds } },
    });
    expect(checked).toBe(false);
    // Another address is not affected.
    expect(await attempt(freshEmail('fresh'), other, () => Promise.resolve('signed in'))).toEqual({
      ok: 'signed in',
    });
  });

  it('counts the addresses of one IPv6 /64 together', async () => {
    const prefix = `2001:db8:${randomInt(1, 0xffff).toString(16)}:1`;
    for (let i = 0; i < limit.maxAttempts; i++) await attempt(freshEmail('v6'), `${prefix}::${i + 1}`);
    expect(await attempt(freshEmail('v6'), `${prefix}:ffff:ffff:ffff:fffe`)).toMatchObject({
      error: { kind: 'too-many-requests' },
    });
    expect(await attempt(freshEmail('v6'), `2001:db8:ffff:2::1`, () => Promise.resolve('in'))).toEqual({
      ok: 'in',
    });
  });
});

describe('forgot password', () => {
  it('answers the same for an existing and an unknown e-mail; only the existing one gets mail, through the queue', async () => {
    const unknown = freshEmail('nobody');
    const user = await createUser(0, ['org-demo']);
    const answers = [await forgot(unknown), await forgot(user.email)];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ message: RESET_MAIL_SENT });
    }
    expect(answers[0]?.headers.get('content-length')).toBe(answers[1]?.headers.get('content-length'));

    // The local queue works its jobs one at a time in the order sent, so once the second job's mail
    // is there, the first job (the unknown e-mail) is done too.
    const mail = await waitForMail(user.email);
    expect(mail.subject).toMatch(/reset/i);
    const { url, token } = linkIn(mail, 'forgetPassword');
    expect(url).toBe(`${stack.env.APP_ORIGIN}/forgetPassword/${token}`);
    expect(await mailsTo(unknown)).toEqual([]);
  });

  it('refuses more requests for one e-mail than the limit with 429, until the lock passes', async () => {
    const { account } = policy.resetMail;
    const email = freshEmail('often');
    for (let i = 0; i < account.maxAttempts; i++) {
      expect(await forgot(i % 2 ? email.toUpperCase() : email)).toMatchObject({
        status: 200,
        body: { message: RESET_MAIL_SENT },
      });
    }
    expectTooMany(await forgot(email), account.lockSeconds);
    // Another e-mail from the same address is not affected.
    expect((await forgot(freshEmail('other'))).status).toBe(200);
    expect((await whenUnlocked(() => forgot(email), account.lockSeconds)).status).toBe(200);
  });

  it('lets no burst of concurrent requests past the limit', async () => {
    const { account } = policy.resetMail;
    const email = freshEmail('burst');
    const results = await Promise.all(Array.from({ length: 12 }, () => forgot(email)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(account.maxAttempts);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12 - account.maxAttempts);
  });
});

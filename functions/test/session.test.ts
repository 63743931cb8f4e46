import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { SESSION_HINT_COOKIE } from '@argentum/contracts';
import { dynamo } from '../src/aws/dynamo';
import { config } from '../src/config';
import { keys } from '../src/stores/keys';
import { call, createUser, refreshCookieOf, signIn, users } from './support/api';

const SIGN_IN_FAILED = 'The password and/or email entered is incorrect. Please try again';
const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';

describe('sign-in', () => {
  it('returns an access token and the user, and puts the refresh token only in an httpOnly cookie', async () => {
    const user = await createUser(2, ['org-demo'], 'Adam Admin');
    const result = await call<Record<string, unknown>>('/api/login', {
      user: { email: `  ${user.email.toUpperCase()} `, password: user.password },
    });
    expect(result.status).toBe(200);
    expect(result.body.accessToken).toEqual(expect.stringMatching(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/));
    expect(result.body).not.toHaveProperty('refreshToken');
    expect(result.body.user).toMatchObject({
      id: user.userId,
      email: user.email,
      roles: 2,
      org: ['org-demo'],
      userName: 'Adam Admin',
    });
    const cookies = result.headers.getSetCookie().filter((c) => c.startsWith('refreshToken='));
    expect(cookies).toHaveLength(1);
    const attributes = (cookies[0] ?? '').split(/;\s*/);
    expect(attributes[0]).toMatch(/^refreshToken=\S{20,}$/);
    expect(attributes.slice(1).sort()).toEqual(
      // The cookie lives as long as the refresh token: 30 days.
      ['HttpOnly', `Max-Age=${30 * 24 * 3600}`, 'Path=/api', 'SameSite=Strict', 'Secure'],
    );
    // Beside it, the session hint the page can read (no secret in it), for as long.
    expect(result.headers.getSetCookie().filter((c) => c.startsWith(`${SESSION_HINT_COOKIE}=`))).toEqual([
      `${SESSION_HINT_COOKIE}=1; Max-Age=${30 * 24 * 3600}; Path=/; SameSite=Strict; Secure`,
    ]);
  });

  it.each([
    ['a wrong password', (email: string) => ({ email, password: 'Wrong-Passw0rd!' })],
    ['an unknown e-mail', () => ({ email: 'nobody@example.com', password: 'Test-Passw0rd!' })],
  ])('refuses %s with the documented message', async (_, credentials) => {
    const user = await createUser(0, ['org-demo']);
    const result = await call('/api/login', { user: credentials(user.email) });
    expect(result.status).toBe(401);
    expect(result.body).toEqual({ message: SIGN_IN_FAILED });
    expect(refreshCookieOf(result.headers)).toBeUndefined();
  });

  it('validates the e-mail with the documented messages', async () => {
    expect((await call('/api/login', { user: { email: '', password: 'x' } })).body).toEqual({
      message: 'Please Enter email.',
    });
    expect((await call('/api/login', { user: { email: 'not-an-email', password: 'x' } })).body).toEqual({
      message: 'Please Enter valid email.',
    });
  });

  it('refuses an identity that has no platform user record', async () => {
    const user = await createUser(1, ['org-demo']);
    await dynamo().send(new DeleteCommand({ TableName: config.platformTable, Key: keys.user(user.userId) }));
    const result = await call('/api/login', { user: { email: user.email, password: user.password } });
    expect(result.status).toBe(401);
    expect(result.body).toEqual({ message: SIGN_IN_FAILED });
  });
});

describe('refresh and sign-out', () => {
  it('issues a new access token from the cookie, which then works on protected calls', async () => {
    const user = await createUser(0, ['org-demo']);
    const session = await signIn(user.email, user.password);
    const refreshed = await call<{ accessToken: string; user: { email: string } }>(
      '/api/refreshToken',
      {},
      { cookie: session.cookie },
    );
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.user.email).toBe(user.email);
    expect(refreshed.body.accessToken).not.toBe(session.accessToken);
    const tree = await call(
      '/api/dashboard/getUsersOrganisations',
      {},
      { token: refreshed.body.accessToken },
    );
    expect(tree.status).toBe(200);
  });

  it('answers 401 without a cookie and with a forged one', async () => {
    expect(await call('/api/refreshToken', {})).toMatchObject({
      status: 401,
      body: { message: SESSION_EXPIRED },
    });
    const forged = await call('/api/refreshToken', {}, { cookie: 'refreshToken=forged.token.value' });
    expect(forged.status).toBe(401);
    expect(forged.body).toEqual({ message: SESSION_EXPIRED });
  });

  it('signs the user out everywhere: cookie cleared, every session refused, a new sign-in works', async () => {
    const user = await createUser(1, ['org-demo']);
    const here = await signIn(user.email, user.password);
    const elsewhere = await signIn(user.email, user.password);
    // No waiting: sessions begun in the very second of the sign-out end too.

    const out = await call('/api/userLogout', { id: here.user.id }, { cookie: here.cookie });
    expect(out).toMatchObject({ status: 200, body: { message: 'Signed out.' } });
    expect(out.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^refreshToken=;.*Max-Age=0/),
      `${SESSION_HINT_COOKIE}=; Max-Age=0; Path=/; SameSite=Strict; Secure`,
    ]);
    for (const session of [here, elsewhere]) {
      const tree = await call('/api/dashboard/getUsersOrganisations', {}, { token: session.accessToken });
      // Flagged like an expired token: the front end tries its refresh, which is refused too.
      expect(tree).toMatchObject({ status: 401, body: { message: SESSION_EXPIRED, expired: true } });
      expect(await call('/api/refreshToken', {}, { cookie: session.cookie })).toMatchObject({
        status: 401,
        body: { message: SESSION_EXPIRED },
      });
    }

    const again = await signIn(user.email, user.password);
    expect(
      (await call('/api/dashboard/getUsersOrganisations', {}, { token: again.accessToken })).status,
    ).toBe(200);
  });

  it('ends the sessions of the user named by a Bearer token when there is no cookie', async () => {
    const user = await createUser(0, ['org-demo']);
    const first = await signIn(user.email, user.password);
    const second = await signIn(user.email, user.password);
    expect((await call('/api/userLogout', {}, { token: first.accessToken })).status).toBe(200);
    for (const session of [first, second]) {
      expect(
        (await call('/api/dashboard/getUsersOrganisations', {}, { token: session.accessToken })).status,
      ).toBe(401);
      expect((await call('/api/refreshToken', {}, { cookie: session.cookie })).status).toBe(401);
    }
    // A forged Bearer token names nobody: it ends nothing.
    const other = await signIn(user.email, user.password);
    expect(
      (await call('/api/userLogout', {}, { token: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' })).status,
    ).toBe(200);
    expect(
      (await call('/api/dashboard/getUsersOrganisations', {}, { token: other.accessToken })).status,
    ).toBe(200);
  });

  it('answers a sign-out without a cookie, or with a revoked one, and ends no session', async () => {
    const user = await createUser(0, ['org-demo']);
    const session = await signIn(user.email, user.password);
    expect((await call('/api/userLogout', {})).status).toBe(200);
    expect((await call('/api/userLogout', {}, { cookie: 'refreshToken=forged.token.value' })).status).toBe(
      200,
    );
    expect(
      (await call('/api/dashboard/getUsersOrganisations', {}, { token: session.accessToken })).status,
    ).toBe(200);
  });
});

describe('protected calls', () => {
  it('are refused without a token, with a forged token and with a token of another pool client', async () => {
    const none = await call('/api/dashboard/getUsersOrganisations', {});
    expect(none).toMatchObject({ status: 401, body: { message: 'Unauthorized' } });
    const forged = await call(
      '/api/dashboard/getUsersOrganisations',
      {},
      { token: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' },
    );
    expect(forged).toMatchObject({ status: 401, body: { message: 'Unauthorized' } });
    expect(forged.headers.get('www-authenticate')).toMatch(/invalid_token/);
  });

  it('see a deleted user refused on the very next request', async () => {
    const user = await createUser(0, ['org-demo']);
    const session = await signIn(user.email, user.password);
    expect(
      (await call('/api/dashboard/getUsersOrganisations', {}, { token: session.accessToken })).status,
    ).toBe(200);
    await dynamo().send(new DeleteCommand({ TableName: config.platformTable, Key: keys.user(user.userId) }));
    const after = await call('/api/dashboard/getUsersOrganisations', {}, { token: session.accessToken });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ message: 'User is unAuthorized' });
  });

  it('apply a demotion on the very next request', async () => {
    const user = await createUser(2, ['org-demo']);
    const session = await signIn(user.email, user.password);
    // An admin-only call works ...
    expect(
      (await call('/api/dashboard/createOrUpdateOrgBuild', { orgName: 'X' }, { token: session.accessToken }))
        .status,
    ).toBe(201);
    const record = await users.get(user.userId);
    if (!record) throw new Error('missing user');
    expect(
      await users.saveIfUnchanged(
        { ...record, orgRoles: { 'org-demo': 0 }, version: record.version + 1 },
        record,
      ),
    ).toBe('saved');
    const after = await call(
      '/api/dashboard/createOrUpdateOrgBuild',
      { orgName: 'X' },
      { token: session.accessToken },
    );
    expect(after.status).toBe(403);
    expect(after.body).toEqual({ message: 'User is unAuthorized' });
  });
});

describe('password change', () => {
  it('ends every other session of the user and keeps the current one going with a fresh session', async () => {
    const user = await createUser(1, ['org-demo']);
    const current = await signIn(user.email, user.password);
    const other = await signIn(user.email, user.password);
    const newPassword = 'Changed-Passw0rd!';
    const changed = await call<{ message: string; accessToken: string; user: { id: string } }>(
      '/api/changepassword',
      { oldpassword: user.password, password: newPassword },
      { token: current.accessToken, cookie: current.cookie },
    );
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      message: 'Password Changed successfully.',
      user: { id: user.userId },
    });
    const cookie = refreshCookieOf(changed.headers);
    expect(cookie).toMatch(/^refreshToken=\S{20,}$/);
    expect(changed.headers.getSetCookie()).toContain(
      `${SESSION_HINT_COOKIE}=1; Max-Age=${30 * 24 * 3600}; Path=/; SameSite=Strict; Secure`,
    );
    expect(cookie).not.toBe(current.cookie);

    // The other session is over, access token and refresh alike.
    expect(
      await call('/api/dashboard/getUsersOrganisations', {}, { token: other.accessToken }),
    ).toMatchObject({ status: 401, body: { message: SESSION_EXPIRED, expired: true } });
    expect(await call('/api/refreshToken', {}, { cookie: other.cookie })).toMatchObject({
      status: 401,
      body: { message: SESSION_EXPIRED },
    });
    // This one goes on with the tokens of the answer.
    expect(
      (await call('/api/dashboard/getUsersOrganisations', {}, { token: changed.body.accessToken })).status,
    ).toBe(200);
    expect((await call('/api/refreshToken', {}, { cookie })).status).toBe(200);
    expect((await call('/api/login', { user: { email: user.email, password: newPassword } })).status).toBe(
      200,
    );
  });
});

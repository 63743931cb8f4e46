import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamo } from '../src/aws/dynamo';
import { config } from '../src/config';
import { epochSeconds, hashToken, newToken } from '../src/domain/auth/tokens';
import { EXISTING_ACCOUNT_PASSWORD_WRONG, INVITE_SENT, RESET_LINK_EXPIRED } from '../src/domain/auth/texts';
import { getAccountToken, putAccountToken } from '../src/stores/account-tokens';
import { orgItem } from '../src/stores/tree';
import type { OrganizationView } from '../src/domain/tree/tree';
import {
  call,
  createOwnOrganization,
  createUser,
  linkIn,
  mailsTo,
  signIn,
  signInAs,
  stack,
  users,
  waitForMail,
} from './support/api';

const PASSWORD_HINT =
  'Must be 8+ characters long and contain at least 1 upper case letter, 1 number, 1 special character';
const INVITE_EXPIRED = 'Please request Admin the link has expired';
const NEW_PASSWORD = 'Fresh-Passw0rd!';

const freshEmail = (prefix = 'invitee') => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;

/** An access token of an administrator of Demo Org, for this file only. */
let demoAdmin: string;
beforeAll(async () => {
  demoAdmin = (await signInAs(await createUser(2, ['org-demo']))).accessToken;
});

const invite = (email: string, organizationId: string | string[] = 'org-demo', token = demoAdmin) =>
  call('/api/dashboard/sendInviteUserEmail', { email, organizationId }, { token });

async function invitedToken(email: string, organizationId: string | string[] = 'org-demo') {
  const sent = await invite(email, organizationId);
  expect(sent.status).toBe(200);
  return linkIn(await waitForMail(email.toLowerCase()), 'register').token;
}

const register = (
  token: string,
  email: string,
  password = NEW_PASSWORD,
  extra: Record<string, unknown> = {},
) =>
  call('/api/registerUser', {
    user: { userName: 'New Person', password, email, orgIds: [], token, ...extra },
  });

describe('invite -> register', () => {
  it('mails a single-use link; the invitee registers read-only in the invited organizations only', async () => {
    const email = freshEmail();
    const sent = await invite(`  ${email.toUpperCase()} `, ['org-demo']);
    expect(sent.status).toBe(200);

    const mail = await waitForMail(email);
    expect(mail.to).toEqual([email]);
    expect(mail.subject).toMatch(/invited/i);
    const { url, token } = linkIn(mail, 'register');
    expect(url).toBe(`${stack.env.APP_ORIGIN}/register/${token}`);
    expect(mail.html).toContain(`href="${url}"`);
    expect(mail.html).toContain('Demo Org');
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);

    // Stored only as its hash, with a TTL 7 days out.
    const stored = await getAccountToken(hashToken(token));
    expect(stored).toMatchObject({ kind: 'invite', email, orgIds: ['org-demo'] });
    expect(JSON.stringify(stored)).not.toContain(token);
    const sevenDays = epochSeconds(new Date()) + 7 * 24 * 3600;
    expect(Math.abs((stored?.expiresAt ?? 0) - sevenDays)).toBeLessThan(60);

    const lookup = await call('/api/confirmUser', { userToken: token });
    expect(lookup.status).toBe(200);
    expect(lookup.body).toEqual({ email, organizationId: ['org-demo'], organizationName: 'Demo Org' });

    // The client asks for more organizations than it was invited to: the token decides.
    const registered = await register(token, email, NEW_PASSWORD, { orgIds: ['org-demo', 'org-other'] });
    expect(registered.status).toBe(200);

    const session = await signIn(email, NEW_PASSWORD);
    expect(session.user).toMatchObject({ email, userName: 'New Person', roles: 0, org: ['org-demo'] });
    const tree = await call<{ organizations: OrganizationView[] }>(
      '/api/dashboard/getUsersOrganisations',
      {},
      { token: session.accessToken },
    );
    expect(tree.status).toBe(200);
    expect(tree.body.organizations.map((o) => [o.orgID, o.orgName])).toEqual([['org-demo', 'Demo Org']]);

    // Single use: neither the lookup nor a second registration works again.
    expect(await call('/api/confirmUser', { userToken: token })).toMatchObject({
      status: 410,
      body: { message: INVITE_EXPIRED },
    });
    expect(await register(token, email, 'Other-Passw0rd!')).toMatchObject({
      status: 410,
      body: { message: INVITE_EXPIRED },
    });
    await signIn(email, NEW_PASSWORD);
  });

  it('lets exactly one of two concurrent registrations with the same token through', async () => {
    const email = freshEmail();
    const token = await invitedToken(email);
    const results = await Promise.all([register(token, email), register(token, email, 'Second-Passw0rd!')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 410]);
    const registered = await users.findByEmail(email);
    expect(registered?.orgRoles).toEqual({ 'org-demo': 0 });
  });

  it('refuses an expired invite (410) at lookup and registration', async () => {
    const token = newToken();
    const email = freshEmail();
    const longAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    await putAccountToken({
      tokenHash: hashToken(token),
      kind: 'invite',
      email,
      orgIds: ['org-demo'],
      orgNames: ['Demo Org'],
      createdAt: longAgo.toISOString(),
      expiresAt: epochSeconds(longAgo) + 7 * 24 * 3600,
    });
    expect(await call('/api/confirmUser', { userToken: token })).toMatchObject({
      status: 410,
      body: { message: INVITE_EXPIRED },
    });
    expect(await register(token, email)).toMatchObject({ status: 410, body: { message: INVITE_EXPIRED } });
    expect(await call('/api/confirmUser', { userToken: 'never-issued' })).toMatchObject({
      status: 410,
      body: { message: INVITE_EXPIRED },
    });
  });

  it('refuses a weak password with the hint, and the link stays usable', async () => {
    const email = freshEmail();
    const token = await invitedToken(email);
    for (const weak of ['Sh0rt!', 'alllowercase1!', 'NoDigitsHere!', 'NoSymbols123']) {
      const result = await register(token, email, weak);
      expect(result).toMatchObject({ status: 400, body: { message: PASSWORD_HINT } });
    }
    expect((await call('/api/login', { user: { email, password: 'NoSymbols123' } })).status).toBe(401);
    expect((await call('/api/confirmUser', { userToken: token })).status).toBe(200);
    expect((await register(token, email)).status).toBe(200);
  });

  it('refuses a registration whose e-mail is not the invited one, or without a user name', async () => {
    const email = freshEmail();
    const token = await invitedToken(email);
    expect(await register(token, freshEmail('intruder'))).toMatchObject({
      status: 400,
      body: { message: 'The e-mail does not match the invitation.' },
    });
    expect(await register(token, email, NEW_PASSWORD, { userName: '  ' })).toMatchObject({
      status: 400,
      body: { message: 'User name can not be empty' },
    });
    expect(
      await call('/api/registerUser', { user: { userName: 'X', password: NEW_PASSWORD, email } }),
    ).toMatchObject({ status: 400, body: { message: 'user.token is required.' } });
  });

  it('lets an existing account accept an invite with its own password, adding the organization', async () => {
    const existing = await createUser(1, ['org-other'], 'Existing Person');
    const token = await invitedToken(existing.email);
    expect(await register(token, existing.email, 'Wrong-Passw0rd!')).toMatchObject({
      status: 400,
      body: { message: EXISTING_ACCOUNT_PASSWORD_WRONG },
    });
    const accepted = await register(token, existing.email, existing.password);
    expect(accepted.status).toBe(200);
    const record = await users.get(existing.userId);
    // The invitation adds the new organization read-only; the role the user had stays.
    expect(record).toMatchObject({ userName: 'Existing Person' });
    expect(record?.orgRoles).toEqual({ 'org-other': 1, 'org-demo': 0 });
  });

  it('refuses invites from roles below admin, to foreign organizations, with bad e-mails or for members', async () => {
    const email = freshEmail();
    for (const role of [0, 1] as const) {
      const { accessToken } = await signInAs(await createUser(role, ['org-demo']));
      expect(await invite(email, 'org-demo', accessToken)).toMatchObject({
        status: 403,
        body: { message: 'User is unAuthorized' },
      });
    }
    // An organization the admin is not in is answered like one that does not exist.
    const unknown = await invite(email, 'org-never-heard-of');
    expect(unknown).toMatchObject({ status: 404, body: { message: 'Organization not found.' } });
    expect(await invite(email, 'org-other')).toMatchObject({ status: 404, body: unknown.body });
    expect(await invite(email, ['org-demo', 'org-other'])).toMatchObject({ status: 404, body: unknown.body });
    expect(await invite(email, [])).toMatchObject({
      status: 400,
      body: { message: 'organizationId is too short or too small.' },
    });
    expect(await invite('not-an-email')).toMatchObject({
      status: 400,
      body: { message: 'Please Enter valid email.' },
    });
    expect(await invite('')).toMatchObject({
      status: 400,
      body: { message: 'Please enter an email address' },
    });
    const member = await createUser(0, ['org-demo']);
    expect(await invite(member.email.toUpperCase())).toMatchObject({
      status: 409,
      body: { message: 'User already exist in the organization.' },
    });
    expect(await mailsTo(email)).toEqual([]);
    // The platform owner may invite to any of their organizations.
    const owner = await signInAs(await createUser(3, ['org-demo', 'org-other']));
    expect(await invite(email, ['org-demo', 'org-other'], owner.accessToken)).toMatchObject({
      status: 200,
      body: { message: INVITE_SENT },
    });
    expect(linkIn(await waitForMail(email), 'register').token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('voids an invite whose sender has lost admin rights in the organization since (410)', async () => {
    const sender = await createUser(1, []);
    const orgId = await createOwnOrganization(sender.userId, 2, 'Invite Org');
    const email = freshEmail();
    const { accessToken } = await signIn(sender.email, sender.password);
    expect(
      (
        await call(
          '/api/dashboard/sendInviteUserEmail',
          { email, organizationId: orgId },
          { token: accessToken },
        )
      ).status,
    ).toBe(200);
    const { token } = linkIn(await waitForMail(email), 'register');
    expect((await call('/api/confirmUser', { userToken: token })).status).toBe(200);

    // The sender is demoted to read/write in that organization.
    const record = await users.get(sender.userId);
    if (!record) throw new Error('no sender');
    await users.saveIfUnchanged({ ...record, orgRoles: { [orgId]: 1 }, version: record.version + 1 }, record);

    const expired = { message: 'Please request Admin the link has expired' };
    expect(await call('/api/confirmUser', { userToken: token })).toMatchObject({
      status: 410,
      body: expired,
    });
    expect(await register(token, email)).toMatchObject({ status: 410, body: expired });
    expect(await users.findByEmail(email)).toBeUndefined();
  });

  it('answers 410 to registering into an organization deleted since the invite', async () => {
    const sender = await createUser(1, []);
    const orgId = await createOwnOrganization(sender.userId, 2, 'Short-lived Org');
    const email = freshEmail();
    const { accessToken } = await signIn(sender.email, sender.password);
    expect((await invite(email, orgId, accessToken)).status).toBe(200);
    const { token } = linkIn(await waitForMail(email), 'register');
    const deleted = await call(
      '/api/dashboard/deleteOrgBuildFloor',
      { id: orgId, type: 'organization' },
      { token: accessToken },
    );
    expect(deleted.status).toBe(200);
    expect(await register(token, email)).toMatchObject({
      status: 410,
      body: { message: 'Please request Admin the link has expired' },
    });
    expect(await users.findByEmail(email)).toBeUndefined();
  });

  it('escapes organization names in the mail', async () => {
    const orgId = `org-${randomUUID().slice(0, 8)}`;
    await dynamo().send(
      new PutCommand({
        TableName: config.platformTable,
        Item: orgItem({ orgId, orgName: '<img src=x onerror=alert(1)> & "Co"' }),
      }),
    );
    const admin = await createUser(2, [orgId]);
    const { accessToken } = await signIn(admin.email, admin.password);
    const email = freshEmail();
    const sent = await call(
      '/api/dashboard/sendInviteUserEmail',
      { email, organizationId: orgId },
      { token: accessToken },
    );
    expect(sent.status).toBe(200);
    const mail = await waitForMail(email);
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Co&quot;');
  });
});

describe('forgot and reset password', () => {
  const forgot = (email: string) => call('/api/dashboard/forgetPasswordEmail', { user: { email } });
  const reset = (token: string, password: string, confirmNewPass = password) =>
    call('/api/setForgetPassword', { user: { token, password }, confirmNewPass });

  it('answers 200 for any e-mail and mails a 1-hour single-use link only to users', async () => {
    const unknown = freshEmail('nobody');
    expect(await forgot(unknown)).toMatchObject({
      status: 200,
      body: { message: 'Please check your email. Forget password Link has been sent.' },
    });

    const user = await createUser(0, ['org-demo']);
    expect((await forgot(`  ${user.email.toUpperCase()}`)).status).toBe(200);
    const { url, token } = linkIn(await waitForMail(user.email), 'forgetPassword');
    expect(url).toBe(`${stack.env.APP_ORIGIN}/forgetPassword/${token}`);
    const stored = await getAccountToken(hashToken(token));
    expect(stored).toMatchObject({ kind: 'reset', email: user.email });
    expect(Math.abs((stored?.expiresAt ?? 0) - (epochSeconds(new Date()) + 3600))).toBeLessThan(60);
    expect(await mailsTo(unknown)).toEqual([]);

    // A reset token is no invite.
    expect(await register(token, user.email)).toMatchObject({
      status: 410,
      body: { message: INVITE_EXPIRED },
    });

    expect(await reset(token, NEW_PASSWORD, 'Different-Passw0rd!')).toMatchObject({
      status: 400,
      body: { message: "Passwords Don't Match" },
    });
    expect(await reset(token, 'weakpassword')).toMatchObject({
      status: 400,
      body: { message: PASSWORD_HINT },
    });
    expect(await reset(token, '')).toMatchObject({
      status: 400,
      body: { message: 'Password can not empty' },
    });
    const before = await signIn(user.email, user.password);
    expect(await reset(token, NEW_PASSWORD)).toMatchObject({
      status: 200,
      body: { message: 'Password changed successfully.' },
    });
    // Whoever was signed in with the old password is signed out.
    expect(
      await call('/api/dashboard/getUsersOrganisations', {}, { token: before.accessToken }),
    ).toMatchObject({ status: 401, body: { expired: true } });
    expect((await call('/api/refreshToken', {}, { cookie: before.cookie })).status).toBe(401);

    expect((await call('/api/login', { user: { email: user.email, password: user.password } })).status).toBe(
      401,
    );
    await signIn(user.email, NEW_PASSWORD);
    expect(await reset(token, 'Another-Passw0rd!')).toMatchObject({
      status: 410,
      body: { message: RESET_LINK_EXPIRED },
    });
  });

  it('makes every earlier reset link unusable when a newer one is sent', async () => {
    const user = await createUser(0, ['org-demo']);
    expect((await forgot(user.email)).status).toBe(200);
    const first = linkIn(await waitForMail(user.email), 'forgetPassword').token;
    expect((await forgot(user.email)).status).toBe(200);
    const second = linkIn(await waitForMail(user.email, 2), 'forgetPassword').token;
    expect(second).not.toBe(first);
    expect((await mailsTo(user.email)).map((m) => linkIn(m, 'forgetPassword').token)).toEqual([
      second,
      first,
    ]);
    expect(await reset(first, NEW_PASSWORD)).toMatchObject({
      status: 410,
      body: { message: RESET_LINK_EXPIRED },
    });
    expect(await call('/api/confirmUser', { userToken: first })).toMatchObject({
      status: 410,
      body: { message: RESET_LINK_EXPIRED },
    });
    expect(await reset(second, NEW_PASSWORD)).toMatchObject({
      status: 200,
      body: { message: 'Password changed successfully.' },
    });
  });

  it('refuses an expired reset token and validates the e-mail', async () => {
    const user = await createUser(0, ['org-demo']);
    const token = newToken();
    const twoHoursAgo = new Date(Date.now() - 2 * 3600 * 1000);
    await putAccountToken({
      tokenHash: hashToken(token),
      kind: 'reset',
      email: user.email,
      orgIds: [],
      orgNames: [],
      createdAt: twoHoursAgo.toISOString(),
      expiresAt: epochSeconds(twoHoursAgo) + 3600,
    });
    expect(await reset(token, NEW_PASSWORD)).toMatchObject({
      status: 410,
      body: { message: RESET_LINK_EXPIRED },
    });
    await signIn(user.email, user.password);

    expect(await forgot('')).toMatchObject({ status: 400, body: { message: 'Please Enter email.' } });
    expect(await forgot('nope')).toMatchObject({
      status: 400,
      body: { message: 'Please Enter valid email.' },
    });
  });
});

describe('change password and user name', () => {
  it('changes the password only with the right old password and a strong new one', async () => {
    const user = await createUser(0, ['org-demo']);
    const { accessToken } = await signIn(user.email, user.password);
    const change = (oldpassword: string, password: string) =>
      call('/api/changepassword', { oldpassword, password }, { token: accessToken });

    expect(await change('', NEW_PASSWORD)).toMatchObject({
      status: 400,
      body: { message: 'Password can not empty' },
    });
    expect(await change(user.password, '')).toMatchObject({
      status: 400,
      body: { message: 'Password can not empty' },
    });
    expect(await change('Wrong-Passw0rd!', NEW_PASSWORD)).toMatchObject({
      status: 400,
      body: { message: 'The old password is incorrect.' },
    });
    expect(await change(user.password, 'weak')).toMatchObject({
      status: 400,
      body: { message: PASSWORD_HINT },
    });
    expect(await change(user.password, NEW_PASSWORD)).toMatchObject({
      status: 200,
      body: { message: 'Password Changed successfully.' },
    });
    expect((await call('/api/login', { user: { email: user.email, password: user.password } })).status).toBe(
      401,
    );
    await signIn(user.email, NEW_PASSWORD);
    expect(
      await call('/api/changepassword', { oldpassword: NEW_PASSWORD, password: 'X-Passw0rd!' }),
    ).toMatchObject({ status: 401, body: { message: 'Unauthorized' } });
  });

  it('changes the user name; an empty one is refused', async () => {
    const user = await createUser(1, ['org-demo'], 'Before Name');
    const { accessToken } = await signIn(user.email, user.password);
    const rename = (username: string) => call('/api/changeUsername', { username }, { token: accessToken });
    for (const empty of ['', '   ']) {
      expect(await rename(empty)).toMatchObject({
        status: 400,
        body: { message: 'User name can not be empty' },
      });
    }
    expect(await rename('  After Name ')).toMatchObject({
      status: 200,
      body: { message: 'Username Changed successfully.', data: { userName: 'After Name' } },
    });
    expect((await signIn(user.email, user.password)).user.userName).toBe('After Name');
    expect(await users.get(user.userId)).toMatchObject({
      userName: 'After Name',
      orgRoles: { 'org-demo': 1 },
    });
  });
});

import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { readMailbox } from '../../infra/local/ses-capture';
import { dynamo } from '../src/aws/dynamo';
import { config } from '../src/config';
import { epochSeconds, hashToken, newToken } from '../src/domain/auth/tokens';
import { getAccountToken, putAccountToken } from '../src/stores/account-tokens';
import { orgItem } from '../src/stores/tree';
import { call, createOwnOrganization, createUser, signIn, stack, users } from './support/api';

const PASSWORD_HINT =
  'Must be 8+ characters long and contain at least 1 upper case letter, 1 number, 1 special character';
const INVITE_EXPIRED = 'Please request Admin the link has expired';
const NEW_PASSWORD = 'Fresh-Passw0rd!';

const freshEmail = (prefix = 'invitee') => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;

/** The newest captured mail to this address, waiting briefly for it. */
async function mailTo(email: string) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const found = readMailbox(stack.mailDir).find((m) => m.to.includes(email));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No mail to ${email}`);
}

function linkIn(
  text: string | undefined,
  route: 'register' | 'forgetPassword',
): { url: string; token: string } {
  const match = new RegExp(`(\\S+/${route}/([A-Za-z0-9_-]+))`).exec(text ?? '');
  if (!match?.[1] || !match[2]) throw new Error(`No ${route} link in ${text}`);
  return { url: match[1], token: match[2] };
}

async function invite(
  email: string,
  organizationId: string | string[] = 'org-demo',
  who = 'admin@example.com',
) {
  const { accessToken } = await signIn(who);
  return call('/api/dashboard/sendInviteUserEmail', { email, organizationId }, { token: accessToken });
}

async function invitedToken(email: string, organizationId: string | string[] = 'org-demo') {
  const sent = await invite(email, organizationId);
  expect(sent.status).toBe(200);
  return linkIn((await mailTo(email.toLowerCase())).text, 'register').token;
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
    const sent = await invite(`  ${email.toUpperCase()} `, ['org-demo'], 'admin@example.com');
    expect(sent.status).toBe(200);

    const mail = await mailTo(email);
    expect(mail.to).toEqual([email]);
    expect(mail.subject).toMatch(/invited/i);
    const { url, token } = linkIn(mail.text, 'register');
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
    const tree = await call<unknown[]>(
      '/api/dashboard/getUsersOrganisations',
      {},
      { token: session.accessToken },
    );
    expect(JSON.stringify(tree.body)).toContain('Demo Org');
    expect(JSON.stringify(tree.body)).not.toContain('Other Org');

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
    expect(await call('/api/confirmUser', { userToken: 'never-issued' })).toMatchObject({ status: 410 });
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
      (await call('/api/registerUser', { user: { userName: 'X', password: NEW_PASSWORD, email } })).status,
    ).toBe(400);
  });

  it('lets an existing account accept an invite with its own password, adding the organization', async () => {
    const existing = await createUser(1, ['org-other'], 'Existing Person');
    const token = await invitedToken(existing.email);
    expect(await register(token, existing.email, 'Wrong-Passw0rd!')).toMatchObject({ status: 400 });
    const accepted = await register(token, existing.email, existing.password);
    expect(accepted.status).toBe(200);
    const record = await users.get(existing.userId);
    // The invitation adds the new organization read-only; the role the user had stays.
    expect(record).toMatchObject({ userName: 'Existing Person' });
    expect(record?.orgRoles).toEqual({ 'org-other': 1, 'org-demo': 0 });
  });

  it('refuses invites from roles below admin, to foreign organizations, with bad e-mails or for members', async () => {
    const email = freshEmail();
    for (const who of ['viewer@example.com', 'editor@example.com']) {
      expect(await invite(email, 'org-demo', who)).toMatchObject({ status: 403 });
    }
    // An organization the admin is not in is answered like one that does not exist.
    const unknown = await invite(email, 'org-never-heard-of');
    expect(unknown).toMatchObject({ status: 404, body: { message: 'Organization not found.' } });
    expect(await invite(email, 'org-other')).toMatchObject({ status: 404, body: unknown.body });
    expect(await invite(email, ['org-demo', 'org-other'])).toMatchObject({ status: 404, body: unknown.body });
    expect(await invite(email, [])).toMatchObject({ status: 400 });
    expect(await invite('not-an-email')).toMatchObject({
      status: 400,
      body: { message: 'Please Enter valid email.' },
    });
    expect(await invite('')).toMatchObject({
      status: 400,
      body: { message: 'Please enter an email address' },
    });
    expect(await invite('Viewer@Example.com')).toMatchObject({
      status: 409,
      body: { message: 'User already exist in the organization.' },
    });
    expect(readMailbox(stack.mailDir).some((m) => m.to.includes(email))).toBe(false);
    // The platform owner may invite to any of their organizations.
    expect(await invite(email, ['org-demo', 'org-other'], 'owner@example.com')).toMatchObject({
      status: 200,
    });
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
    const { token } = linkIn((await mailTo(email)).text, 'register');
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
    await call(
      '/api/dashboard/sendInviteUserEmail',
      { email, organizationId: orgId },
      { token: accessToken },
    );
    const { token } = linkIn((await mailTo(email)).text, 'register');
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
    const mail = await mailTo(email);
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
    const mail = await mailTo(user.email);
    const { url, token } = linkIn(mail.text, 'forgetPassword');
    expect(url).toBe(`${stack.env.APP_ORIGIN}/forgetPassword/${token}`);
    const stored = await getAccountToken(hashToken(token));
    expect(stored).toMatchObject({ kind: 'reset', email: user.email });
    expect(Math.abs((stored?.expiresAt ?? 0) - (epochSeconds(new Date()) + 3600))).toBeLessThan(60);
    expect(readMailbox(stack.mailDir).some((m) => m.to.includes(unknown))).toBe(false);

    // A reset token is no invite.
    expect(await register(token, user.email)).toMatchObject({ status: 410 });

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
    expect(await reset(token, 'Another-Passw0rd!')).toMatchObject({ status: 410 });
  });

  it('makes every earlier reset link unusable when a newer one is sent', async () => {
    const user = await createUser(0, ['org-demo']);
    expect((await forgot(user.email)).status).toBe(200);
    const first = linkIn((await mailTo(user.email)).text, 'forgetPassword').token;
    expect((await forgot(user.email)).status).toBe(200);
    const links = async () =>
      readMailbox(stack.mailDir)
        .filter((m) => m.to.includes(user.email))
        .map((m) => linkIn(m.text, 'forgetPassword').token);
    await expect.poll(async () => (await links()).length).toBe(2);
    const second = (await links()).find((token) => token !== first) ?? '';
    expect(await reset(first, NEW_PASSWORD)).toMatchObject({ status: 410 });
    expect((await call('/api/confirmUser', { userToken: first })).status).toBe(410);
    expect(await reset(second, NEW_PASSWORD)).toMatchObject({ status: 200 });
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
    expect(await reset(token, NEW_PASSWORD)).toMatchObject({ status: 410 });
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
      (await call('/api/changepassword', { oldpassword: NEW_PASSWORD, password: 'X-Passw0rd!' })).status,
    ).toBe(401);
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

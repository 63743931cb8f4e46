import { request as httpRequest } from 'node:http';
import { deflateSync, crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { ManagedUser } from '../src/domain/users/administration';
import { LOGO_MAX_BYTES, uploadOrgLogo } from '../src/domain/users/org-logo';
import { s3LogoStore } from '../src/stores/files';
import { call, createUser, signIn, stack, type TestUser, users } from './support/api';

const USERS_UNAUTHORIZED = { message: 'User is unAuthorized' };

/** A valid PNG of a single pixel of the given colour. */
function png(rgb: [number, number, number] = [200, 30, 30]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([0, ...rgb]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const dataUrl = (bytes: Buffer, type = 'image/png') => `data:${type};base64,${bytes.toString('base64')}`;

async function tokenOf(email: string, password?: string) {
  return (await signIn(email, password)).accessToken;
}

async function fetchUsers(token: string, body: Record<string, unknown> = {}) {
  return call<{ users: ManagedUser[] }>('/api/fetchUsers', body, { token });
}

const signInAs = (user: TestUser) => tokenOf(user.email, user.password);

/**
 * Status of a POST on a connection of its own: the server answers an oversized body early and drops
 * the connection, which must not be handed back to the shared keep-alive pool.
 */
function statusOnOwnConnection(path: string, token: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${stack.url}${path}`,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    // The server may close before it has read everything; the status has been received by then.
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    request.end(body);
  });
}

describe('/api/fetchUsers', () => {
  it('lists the users who share an organization with the admin, with only the shared organizations', async () => {
    const member = await createUser(1, ['org-demo'], 'Mia Member');
    const both = await createUser(0, ['org-demo', 'org-other'], 'Bo Both');
    const foreign = await createUser(1, ['org-other'], 'Fay Foreign');

    const result = await fetchUsers(await tokenOf('admin@example.com'));
    expect(result.status).toBe(200);
    const byEmail = new Map(result.body.users.map((u) => [u.email, u]));
    expect(byEmail.get(member.email)).toEqual({
      id: member.userId,
      userName: 'Mia Member',
      email: member.email,
      roles: 1,
      org: ['org-demo'],
      orgRoles: { 'org-demo': 1 },
      otherOrgCount: 0,
      editable: true,
      deletable: true,
    });
    // The organization the admin does not run is counted, never named; such a user cannot be deleted here.
    expect(byEmail.get(both.email)).toMatchObject({ org: ['org-demo'], otherOrgCount: 1, deletable: false });
    expect(byEmail.has(foreign.email)).toBe(false);
    expect(byEmail.has('other@example.com')).toBe(false);
    // The admin sees themselves, not editable; the platform owner (a higher role) is not editable either.
    expect(byEmail.get('admin@example.com')).toMatchObject({ editable: false, deletable: false });
    expect(byEmail.get('owner@example.com')).toMatchObject({ roles: 3, editable: false });
    const emails = result.body.users.map((u) => u.email);
    expect(emails).toEqual([...emails].sort((a, b) => a.localeCompare(b)));
  });

  it('keeps the membership lookup in step with the user record', async () => {
    const user = await createUser(0, ['org-demo']);
    expect(await users.memberIds('org-demo')).toContain(user.userId);
    expect(await users.memberIds('org-other')).not.toContain(user.userId);
  });

  it('filters by role when roles is given', async () => {
    const result = await fetchUsers(await tokenOf('admin@example.com'), { roles: 0 });
    expect(result.status).toBe(200);
    expect(result.body.users.length).toBeGreaterThan(0);
    expect(result.body.users.every((u) => u.roles === 0)).toBe(true);
  });

  it.each(['viewer@example.com', 'editor@example.com'])('refuses %s (role below 2)', async (email) => {
    const result = await fetchUsers(await tokenOf(email));
    expect(result.status).toBe(403);
    expect(result.body).toEqual(USERS_UNAUTHORIZED);
  });
});

describe('/api/setUserAccess', () => {
  const setAccess = (token: string, selectedUserId: string, role: number, editUserOrgIds: string[]) =>
    call<{ message: string; user: ManagedUser }>(
      '/api/setUserAccess',
      { selectedUserId, role, editUserOrgIds },
      { token },
    );

  it('changes the role at once, only in the organizations the admin administers', async () => {
    const target = await createUser(0, ['org-other', 'org-demo']);
    const targetToken = await signInAs(target);
    expect((await fetchUsers(targetToken)).status).toBe(403);

    const result = await setAccess(await tokenOf('admin@example.com'), target.userId, 2, ['org-demo']);
    expect(result.status).toBe(200);
    expect(result.body.message).toBe('User role updated.');
    expect(result.body.user).toMatchObject({ id: target.userId, roles: 2, org: ['org-demo'] });
    // The role belongs to the membership: still read-only in the organization the admin does not run.
    expect((await users.get(target.userId))?.orgRoles).toEqual({ 'org-other': 0, 'org-demo': 2 });
    // The promotion applies to the very next request of the same access token, in that organization only.
    expect((await fetchUsers(targetToken)).status).toBe(200);
    const otherOrgEdit = await call(
      '/api/dashboard/createOrUpdateOrgBuild',
      { orgID: 'org-other', buildName: 'Not mine' },
      { token: targetToken },
    );
    expect(otherOrgEdit.status).toBe(403);
    const session = await signIn(target.email, target.password);
    expect(session.user).toMatchObject({
      roles: 2,
      orgID: ['org-demo'],
      orgRoles: { 'org-other': 0, 'org-demo': 2 },
    });
  });

  it('lets an admin of one organization who is read-only in another manage users only in the first', async () => {
    const manager = await createUser({ 'org-other': 2, 'org-demo': 0 });
    const token = await signInAs(manager);
    const inDemo = await createUser(1, ['org-demo']);
    const inOther = await createUser(1, ['org-other']);
    const listed = (await fetchUsers(token)).body.users.map((u) => u.email);
    expect(listed).toContain(inOther.email);
    expect(listed).not.toContain(inDemo.email);
    expect((await setAccess(token, inOther.userId, 0, ['org-other'])).status).toBe(200);
    // A user only in the organization where the manager is read-only is answered like an unknown one.
    const refused = await setAccess(token, inDemo.userId, 0, []);
    const unknown = await setAccess(token, 'no-such-user', 0, []);
    expect([refused.status, refused.body]).toEqual([404, unknown.body]);
    expect((await setAccess(token, inOther.userId, 1, ['org-demo'])).status).toBe(403);
    expect((await users.get(inDemo.userId))?.orgRoles).toEqual({ 'org-demo': 1 });
    expect((await users.get(inOther.userId))?.orgRoles).toEqual({ 'org-other': 0 });
  });

  it("removes the user from the admin's organizations and the lookup follows", async () => {
    const target = await createUser(1, ['org-demo', 'org-other']);
    const result = await setAccess(await tokenOf('admin@example.com'), target.userId, 1, []);
    expect(result.status).toBe(200);
    expect((await users.get(target.userId))?.orgRoles).toEqual({ 'org-other': 1 });
    expect(await users.memberIds('org-demo')).not.toContain(target.userId);
    expect(await users.memberIds('org-other')).toContain(target.userId);
  });

  it('lets a platform owner grant role 3', async () => {
    const owner = await createUser(3, ['org-demo']);
    const target = await createUser(1, ['org-demo']);
    const result = await setAccess(await signInAs(owner), target.userId, 3, ['org-demo']);
    expect(result.status).toBe(200);
    expect((await users.get(target.userId))?.orgRoles).toEqual({ 'org-demo': 3 });
  });

  it('refuses every request outside the rules, and changes nothing', async () => {
    const admin = await tokenOf('admin@example.com');
    const target = await createUser(1, ['org-demo']);
    const foreign = await createUser(1, ['org-other']);
    const higher = await createUser(3, ['org-demo']);
    const adminRecord = (await signIn('admin@example.com')).user;

    const refusals: [string, () => ReturnType<typeof setAccess>, number][] = [
      ['role 3 (above the admin) by an admin', () => setAccess(admin, target.userId, 3, ['org-demo']), 403],
      [
        'an organization the admin does not run',
        () => setAccess(admin, target.userId, 1, ['org-other']),
        403,
      ],
      ['a user outside the admin organizations', () => setAccess(admin, foreign.userId, 0, []), 404],
      ['a user with a higher role', () => setAccess(admin, higher.userId, 0, ['org-demo']), 403],
      ['the admin themselves', () => setAccess(admin, adminRecord.id, 1, ['org-demo']), 403],
      ['a user that does not exist', () => setAccess(admin, 'no-such-user', 1, ['org-demo']), 404],
    ];
    for (const [what, request, status] of refusals) {
      const result = await request();
      expect(result.status, what).toBe(status);
      expect(result.body.message, what).toMatch(/\w/);
    }
    for (const email of ['viewer@example.com', 'editor@example.com']) {
      const result = await setAccess(await tokenOf(email), target.userId, 0, ['org-demo']);
      expect(result.status, email).toBe(403);
    }
    expect((await users.get(target.userId))?.orgRoles).toEqual({ 'org-demo': 1 });
    expect((await users.get(foreign.userId))?.orgRoles).toEqual({ 'org-other': 1 });
    expect((await users.get(higher.userId))?.orgRoles).toEqual({ 'org-demo': 3 });
    expect((await users.get(adminRecord.id))?.orgRoles).toEqual({ 'org-demo': 2 });
  });

  it('refuses an invalid role with 400', async () => {
    const target = await createUser(1, ['org-demo']);
    const result = await setAccess(await tokenOf('admin@example.com'), target.userId, 4, ['org-demo']);
    expect(result.status).toBe(400);
  });
});

describe('/api/deleteUser', () => {
  const deleteUsers = (token: string, selectedRowDataIds: string[]) =>
    call('/api/deleteUser', { selectedRowDataIds }, { token });

  it('deletes the identity and the record; the deleted user is refused at the next request', async () => {
    const first = await createUser(1, ['org-demo']);
    const second = await createUser(0, ['org-demo']);
    const firstToken = await signInAs(first);
    expect((await call('/api/dashboard/getUsersOrganisations', {}, { token: firstToken })).status).toBe(200);

    const result = await deleteUsers(await tokenOf('admin@example.com'), [first.userId, second.userId]);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ message: 'User deleted successfully.' });

    expect(await users.get(first.userId)).toBeUndefined();
    expect(await users.get(second.userId)).toBeUndefined();
    expect(await users.memberIds('org-demo')).not.toContain(first.userId);
    expect((await call('/api/dashboard/getUsersOrganisations', {}, { token: firstToken })).status).toBe(401);
    const again = await call('/api/login', { user: { email: first.email, password: first.password } });
    expect(again.status).toBe(401);
  });

  it('refuses the whole request when any user is out of scope, and deletes nobody', async () => {
    const admin = await tokenOf('admin@example.com');
    const inScope = await createUser(1, ['org-demo']);
    const foreign = await createUser(1, ['org-other']);
    const shared = await createUser(1, ['org-demo', 'org-other']);
    const higher = await createUser(3, ['org-demo']);
    const self = (await signIn('admin@example.com')).user.id;

    for (const [what, outOfScope, status] of [
      ['a user outside the admin organizations', foreign.userId, 404],
      ['a user also in an organization the admin does not run', shared.userId, 403],
      ['a user with a higher role', higher.userId, 403],
      ['the admin themselves', self, 403],
    ] as const) {
      const result = await deleteUsers(admin, [inScope.userId, outOfScope]);
      expect(result.status, what).toBe(status);
    }
    expect((await deleteUsers(admin, [inScope.userId, 'no-such-user'])).status).toBe(404);
    for (const email of ['viewer@example.com', 'editor@example.com']) {
      expect((await deleteUsers(await tokenOf(email), [inScope.userId])).status, email).toBe(403);
    }
    for (const user of [inScope, foreign, shared, higher]) expect(await users.get(user.userId)).toBeDefined();
    expect(await users.get(self)).toBeDefined();
    // The identity is still there too.
    expect(
      (await call('/api/login', { user: { email: inScope.email, password: inScope.password } })).status,
    ).toBe(200);
  });

  it('lets a platform owner of both organizations delete a user in both', async () => {
    const owner = await createUser(3, ['org-demo', 'org-other']);
    const shared = await createUser(1, ['org-demo', 'org-other']);
    expect((await deleteUsers(await signInAs(owner), [shared.userId])).status).toBe(200);
    expect(await users.get(shared.userId)).toBeUndefined();
  });
});

describe('organization logos', () => {
  const upload = (token: string, file: string, org: string) =>
    call('/api/dashboard/setOrgLogo', { file, org }, { token });
  const logoOf = (token: string, orgID: string) =>
    call<{ data: string; logoType: string }>('/api/dashboard/getOrgLogoFromS3', { orgID }, { token });

  it('stores a PNG for an organization of the admin; every member reads it as a data URL', async () => {
    const logo = png([10, 120, 200]);
    // The declared type is ignored: the content decides.
    const result = await upload(await tokenOf('other@example.com'), dataUrl(logo, 'text/plain'), 'org-other');
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      message: 'Organization Logo uploaded successfully.',
      logoType: 'image/png',
    });

    const reader = await createUser(0, ['org-other']);
    const read = await logoOf(await signInAs(reader), 'org-other');
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ data: dataUrl(logo), logoType: 'image/png' });
  });

  it('answers 404 for an organization without a logo, and the same for one the user is not in', async () => {
    const owner = await createUser(3, ['org-demo', 'org-without-logo']);
    const none = await logoOf(await signInAs(owner), 'org-without-logo');
    expect(none.status).toBe(404);
    const viewer = await tokenOf('viewer@example.com');
    const foreign = await logoOf(viewer, 'org-other');
    expect([foreign.status, foreign.body]).toEqual([404, none.body]);
  });

  it('refuses non-images whatever they claim to be', async () => {
    const admin = await tokenOf('other@example.com');
    const pngHeaderOnText = Buffer.concat([png().subarray(0, 8), Buffer.from('not really an image at all')]);
    const renamedText = Buffer.from('Hello, this is a text file renamed logo.png\n');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    for (const [what, file] of [
      ['a PNG header on a non-image', dataUrl(pngHeaderOnText)],
      ['a renamed text file', dataUrl(renamedText)],
      ['an SVG', dataUrl(svg, 'image/svg+xml')],
      ['not a data URL', 'hello'],
      ['broken base64', 'data:image/png;base64,@@@@'],
    ] as const) {
      const result = await upload(admin, file, 'org-other');
      expect(result.status, what).toBe(400);
      expect(result.body, what).toEqual({ message: 'Invalid file type' });
    }
  });

  it('refuses a logo above 10,000,000 bytes', async () => {
    // Through the API, such a body is above the 10 MB API Gateway limit and never reaches the handler.
    const admin = await tokenOf('other@example.com');
    const tooLarge = Buffer.concat([png(), Buffer.alloc(LOGO_MAX_BYTES)]);
    const body = JSON.stringify({ file: dataUrl(tooLarge), org: 'org-other' });
    expect(await statusOnOwnConnection('/api/dashboard/setOrgLogo', admin, body)).toBe(413);
    // The use case enforces the documented limit itself, with the documented text.
    const record = await users.get((await signIn('other@example.com')).user.id);
    if (!record) throw new Error('no record');
    await expect(
      uploadOrgLogo({ logos: s3LogoStore }, record, 'org-other', dataUrl(tooLarge)),
    ).rejects.toMatchObject({
      kind: 'validation',
      message: 'File size too large!.',
    });
  });

  it('refuses a wrong organization and callers below role 2', async () => {
    const logo = dataUrl(png());
    const admin = await tokenOf('admin@example.com');
    const foreign = await upload(admin, logo, 'org-other');
    const unknown = await upload(admin, logo, 'org-never-heard-of');
    expect([foreign.status, foreign.body]).toEqual([404, unknown.body]);
    expect(unknown.status).toBe(404);
    for (const email of ['viewer@example.com', 'editor@example.com']) {
      const result = await upload(await tokenOf(email), logo, 'org-demo');
      expect(result.status, email).toBe(403);
    }
  });
});

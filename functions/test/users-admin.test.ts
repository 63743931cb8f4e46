import { describe, expect, it } from 'vitest';
import type { ManagedUser } from '../src/domain/users/administration';
import { call, createUser, signIn, type TestUser, users } from './support/api';

const USERS_UNAUTHORIZED = { message: 'User is unAuthorized' };

async function tokenOf(email: string, password?: string) {
  return (await signIn(email, password)).accessToken;
}

async function fetchUsers(token: string, body: Record<string, unknown> = {}) {
  return call<{ users: ManagedUser[] }>('/api/fetchUsers', body, { token });
}

const signInAs = (user: TestUser) => tokenOf(user.email, user.password);

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

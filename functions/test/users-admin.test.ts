import { describe, expect, it } from 'vitest';
import {
  BEYOND_YOUR_ORGANIZATIONS,
  CANNOT_CHANGE_YOURSELF,
  type ManagedUser,
  ONLY_YOUR_ORGANIZATIONS,
  ROLE_ABOVE_YOURS,
  USER_NOT_FOUND,
} from '../src/domain/users/administration';
import { call, createOwnOrganization, createUser, signIn, type TestUser, users } from './support/api';

const USERS_UNAUTHORIZED = { message: 'User is unAuthorized' };

async function tokenOf(email: string, password?: string) {
  return (await signIn(email, password)).accessToken;
}

async function fetchUsers(token: string, body: Record<string, unknown> = {}) {
  return call<{ users: ManagedUser[] }>('/api/fetchUsers', body, { token });
}

const signInAs = (user: TestUser) => tokenOf(user.email, user.password);
const INVALID_ROLE = 'role is too long or too large.';

/** An administrator (role 2, or 3) of a fresh organization of their own, signed in, for one test. */
async function adminOfFreshOrg(role: 2 | 3 = 2, userName = 'Ada Admin') {
  const admin = await createUser(role, [], userName);
  const orgId = await createOwnOrganization(admin.userId, role, 'Managed Org');
  return { ...admin, orgId, token: await signInAs(admin) };
}

/** An organization the administrator of the test is not in (run by someone else). */
async function foreignOrg(): Promise<string> {
  const stranger = await createUser(2, []);
  return createOwnOrganization(stranger.userId, 2, 'Foreign Org');
}

describe('/api/fetchUsers', () => {
  it('lists the users who share an organization with the admin, with only the shared organizations', async () => {
    const admin = await adminOfFreshOrg();
    const other = await foreignOrg();
    const member = await createUser(1, [admin.orgId], 'Mia Member');
    const both = await createUser(0, [admin.orgId, other], 'Bo Both');
    // Not listed: only in an organization the admin is not in.
    await createUser(1, [other], 'Fay Foreign');
    const higher = await createUser(3, [admin.orgId], 'Olly Owner');

    const result = await fetchUsers(admin.token);
    expect(result.status).toBe(200);
    const managed = (
      user: TestUser,
      userName: string,
      role: 0 | 1 | 2 | 3,
      rest: Partial<ManagedUser> = {},
    ): ManagedUser => ({
      id: user.userId,
      userName,
      email: user.email,
      roles: role,
      org: [admin.orgId],
      orgRoles: { [admin.orgId]: role },
      otherOrgCount: 0,
      editable: true,
      deletable: true,
      ...rest,
    });
    expect(result.body.users).toEqual(
      [
        // The admin sees themselves, not editable; a user with a higher role is not editable either.
        managed(admin, 'Ada Admin', 2, { editable: false, deletable: false }),
        managed(member, 'Mia Member', 1),
        // The organization the admin does not run is counted, never named; such a user cannot be deleted here.
        managed(both, 'Bo Both', 0, { otherOrgCount: 1, deletable: false }),
        managed(higher, 'Olly Owner', 3, { editable: false, deletable: false }),
      ].sort((a, b) => a.email.localeCompare(b.email)),
    );
  });

  it('keeps the membership lookup in step with the user record', async () => {
    const admin = await adminOfFreshOrg();
    const other = await foreignOrg();
    const user = await createUser(0, [admin.orgId]);
    expect((await users.memberIds(admin.orgId)).sort()).toEqual([admin.userId, user.userId].sort());
    expect(await users.memberIds(other)).not.toContain(user.userId);
  });

  it('filters by role when roles is given', async () => {
    const admin = await adminOfFreshOrg();
    const readers = [await createUser(0, [admin.orgId]), await createUser(0, [admin.orgId])];
    await createUser(1, [admin.orgId]);
    const result = await fetchUsers(admin.token, { roles: 0 });
    expect(result.status).toBe(200);
    expect(result.body.users.map((u) => [u.email, u.roles])).toEqual(
      readers.map((u) => [u.email, 0]).sort(([a], [b]) => String(a).localeCompare(String(b))),
    );
  });

  it.each([0, 1] as const)('refuses role %i (below 2)', async (role) => {
    const user = await createUser(role, ['org-demo']);
    const result = await fetchUsers(await signInAs(user));
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
    const admin = await adminOfFreshOrg();
    const other = await foreignOrg();
    const target = await createUser(0, [other, admin.orgId]);
    const targetToken = await signInAs(target);
    expect((await fetchUsers(targetToken)).status).toBe(403);

    const result = await setAccess(admin.token, target.userId, 2, [admin.orgId]);
    expect(result.status).toBe(200);
    expect(result.body.message).toBe('User role updated.');
    expect(result.body.user).toMatchObject({ id: target.userId, roles: 2, org: [admin.orgId] });
    // The role belongs to the membership: still read-only in the organization the admin does not run.
    expect((await users.get(target.userId))?.orgRoles).toEqual({ [other]: 0, [admin.orgId]: 2 });
    // The promotion applies to the very next request of the same access token, in that organization only.
    expect((await fetchUsers(targetToken)).status).toBe(200);
    const otherOrgEdit = await call(
      '/api/dashboard/createOrUpdateOrgBuild',
      { orgID: other, buildName: 'Not mine' },
      { token: targetToken },
    );
    expect(otherOrgEdit).toMatchObject({ status: 403, body: USERS_UNAUTHORIZED });
    const session = await signIn(target.email, target.password);
    expect(session.user).toMatchObject({
      roles: 2,
      orgID: [admin.orgId],
      orgRoles: { [other]: 0, [admin.orgId]: 2 },
    });
  });

  it('lets an admin of one organization who is read-only in another manage users only in the first', async () => {
    const first = await foreignOrg();
    const manager = await createUser(0, [first]);
    const second = await createOwnOrganization(manager.userId, 2, 'Managed Org');
    const token = await signInAs(manager);
    const inFirst = await createUser(1, [first]);
    const inSecond = await createUser(1, [second]);
    expect((await fetchUsers(token)).body.users.map((u) => u.email).sort()).toEqual(
      [manager.email, inSecond.email].sort(),
    );
    expect((await setAccess(token, inSecond.userId, 0, [second])).status).toBe(200);
    // A user only in the organization where the manager is read-only is answered like an unknown one.
    const refused = await setAccess(token, inFirst.userId, 0, []);
    const unknown = await setAccess(token, 'no-such-user', 0, []);
    expect([refused.status, refused.body]).toEqual([404, { message: USER_NOT_FOUND }]);
    expect(unknown.body).toEqual(refused.body);
    expect(await setAccess(token, inSecond.userId, 1, [first])).toMatchObject({
      status: 403,
      body: { message: ONLY_YOUR_ORGANIZATIONS },
    });
    expect((await users.get(inFirst.userId))?.orgRoles).toEqual({ [first]: 1 });
    expect((await users.get(inSecond.userId))?.orgRoles).toEqual({ [second]: 0 });
  });

  it("removes the user from the admin's organizations and the lookup follows", async () => {
    const admin = await adminOfFreshOrg();
    const other = await foreignOrg();
    const target = await createUser(1, [admin.orgId, other]);
    const result = await setAccess(admin.token, target.userId, 1, []);
    expect(result.status).toBe(200);
    expect((await users.get(target.userId))?.orgRoles).toEqual({ [other]: 1 });
    expect(await users.memberIds(admin.orgId)).toEqual([admin.userId]);
    expect(await users.memberIds(other)).toContain(target.userId);
  });

  it('lets a platform owner grant role 3', async () => {
    const owner = await adminOfFreshOrg(3);
    const target = await createUser(1, [owner.orgId]);
    const result = await setAccess(owner.token, target.userId, 3, [owner.orgId]);
    expect(result.status).toBe(200);
    expect((await users.get(target.userId))?.orgRoles).toEqual({ [owner.orgId]: 3 });
  });

  it('refuses every request outside the rules, and changes nothing', async () => {
    const admin = await adminOfFreshOrg();
    const other = await foreignOrg();
    const target = await createUser(1, [admin.orgId]);
    const foreign = await createUser(1, [other]);
    const higher = await createUser(3, [admin.orgId]);

    const refusals: [string, () => ReturnType<typeof setAccess>, number, string][] = [
      [
        'role 3 (above the admin) by an admin',
        () => setAccess(admin.token, target.userId, 3, [admin.orgId]),
        403,
        ROLE_ABOVE_YOURS,
      ],
      [
        'an organization the admin does not run',
        () => setAccess(admin.token, target.userId, 1, [other]),
        403,
        ONLY_YOUR_ORGANIZATIONS,
      ],
      [
        'a user outside the admin organizations',
        () => setAccess(admin.token, foreign.userId, 0, []),
        404,
        USER_NOT_FOUND,
      ],
      [
        'a user with a higher role',
        () => setAccess(admin.token, higher.userId, 0, [admin.orgId]),
        403,
        USERS_UNAUTHORIZED.message,
      ],
      [
        'the admin themselves',
        () => setAccess(admin.token, admin.userId, 1, [admin.orgId]),
        403,
        CANNOT_CHANGE_YOURSELF,
      ],
      [
        'a user that does not exist',
        () => setAccess(admin.token, 'no-such-user', 1, [admin.orgId]),
        404,
        USER_NOT_FOUND,
      ],
    ];
    for (const [what, request, status, message] of refusals) {
      const result = await request();
      expect({ what, status: result.status, body: result.body }).toEqual({ what, status, body: { message } });
    }
    for (const role of [0, 1] as const) {
      const below = await signInAs(await createUser(role, [admin.orgId]));
      const result = await setAccess(below, target.userId, 0, [admin.orgId]);
      expect({ role, status: result.status, body: result.body }).toEqual({
        role,
        status: 403,
        body: USERS_UNAUTHORIZED,
      });
    }
    expect((await users.get(target.userId))?.orgRoles).toEqual({ [admin.orgId]: 1 });
    expect((await users.get(foreign.userId))?.orgRoles).toEqual({ [other]: 1 });
    expect((await users.get(higher.userId))?.orgRoles).toEqual({ [admin.orgId]: 3 });
    expect((await users.get(admin.userId))?.orgRoles).toEqual({ [admin.orgId]: 2 });
  });

  it('refuses an invalid role with 400', async () => {
    const admin = await adminOfFreshOrg();
    const target = await createUser(1, [admin.orgId]);
    const result = await setAccess(admin.token, target.userId, 4, [admin.orgId]);
    expect(result).toMatchObject({ status: 400, body: { message: INVALID_ROLE } });
    expect((await users.get(target.userId))?.orgRoles).toEqual({ [admin.orgId]: 1 });
  });
});

describe('/api/deleteUser', () => {
  const deleteUsers = (token: string, selectedRowDataIds: string[]) =>
    call('/api/deleteUser', { selectedRowDataIds }, { token });

  it('deletes the identity and the record; the deleted user is refused at the next request', async () => {
    const admin = await adminOfFreshOrg();
    const first = await createUser(1, [admin.orgId]);
    const second = await createUser(0, [admin.orgId]);
    const firstToken = await signInAs(first);
    expect((await call('/api/dashboard/getUsersOrganisations', {}, { token: firstToken })).status).toBe(200);

    const result = await deleteUsers(admin.token, [first.userId, second.userId]);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ message: 'User deleted successfully.' });

    expect(await users.get(first.userId)).toBeUndefined();
    expect(await users.get(second.userId)).toBeUndefined();
    expect(await users.memberIds(admin.orgId)).toEqual([admin.userId]);
    expect(await call('/api/dashboard/getUsersOrganisations', {}, { token: firstToken })).toMatchObject({
      status: 401,
      body: USERS_UNAUTHORIZED,
    });
    const again = await call('/api/login', { user: { email: first.email, password: first.password } });
    expect(again.status).toBe(401);
  });

  it('refuses the whole request when any user is out of scope, and deletes nobody', async () => {
    const admin = await adminOfFreshOrg();
    const other = await foreignOrg();
    const inScope = await createUser(1, [admin.orgId]);
    const foreign = await createUser(1, [other]);
    const shared = await createUser(1, [admin.orgId, other]);
    const higher = await createUser(3, [admin.orgId]);

    for (const [what, outOfScope, status, message] of [
      ['a user outside the admin organizations', foreign.userId, 404, USER_NOT_FOUND],
      [
        'a user also in an organization the admin does not run',
        shared.userId,
        403,
        BEYOND_YOUR_ORGANIZATIONS,
      ],
      ['a user with a higher role', higher.userId, 403, USERS_UNAUTHORIZED.message],
      ['the admin themselves', admin.userId, 403, CANNOT_CHANGE_YOURSELF],
      ['a user that does not exist', 'no-such-user', 404, USER_NOT_FOUND],
    ] as const) {
      const result = await deleteUsers(admin.token, [inScope.userId, outOfScope]);
      expect({ what, status: result.status, body: result.body }).toEqual({ what, status, body: { message } });
    }
    for (const role of [0, 1] as const) {
      const below = await signInAs(await createUser(role, [admin.orgId]));
      const result = await deleteUsers(below, [inScope.userId]);
      expect({ role, status: result.status, body: result.body }).toEqual({
        role,
        status: 403,
        body: USERS_UNAUTHORIZED,
      });
    }
    for (const user of [admin, inScope, foreign, shared, higher]) {
      expect((await users.get(user.userId))?.email).toBe(user.email);
    }
    // The identity is still there too.
    expect(
      (await call('/api/login', { user: { email: inScope.email, password: inScope.password } })).status,
    ).toBe(200);
  });

  it('lets a platform owner of both organizations delete a user in both', async () => {
    const owner = await adminOfFreshOrg(3);
    const other = await createOwnOrganization(owner.userId, 3, 'Second Org');
    const shared = await createUser(1, [owner.orgId, other]);
    expect((await deleteUsers(owner.token, [shared.userId])).status).toBe(200);
    expect(await users.get(shared.userId)).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors';
import {
  BEYOND_YOUR_ORGANIZATIONS,
  CANNOT_CHANGE_YOURSELF,
  deleteUsers,
  listManagedUsers,
  ROLE_ABOVE_YOURS,
  setUserAccess,
  USER_NOT_FOUND,
} from '../../../src/domain/users/administration';
import { USER_CHANGED_MEANWHILE } from '../../../src/domain/users/update';
import type { UserRecord } from '../../../src/domain/users/user';
import { memoryUserStore, testClock } from '../../support/fakes/memory-stores';

const record = (userId: string, orgRoles: UserRecord['orgRoles']): UserRecord => ({
  userId,
  email: `${userId}@example.com`,
  userName: userId,
  orgRoles,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  version: 1,
});

/** User administration on the in-memory user store: an admin of org-a, members here and elsewhere. */
async function scene() {
  const users = memoryUserStore();
  const admin = record('admin', { 'org-a': 2 });
  const people = [
    admin,
    record('bea', { 'org-a': 1 }),
    record('cal', { 'org-a': 0, 'org-x': 2 }),
    record('dan', { 'org-x': 1 }),
    record('eve', { 'org-a': 3 }),
  ];
  for (const person of people) await users.saveIfUnchanged(person, undefined);
  const revoked: { userId: string; orgIds: readonly string[] }[] = [];
  const deletedIdentities: string[] = [];
  const deps = {
    users,
    clock: testClock(),
    realtime: {
      revoke: async (userId: string, orgIds: readonly string[]) => void revoked.push({ userId, orgIds }),
    },
    identity: { deleteUser: async (email: string) => void deletedIdentities.push(email) },
  };
  return { deps, admin, users, revoked, deletedIdentities };
}

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return { kind: (error as DomainError).kind, message: (error as DomainError).message };
};

describe('user administration (use cases on fakes)', () => {
  it("lists only the users of the admin's organizations, by e-mail, showing only those organizations", async () => {
    const { deps, admin } = await scene();
    const listed = await listManagedUsers(deps, admin);
    expect(listed.map((u) => u.id)).toEqual(['admin', 'bea', 'cal', 'eve']);
    expect(listed.find((u) => u.id === 'cal')).toMatchObject({
      org: ['org-a'],
      otherOrgCount: 1,
      deletable: false,
    });
    expect(listed.find((u) => u.id === 'eve')).toMatchObject({ editable: false });
  });

  it("changes a role only in the admin's organizations, leaving the others as they were, and revokes what was lowered", async () => {
    const { deps, admin, users, revoked } = await scene();
    await setUserAccess(deps, admin, { userId: 'cal', role: 1, orgIds: ['org-a'] });
    expect((await users.get('cal'))?.orgRoles).toEqual({ 'org-a': 1, 'org-x': 2 });
    expect(revoked).toEqual([]);
    await setUserAccess(deps, admin, { userId: 'cal', role: 0, orgIds: [] });
    expect((await users.get('cal'))?.orgRoles).toEqual({ 'org-x': 2 });
    expect(await users.memberIds('org-a')).not.toContain('cal');
    expect(revoked).toEqual([{ userId: 'cal', orgIds: ['org-a'] }]);
  });

  it('answers a user of other organizations exactly like an unknown one, and refuses roles above the own', async () => {
    const { deps, admin } = await scene();
    const unknown = await refusal(setUserAccess(deps, admin, { userId: 'zed', role: 1, orgIds: ['org-a'] }));
    expect(await refusal(setUserAccess(deps, admin, { userId: 'dan', role: 1, orgIds: ['org-a'] }))).toEqual(
      unknown,
    );
    expect(unknown).toEqual({ kind: 'not-found', message: USER_NOT_FOUND });
    expect(await refusal(setUserAccess(deps, admin, { userId: 'bea', role: 3, orgIds: ['org-a'] }))).toEqual({
      kind: 'forbidden',
      message: ROLE_ABOVE_YOURS,
    });
    expect(
      await refusal(setUserAccess(deps, admin, { userId: 'admin', role: 1, orgIds: ['org-a'] })),
    ).toEqual({
      kind: 'forbidden',
      message: CANNOT_CHANGE_YOURSELF,
    });
  });

  it('answers 409 when the record changed after it was read, saving nothing', async () => {
    const { deps, admin, users } = await scene();
    const racing = {
      ...users,
      // Another admin's change lands between this request's read and its write.
      get: async (userId: string) => {
        const read = await users.get(userId);
        if (read)
          await users.saveIfUnchanged({ ...read, userName: 'Renamed', version: read.version + 1 }, read);
        return read;
      },
    };
    expect(
      await refusal(
        setUserAccess({ ...deps, users: racing }, admin, { userId: 'bea', role: 0, orgIds: ['org-a'] }),
      ),
    ).toEqual({ kind: 'conflict', message: USER_CHANGED_MEANWHILE });
    expect((await users.get('bea'))?.orgRoles).toEqual({ 'org-a': 1 });
  });

  it('deletes all or none: a user shared with other organizations stops the whole request', async () => {
    const { deps, admin, users, deletedIdentities } = await scene();
    expect(await refusal(deleteUsers(deps, admin, ['bea', 'cal']))).toEqual({
      kind: 'forbidden',
      message: BEYOND_YOUR_ORGANIZATIONS,
    });
    expect(await users.get('bea')).toBeDefined();
    expect(deletedIdentities).toEqual([]);
    await deleteUsers(deps, admin, ['bea']);
    expect(await users.get('bea')).toBeUndefined();
    expect(deletedIdentities).toEqual(['bea@example.com']);
  });
});

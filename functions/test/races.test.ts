import { describe, expect, it } from 'vitest';
import { call, createUser, signIn, users } from './support/api';

/**
 * Concurrent writes of one user record. Each scenario runs many times: a lost update shows up only
 * when the writes interleave, and on a 2-core machine that needs repetition.
 */
const ROUNDS = 12;

describe('concurrent writes of a user record', () => {
  it('never answers 5xx to concurrent renames, and keeps one of the names', async () => {
    const user = await createUser(1, ['org-demo']);
    const sessions = await Promise.all([1, 2, 3].map(() => signIn(user.email, user.password)));
    for (let round = 0; round < ROUNDS; round++) {
      const names = sessions.map((_, i) => `Name ${round}-${i}`);
      const results = await Promise.all(
        sessions.map((session, i) =>
          call('/api/changeUsername', { username: names[i] }, { token: session.accessToken }),
        ),
      );
      // Each rename is retried on a concurrent write: all succeed, the last one written stays.
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(names).toContain((await users.get(user.userId))?.userName);
    }
  });

  it('never undoes a demotion that answered 200 by a concurrent rename or sign-out', async () => {
    const admin = await createUser(2, ['org-demo']);
    const adminToken = (await signIn(admin.email, admin.password)).accessToken;
    for (let round = 0; round < ROUNDS; round++) {
      const target = await createUser(2, ['org-demo']);
      const session = await signIn(target.email, target.password);
      const before = Math.floor(Date.now() / 1000);
      const [demotion, rename, signOut] = await Promise.all([
        call(
          '/api/setUserAccess',
          { selectedUserId: target.userId, role: 0, editUserOrgIds: ['org-demo'] },
          { token: adminToken },
        ),
        call('/api/changeUsername', { username: `Renamed ${round}` }, { token: session.accessToken }),
        call('/api/userLogout', {}, { cookie: session.cookie }),
      ]);
      // The administrator's decision is taken on what they saw: it is saved, or refused with 409.
      expect([200, 409]).toContain(demotion.status);
      // Renamed, or refused because the sign-out came first.
      expect([200, 401]).toContain(rename.status);
      expect(signOut.status).toBe(200);
      const stored = await users.get(target.userId);
      expect(stored?.orgRoles).toEqual({ 'org-demo': demotion.status === 200 ? 0 : 2 });
      expect(stored?.userName).toBe(rename.status === 200 ? `Renamed ${round}` : 'Test User');
      // The sign-out is never lost either.
      expect(stored?.sessionsValidAfter).toBeGreaterThanOrEqual(before - 1);
      expect(stored?.sessionsValidAfter).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    }
  });

  it('refuses a write based on a stale read, so a concurrent change is never overwritten', async () => {
    const target = await createUser(1, ['org-demo']);
    const read = await users.get(target.userId);
    if (!read) throw new Error('no user');
    const demoted = { ...read, orgRoles: { 'org-demo': 0 as const }, version: read.version + 1 };
    const renamed = { ...read, userName: 'Stale', version: read.version + 1 };
    expect(await users.saveIfUnchanged(demoted, read)).toBe('saved');
    // The second writer read the same version: its write would undo the demotion.
    expect(await users.saveIfUnchanged(renamed, read)).toBe('changed-meanwhile');
    expect(await users.get(target.userId)).toMatchObject({
      orgRoles: { 'org-demo': 0 },
      userName: 'Test User',
    });
    // Creating a record that exists is refused the same way.
    expect(await users.saveIfUnchanged(renamed, undefined)).toBe('changed-meanwhile');
  });
});

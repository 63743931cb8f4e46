import { describe, expect, it } from 'vitest';
import { call, createUser, signInAs, users } from './support/api';

const INVALID = "theme must be one of 'light', 'dark' or 'system'.";

describe('the colour theme preference', () => {
  it('is light until chosen, saved for the caller only and returned with the session', async () => {
    const [alice, bob] = await Promise.all([createUser(0, ['org-demo']), createUser(1, [])]);
    const aliceSession = await signInAs(alice);
    expect(aliceSession.user).toMatchObject({ id: alice.userId, theme: 'light' });

    for (const theme of ['dark', 'system', 'light', 'dark'] as const) {
      expect(await call('/api/setTheme', { theme }, { token: aliceSession.accessToken })).toMatchObject({
        status: 200,
        body: { message: 'Theme saved.', data: { theme } },
      });
    }
    expect((await users.get(alice.userId))?.theme).toBe('dark');

    // Returned on the next sign-in (another device) and on the refresh that restores a session at load.
    expect((await signInAs(alice)).user.theme).toBe('dark');
    const refreshed = await call<{ user: { theme: string } }>(
      '/api/refreshToken',
      {},
      {
        cookie: aliceSession.cookie,
      },
    );
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.user.theme).toBe('dark');

    // A user without organizations sets their own theme; nobody else's changes.
    const bobSession = await signInAs(bob);
    expect(bobSession.user.theme).toBe('light');
    expect(await call('/api/setTheme', { theme: 'system' }, { token: bobSession.accessToken })).toMatchObject(
      {
        status: 200,
        body: { data: { theme: 'system' } },
      },
    );
    expect((await signInAs(alice)).user.theme).toBe('dark');
    expect((await signInAs(bob)).user.theme).toBe('system');
  });

  it("sets only the caller's own theme and refuses anything but the three values", async () => {
    const [alice, bob] = await Promise.all([createUser(2, ['org-demo']), createUser(0, ['org-demo'])]);
    const { accessToken } = await signInAs(alice);
    const setTheme = (body: unknown) => call('/api/setTheme', body, { token: accessToken });

    for (const theme of ['Dark', 'blue', '', 1, null, ['dark']]) {
      expect(await setTheme({ theme })).toMatchObject({ status: 400, body: { message: INVALID } });
    }
    expect(await setTheme({})).toMatchObject({ status: 400, body: { message: 'theme is required.' } });
    // No way to name another user: an extra field is refused, and bob keeps his theme.
    expect(await setTheme({ theme: 'dark', userId: bob.userId })).toMatchObject({
      status: 400,
      body: { message: "Unknown field 'userId' in request body." },
    });
    expect((await users.get(alice.userId))?.theme).toBeUndefined();
    expect((await users.get(bob.userId))?.theme).toBeUndefined();

    expect(await call('/api/setTheme', { theme: 'dark' })).toMatchObject({
      status: 401,
      body: { message: 'Unauthorized' },
    });
  });
});

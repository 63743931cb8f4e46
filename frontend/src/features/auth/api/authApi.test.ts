import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiEndpoint } from '@argentum/contracts/api-paths';
import { callApi, endSessionUnlessRenewed, SessionRefused } from '../../../shared/api/client';
import { sessionEndedByItself } from '../../../shared/session/sessionHint';
import { establishSession } from '../../../shared/session/sessionStore';
import { logout } from './authApi';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

describe('logout', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const assign = vi.fn<(url: string) => void>();
  const stored = new Map<string, string>();

  beforeEach(() => {
    fetchMock.mockReset();
    assign.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    vi.stubGlobal('window', { location: { assign }, isSecureContext: true });
    vi.stubGlobal('sessionStorage', {
      setItem: (key: string, value: string) => stored.set(key, value),
      getItem: (key: string) => stored.get(key) ?? null,
      removeItem: (key: string) => stored.delete(key),
    });
    vi.stubGlobal('document', { cookie: 'signedIn=1' });
    establishSession({
      accessToken: 'old',
      user: {
        id: 'u1',
        userName: 'Ada',
        email: 'ada@example.com',
        roles: 2,
        org: ['org-1'],
        orgID: ['org-1'],
        orgRoles: { 'org-1': 2 },
        theme: 'light',
      },
    });
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("leaves for the sign-in page without saying the session expired, though the sign-out refused the page's other calls", async () => {
    // The sign-out ends every session of the user: the real-time channel's reconnect, made while the
    // sign-out is answered, finds its access token and the refresh cookie refused.
    const { promise: answered, resolve: answer } = Promise.withResolvers<Response>();
    fetchMock.mockImplementation((input) => {
      const path = String(input);
      if (path === apiEndpoint('userLogout').path) return answered;
      if (path === apiEndpoint('realtimeToken').path) {
        return Promise.resolve(json(401, { message: 'jwt expired', expired: true }));
      }
      return Promise.resolve(json(401, { message: 'Your session has expired.' }));
    });

    const signedOut = logout('u1');
    const refused = await callApi('realtimeToken', { clientId: 'web-1' }, { background: true }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SessionRefused);
    let ended = false;
    void endSessionUnlessRenewed('old').then(() => (ended = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The page stays until the sign-out is answered: its answer clears the cookies.
    expect(assign).not.toHaveBeenCalled();
    answer(json(200, {}));
    await signedOut;

    expect(assign.mock.calls).toEqual([['/login']]);
    // Signing out is no expiry: the sign-in page has nothing to explain.
    expect(sessionEndedByItself()).toBe(false);
    expect(ended).toBe(false);
  });

  it('leaves for the sign-in page when the sign-out itself is refused as expired', async () => {
    fetchMock.mockImplementation((input) =>
      Promise.resolve(
        String(input) === apiEndpoint('userLogout').path
          ? json(401, { message: 'jwt expired', expired: true })
          : json(401, { message: 'Your session has expired.' }),
      ),
    );
    await expect(logout('u1')).rejects.toBeInstanceOf(SessionRefused);
    expect(assign.mock.calls).toEqual([['/login']]);
  });
});

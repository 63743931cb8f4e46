import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { establishSession, getAccessToken, getSession, renewingSession } from '../session/sessionStore';
import { forgetSessionEnded, sessionEndedByItself } from '../session/sessionHint';
import { dismissToast, getToasts } from '../ui/toastStore';
import { ApiError, callApi, endSessionUnlessRenewed, refreshSession, SessionRefused } from './client';

const user = { id: 'u1', userName: 'Ada', email: 'ada@example.com', roles: 2, org: ['o1'] };

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

const expired = () => json(401, { message: 'jwt expired', expired: true });

describe('callApi', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const assign = vi.fn<(url: string) => void>();
  const written: string[] = [];
  const stored = new Map<string, string>();

  beforeEach(() => {
    fetchMock.mockReset();
    assign.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    vi.stubGlobal('window', { location: { assign }, isSecureContext: true });
    // The page's cookie jar as the page sees it: what it writes is recorded.
    written.length = 0;
    stored.clear();
    vi.stubGlobal('sessionStorage', {
      setItem: (key: string, value: string) => stored.set(key, value),
      getItem: (key: string) => stored.get(key) ?? null,
      removeItem: (key: string) => stored.delete(key),
    });
    vi.stubGlobal('document', {
      get cookie() {
        return 'signedIn=1';
      },
      set cookie(value: string) {
        written.push(value);
      },
    });
    establishSession({
      accessToken: 'old',
      user: { ...user, roles: 2, orgID: ['org-1'], orgRoles: { 'org-1': 2 }, theme: 'light' },
    });
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("sends JSON to the call's path with the bearer token and same-origin credentials", async () => {
    fetchMock.mockResolvedValueOnce(json(200, { count: 1 }));
    await expect(callApi('setUnreadNotificationStatus', { unreadNotificationIds: ['n1'] })).resolves.toEqual({
      count: 1,
    });
    const [path, init] = fetchMock.mock.calls[0] ?? [];
    expect(path).toBe('/api/notification/setUnreadNotificationStatus');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('same-origin');
    expect(init?.body).toBe('{"unreadNotificationIds":["n1"]}');
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer old');
  });

  it('refreshes once for concurrent expired 401s and retries each request with the new token', async () => {
    fetchMock.mockImplementation(async (input, init) => {
      const auth = new Headers(init?.headers).get('authorization');
      if (input === '/api/refreshToken') {
        expect(init?.body).toBe('{}');
        return json(200, { accessToken: 'new', user });
      }
      return auth === 'Bearer new' ? json(200, { path: input }) : expired();
    });

    const results = await Promise.all([
      callApi('fetchUsers', {}),
      callApi('getUnreadNotificationCount', {}),
      callApi('getUsersOrganisations', {}),
    ]);

    expect(results).toEqual([
      { path: '/api/fetchUsers' },
      { path: '/api/notification/getUnreadNotificationCount' },
      { path: '/api/dashboard/getUsersOrganisations' },
    ]);
    expect(fetchMock.mock.calls.filter(([path]) => path === '/api/refreshToken')).toHaveLength(1);
    expect(getAccessToken()).toBe('new');
  });

  it('recognises the expiry flag in the www-authenticate header', async () => {
    fetchMock
      .mockResolvedValueOnce(
        new Response(null, {
          status: 401,
          headers: { 'www-authenticate': 'Bearer error="invalid_token" expired' },
        }),
      )
      .mockResolvedValueOnce(json(200, { accessToken: 'new', user }))
      .mockResolvedValueOnce(json(200, 'done'));
    await expect(callApi('fetchUsers', {})).resolves.toBe('done');
  });

  it('does not refresh on a 401 without the expiry flag and reports the server message', async () => {
    fetchMock.mockResolvedValueOnce(json(401, { message: 'Wrong password' }));
    const request = callApi('login', { user: { email: 'ada@example.com', password: 'wrong' } });
    await expect(request).rejects.toBeInstanceOf(ApiError);
    await expect(request).rejects.toMatchObject({ status: 401, message: 'Wrong password' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('clears the session and reloads /login when the refresh is rejected', async () => {
    fetchMock.mockResolvedValueOnce(expired()).mockResolvedValueOnce(json(401, { message: 'expired' }));
    let settled = false;
    const settle = () => {
      settled = true;
    };
    callApi('fetchUsers', {}).then(settle, settle);
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('/login'));
    expect(getSession()).toEqual({ status: 'signedOut' });
    // The session hint goes too: the sign-in page it reloads tries no refresh, and says why it is shown.
    expect(written).toEqual(['signedIn=; Max-Age=0; Path=/; SameSite=Strict; Secure']);
    expect(sessionEndedByItself()).toBe(true);
    forgetSessionEnded();
    expect(sessionEndedByItself()).toBe(false);
    // The page is being replaced: the caller is left waiting rather than shown an error.
    await Promise.resolve();
    expect(settled).toBe(false);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('answers a background call whose refresh is refused with the 401, keeping the session', async () => {
    fetchMock.mockResolvedValueOnce(expired()).mockResolvedValueOnce(json(401, { message: 'expired' }));
    const refused = await callApi('realtimeToken', { clientId: 'web-1' }, { background: true }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SessionRefused);
    expect((refused as ApiError).status).toBe(401);
    expect(assign).not.toHaveBeenCalled();
    expect(getAccessToken()).toBe('old');
  });

  it('answers a background call refused for another reason with its error, not SessionRefused', async () => {
    fetchMock.mockResolvedValueOnce(json(429, { message: 'Slow down' }));
    const refused = await callApi('realtimeToken', { clientId: 'web-1' }, { background: true }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).not.toBeInstanceOf(SessionRefused);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('ends a refused session on the sign-in page when no renewal is under way', async () => {
    let settled = false;
    const settle = () => {
      settled = true;
    };
    endSessionUnlessRenewed('old').then(settle, settle);
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('/login'));
    expect(getSession()).toEqual({ status: 'signedOut' });
    await Promise.resolve();
    expect(settled).toBe(false);
  });

  it('waits for a renewal under way (a password change) and goes on with the session it answers', async () => {
    let answer: (token: string) => void = () => undefined;
    const renewal = renewingSession(
      () =>
        new Promise<void>((resolve) => {
          answer = (token) => {
            establishSession({
              accessToken: token,
              user: { ...user, roles: 2, orgRoles: {}, orgID: [], theme: 'light' },
            });
            resolve();
          };
        }),
    );
    let renewed = false;
    const outcome = endSessionUnlessRenewed('old').then(() => (renewed = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(renewed).toBe(false);
    expect(assign).not.toHaveBeenCalled();
    answer('new');
    await renewal;
    await outcome;
    expect(renewed).toBe(true);
    expect(assign).not.toHaveBeenCalled();
    expect(getAccessToken()).toBe('new');
  });

  it('ends the session when the renewal under way fails', async () => {
    const renewal = renewingSession(() => Promise.reject(new ApiError(400, 'Old password wrong')));
    void endSessionUnlessRenewed('old');
    await expect(renewal).rejects.toMatchObject({ status: 400 });
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('/login'));
    expect(getSession()).toEqual({ status: 'signedOut' });
  });

  it('toasts the unexpected-error text for 5xx and network failures, not for 4xx', async () => {
    fetchMock.mockResolvedValueOnce(json(400, { message: 'Bad' }));
    await expect(callApi('fetchUsers', {})).rejects.toMatchObject({ status: 400 });
    expect(getToasts()).toHaveLength(0);

    fetchMock.mockResolvedValueOnce(json(502, { message: 'Bad gateway' }));
    await expect(callApi('fetchUsers', {})).rejects.toMatchObject({ status: 502, message: 'Bad gateway' });
    expect(getToasts().map((toast) => toast.message)).toEqual(['An unexpected error occured.']);

    for (const toast of getToasts()) dismissToast(toast.id);
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(callApi('fetchUsers', {})).rejects.toMatchObject({ status: 0, message: 'Failed to fetch' });
    expect(getToasts().map((toast) => toast.message)).toEqual(['An unexpected error occured.']);
  });

  it('shares one refresh between the app-load bootstrap and other callers', async () => {
    fetchMock.mockResolvedValue(json(200, { accessToken: 'boot', user }));
    const [first, second] = await Promise.all([refreshSession(), refreshSession()]);
    expect(first).toMatchObject({ accessToken: 'boot', user: { id: 'u1', email: 'ada@example.com' } });
    expect(second).toBe(first);
    expect(getAccessToken()).toBe('boot');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('callApi for a GET call', () => {
  const fetchMock = vi.fn<typeof fetch>();

  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends no body', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { city: 'Oslo', pressureKpa: 101.3, time: 1 }));
    await expect(callApi('weather', {})).resolves.toMatchObject({ city: 'Oslo' });
    const [path, init] = fetchMock.mock.calls[0] ?? [];
    expect(path).toBe('/api/weather');
    expect(init?.method).toBe('GET');
    expect(init?.body).toBeUndefined();
  });
});

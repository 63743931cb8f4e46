import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The bootstrap runs once per page: each case loads it afresh, with the same session store. */
const load = async () => {
  vi.resetModules();
  const [{ bootstrapSession }, store] = await Promise.all([
    import('./sessionBootstrap'),
    import('../shared/session/sessionStore'),
  ]);
  bootstrapSession();
  return store;
};

describe('the session at page load', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const written: string[] = [];
  const stored = new Map<string, string>();
  let cookie = '';

  beforeEach(() => {
    fetchMock.mockReset();
    written.length = 0;
    stored.clear();
    vi.stubGlobal('fetch', fetchMock);
    vi.stubGlobal('window', { location: { assign: vi.fn() }, isSecureContext: true });
    vi.stubGlobal('sessionStorage', {
      setItem: (key: string, value: string) => stored.set(key, value),
      getItem: (key: string) => stored.get(key) ?? null,
      removeItem: (key: string) => stored.delete(key),
    });
    vi.stubGlobal('document', {
      get cookie() {
        return cookie;
      },
      set cookie(value: string) {
        written.push(value);
      },
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('asks for no refresh without the session hint, and signs out at once', async () => {
    cookie = '';
    const store = await load();
    expect(store.getSession()).toEqual({ status: 'signedOut' });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('forgets the hint and tells the sign-in page when the refresh is refused', async () => {
    cookie = 'signedIn=1';
    fetchMock.mockResolvedValueOnce(
      new Response(JSON.stringify({ message: 'Your session has expired. Please sign in again.' }), {
        status: 401,
        headers: { 'content-type': 'application/json' },
      }),
    );
    const store = await load();
    await vi.waitFor(() => expect(store.getSession()).toEqual({ status: 'signedOut' }));
    expect(written).toEqual(['signedIn=; Max-Age=0; Path=/; SameSite=Strict; Secure']);
    expect(stored.size).toBe(1);
  });

  it('keeps the hint when the API cannot be reached, so the next load tries again', async () => {
    cookie = 'signedIn=1';
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const store = await load();
    await vi.waitFor(() => expect(store.getSession()).toEqual({ status: 'signedOut' }));
    expect(written).toEqual([]);
    expect(stored.size).toBe(0);
  });
});

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyAccessToken } from '../src/adapters/access-token';

/**
 * The access-token check of the API's JWT authorizer emulation and the realtime authorizer, against a
 * user pool's JWKS served here. A token verified once is not verified by signature again, only its
 * expiry, and nothing about that weakens the check.
 */
describe('access tokens', () => {
  let issuer = '';
  let sign: (claims: Record<string, unknown>, expiresAt: number) => Promise<string>;
  const server = createServer();
  const clientId = 'client-1';

  beforeAll(async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    server.on('request', (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pool`;
    sign = (claims, expiresAt) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setIssuer(issuer)
        .setIssuedAt()
        .setExpirationTime(expiresAt)
        .sign(privateKey);
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;
  const access = { token_use: 'access', client_id: clientId, sub: 'user-1' };

  it('verifies a token once by its signature; the same token again only by its expiry', async () => {
    const token = await sign(access, inAnHour());
    const verify = vi.spyOn(crypto.subtle, 'verify');
    expect(await verifyAccessToken(token, issuer, clientId)).toMatchObject({
      ok: true,
      claims: { sub: 'user-1' },
    });
    const afterFirst = verify.mock.calls.length;
    expect(afterFirst).toBeGreaterThan(0);
    expect(await verifyAccessToken(token, issuer, clientId)).toMatchObject({ ok: true });
    expect(verify.mock.calls.length).toBe(afterFirst);

    // After the time a JWKS is kept, the signature is verified again (a withdrawn key stops it).
    vi.useFakeTimers({ now: Date.now() + 11 * 60 * 1000, toFake: ['Date'] });
    expect(await verifyAccessToken(token, issuer, clientId)).toMatchObject({ ok: true });
    expect(verify.mock.calls.length).toBeGreaterThan(afterFirst);

    // Once it expires, the token verified before is refused as expired.
    vi.useFakeTimers({ now: (inAnHour() + 60) * 1000, toFake: ['Date'] });
    expect(await verifyAccessToken(token, issuer, clientId)).toEqual({ ok: false, expired: true });
  });

  it('refuses a token altered after one was verified, another client or issuer, and an id token', async () => {
    const token = await sign(access, inAnHour());
    expect((await verifyAccessToken(token, issuer, clientId)).ok).toBe(true);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const forged = Buffer.from(
      JSON.stringify({ ...access, sub: 'someone-else', iss: issuer, exp: inAnHour() }),
    );
    expect(
      await verifyAccessToken(`${header}.${forged.toString('base64url')}.${signature}`, issuer, clientId),
    ).toEqual({ ok: false, expired: false });
    expect(await verifyAccessToken(`${header}.${payload}.${signature}x`, issuer, clientId)).toEqual({
      ok: false,
      expired: false,
    });
    expect(await verifyAccessToken(token, issuer, 'client-2')).toEqual({ ok: false, expired: false });
    expect(await verifyAccessToken(token, `${issuer}-other`, clientId)).toEqual({
      ok: false,
      expired: false,
    });
    const idToken = await sign({ ...access, token_use: 'id' }, inAnHour());
    expect(await verifyAccessToken(idToken, issuer, clientId)).toEqual({ ok: false, expired: false });
  });
});

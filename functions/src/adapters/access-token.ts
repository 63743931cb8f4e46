import type * as Jose from 'jose';
import type { createRemoteJWKSet, JWTPayload } from 'jose';
import { config } from '../config';
import type { TokenCheck } from '../domain/auth/ports';

/**
 * jose, read on first use: only a call that verifies a token's signature needs it, so a cold start
 * serving sign-in, the theme or an invite lookup (or a token already verified) does not parse it.
 */
let loadedJose: Promise<typeof Jose> | undefined;
const loadJose = () => (loadedJose ??= import('jose'));

let jwks: { issuer: string; keys: ReturnType<typeof createRemoteJWKSet> } | undefined;

async function keySet(issuer: string) {
  if (jwks?.issuer !== issuer) {
    const { createRemoteJWKSet } = await loadJose();
    jwks = { issuer, keys: createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`)) };
  }
  return jwks.keys;
}

/**
 * Tokens whose signature, issuer, `token_use` and client were verified, by the token itself (the whole
 * signed string: a token that differs in one character is another key). A browser sends the same
 * token with every call until it refreshes it, so a call verifies only its expiry again, not the RSA
 * signature. A verification is trusted for `VERIFIED_FOR_MS`, jose's default time to keep a JWKS, so
 * a key the pool withdraws stops admitting its tokens as soon as it would without this. At most
 * `VERIFIED_LIMIT` are kept, the oldest dropped first.
 */
const VERIFIED_LIMIT = 1000;
const VERIFIED_FOR_MS = 10 * 60 * 1000;
interface Verified {
  issuer: string;
  clientId: string;
  claims: JWTPayload;
  at: number;
}
const verified = new Map<string, Verified>();

function remember(token: string, entry: Verified) {
  if (verified.size >= VERIFIED_LIMIT) verified.delete(verified.keys().next().value as string);
  verified.set(token, entry);
}

/**
 * Verifies a user pool access token: signature (pool's JWKS), issuer, expiry, `token_use` and the
 * app client. This is what API Gateway's JWT authorizer checks, and what the realtime authorizer uses.
 */
export async function verifyAccessToken(
  token: string,
  issuer = config.tokenIssuer,
  clientId = config.userPoolClientId,
): Promise<TokenCheck> {
  const known = verified.get(token);
  if (
    known &&
    known.issuer === issuer &&
    known.clientId === clientId &&
    Date.now() - known.at < VERIFIED_FOR_MS
  ) {
    // As jose checks it: expired once the current second reaches `exp`.
    if (typeof known.claims.exp === 'number' && known.claims.exp <= Math.floor(Date.now() / 1000)) {
      verified.delete(token);
      return { ok: false, expired: true };
    }
    return { ok: true, claims: known.claims };
  }
  try {
    const [{ jwtVerify }, keys] = await Promise.all([loadJose(), keySet(issuer)]);
    const { payload } = await jwtVerify(token, keys, { issuer });
    if (payload.token_use !== 'access' || payload.client_id !== clientId)
      return { ok: false, expired: false };
    remember(token, { issuer, clientId, claims: payload, at: Date.now() });
    return { ok: true, claims: payload };
  } catch (error) {
    return {
      ok: false,
      expired: error instanceof Error && 'code' in error && error.code === 'ERR_JWT_EXPIRED',
    };
  }
}

/** The access-token verifier the authorizers use, against the configured user pool. */
export const poolAccessTokens = { verify: (token: string) => verifyAccessToken(token) };

import { createRemoteJWKSet, jwtVerify } from 'jose';
import { config } from '../config';
import type { TokenCheck } from '../domain/auth/ports';

let jwks: { issuer: string; keys: ReturnType<typeof createRemoteJWKSet> } | undefined;

function keySet(issuer: string) {
  if (jwks?.issuer !== issuer) {
    jwks = { issuer, keys: createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`)) };
  }
  return jwks.keys;
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
  try {
    const { payload } = await jwtVerify(token, keySet(issuer), { issuer });
    if (payload.token_use !== 'access' || payload.client_id !== clientId)
      return { ok: false, expired: false };
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

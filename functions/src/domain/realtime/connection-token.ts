import * as z from 'zod/mini';
import { isBrowserClientId } from '@argentum/contracts/messaging';
import { memberOrgIds, REALTIME_MAX_ORGS, REALTIME_TEXTS, type RealtimeTokenView } from '@argentum/contracts';
import { notFound, validationError } from '../errors';
import type { Clock } from '../ports';
import type { AuthUser } from '../users/user';

/** How long a connection token is accepted: as long as IoT Core keeps a connection (24 h). */
export const CONNECTION_TOKEN_SECONDS = 24 * 3600;

/**
 * What a connection token says, signed by the API: who (`sub`), which session (`sid`, the access
 * token's `auth_time`, so signing out or a password reset ends it), which client id (`cid`), which
 * organizations (`orgs`) and until when (`exp`, epoch seconds). The authorizer trusts it only because
 * IoT Core (locally the broker) verified its signature; it still re-checks the user record each time.
 */
export const connectionClaimsSchema = z.lazy(() =>
  z.strictObject({
    v: z.literal(1),
    sub: z.string().check(z.minLength(1), z.maxLength(128)),
    sid: z.number().check(z.int(), z.nonnegative()),
    cid: z.string().check(z.refine(isBrowserClientId)),
    orgs: z
      .array(z.string().check(z.minLength(1), z.maxLength(64)))
      .check(z.minLength(1), z.maxLength(REALTIME_MAX_ORGS)),
    exp: z.number().check(z.int(), z.positive()),
  }),
);
export type ConnectionClaims = z.infer<typeof connectionClaimsSchema>;

/** Signs a connection token: RSA-SHA256, base64 (what IoT Core verifies with the authorizer's public key). */
export interface TokenSigner {
  sign(token: string): Promise<string>;
}

export const encodeConnectionToken = (claims: ConnectionClaims) =>
  Buffer.from(JSON.stringify(claims), 'utf8').toString('base64url');

/** The claims of a token whose signature was verified, or undefined when it is not one of ours. */
export function decodeConnectionToken(token: string | undefined): ConnectionClaims | undefined {
  if (!token || token.length > 8192) return undefined;
  try {
    const parsed = connectionClaimsSchema.safeParse(
      JSON.parse(Buffer.from(token, 'base64url').toString('utf8')),
    );
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export interface ConnectionTokenPorts {
  signer: TokenSigner;
  clock: Clock;
}

/**
 * Mints the token a browser connects with. The client id must be a browser's (`web-<uuid>`); the
 * organizations are those the page watches that are still the caller's, at most REALTIME_MAX_ORGS;
 * none named: the caller's first ones. One that is not the caller's (any more: a page still holds an
 * organization its user was removed from until it learns so) is left out, foreign and unknown alike,
 * so the others keep their live messages; 404 only when none is left.
 */
export async function mintConnectionToken(
  deps: ConnectionTokenPorts,
  caller: { user: Pick<AuthUser, 'userId' | 'orgRoles'>; authTime: number },
  request: { clientId: string; orgIds?: readonly string[] | undefined },
): Promise<RealtimeTokenView> {
  if (!isBrowserClientId(request.clientId)) throw validationError(REALTIME_TEXTS.badClientId);
  const member = memberOrgIds(caller.user.orgRoles);
  if (member.length === 0) throw notFound(REALTIME_TEXTS.noOrganization);
  const orgIds = request.orgIds
    ? [...new Set(request.orgIds)].filter((orgId) => member.includes(orgId))
    : [...member].sort().slice(0, REALTIME_MAX_ORGS);
  if (orgIds.length === 0) throw notFound(REALTIME_TEXTS.unknownOrganization);
  const expiresAt = Math.floor(deps.clock.now().getTime() / 1000) + CONNECTION_TOKEN_SECONDS;
  const token = encodeConnectionToken({
    v: 1,
    sub: caller.user.userId,
    sid: caller.authTime,
    cid: request.clientId,
    orgs: orgIds,
    exp: expiresAt,
  });
  return { token, signature: await deps.signer.sign(token), clientId: request.clientId, orgIds, expiresAt };
}
